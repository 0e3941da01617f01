/**
 * Canonical X.509 certificates for the links' TLS (decision 0026), built from what the cluster
 * configuration already holds: the trust authorities' and members' ed25519 keys.
 *
 * A trust authority is the TLS certificate authority of its cluster: its certificate is self-signed
 * with its ed25519 key. Every replica and client gets a leaf certificate for its own ed25519 key (the
 * key its handshake signs with), signed by the authority that certified it. Every field is derived
 * from (cluster name, authority name and key, member identity and key), so a certificate is fully
 * determined by them plus the authority's signature over its TBSCertificate: the configuration
 * carries only that 64-byte signature (`tlsCertificate`), and any process rebuilds the same DER.
 * ed25519 signatures are deterministic, so issuing twice gives the same certificate.
 *
 * Validity is 2000-01-01 to 9999-12-31 (RFC 5280's "no well-defined expiration"): a certificate is
 * withdrawn by removing its key from the configuration, since every link also pins the peer's
 * certificate key to the configured key of the identity it authenticates (net/tls.ts).
 *
 * Pure: DER encoding and ed25519 only.
 */
import { blake3 } from './crypto/blake3.ts';

/** Whom a leaf certificate names (structurally net/peer-identity.ts's and config.ts's type). */
export type CertifiedMember =
  | { readonly kind: 'replica'; readonly shard: number; readonly index: number }
  | { readonly kind: 'client'; readonly id: number };

const OID_ED25519 = [1, 3, 101, 112];
const OID_COMMON_NAME = [2, 5, 4, 3];
const OID_ORGANIZATION = [2, 5, 4, 10];
const OID_BASIC_CONSTRAINTS = [2, 5, 29, 19];
const OID_KEY_USAGE = [2, 5, 29, 15];
const OID_EXT_KEY_USAGE = [2, 5, 29, 37];
const OID_SUBJECT_ALT_NAME = [2, 5, 29, 17];
const OID_SUBJECT_KEY_ID = [2, 5, 29, 14];
const OID_AUTHORITY_KEY_ID = [2, 5, 29, 35];
const OID_SERVER_AUTH = [1, 3, 6, 1, 5, 5, 7, 3, 1];
const OID_CLIENT_AUTH = [1, 3, 6, 1, 5, 5, 7, 3, 2];
const NOT_BEFORE = '000101000000Z'; // UTCTime 2000-01-01
const NOT_AFTER = '99991231235959Z'; // GeneralizedTime, RFC 5280 §4.1.2.5

// ---- DER ----

function tlv(tag: number, body: Uint8Array): Uint8Array {
  const n = body.length;
  const head = n < 0x80 ? [tag, n] : n < 0x100 ? [tag, 0x81, n] : [tag, 0x82, n >>> 8, n & 0xff];
  if (n > 0xffff) throw new RangeError('DER value too long');
  const out = new Uint8Array(head.length + n);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

function cat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const seq = (...parts: Uint8Array[]): Uint8Array => tlv(0x30, cat(parts));
const set = (...parts: Uint8Array[]): Uint8Array => tlv(0x31, cat(parts));
const octets = (b: Uint8Array): Uint8Array => tlv(0x04, b);
const bits = (b: Uint8Array): Uint8Array => tlv(0x03, cat([Uint8Array.of(0), b]));
const utf8 = (s: string): Uint8Array => tlv(0x0c, new TextEncoder().encode(s));
const TRUE = Uint8Array.of(0x01, 0x01, 0xff);

function oid(arcs: readonly number[]): Uint8Array {
  const out: number[] = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [];
    let v = arc;
    do {
      base128.unshift((v & 0x7f) | (base128.length === 0 ? 0 : 0x80));
      v = Math.floor(v / 128);
    } while (v > 0);
    out.push(...base128);
  }
  return tlv(0x06, Uint8Array.from(out));
}

function ascii(tag: number, s: string): Uint8Array {
  return tlv(tag, Uint8Array.from(s, (c) => c.charCodeAt(0) & 0x7f));
}

function extension(id: readonly number[], critical: boolean, value: Uint8Array): Uint8Array {
  return critical ? seq(oid(id), TRUE, octets(value)) : seq(oid(id), octets(value));
}

// ---- certificates ----

const ED25519_ALGORITHM = seq(oid(OID_ED25519));

/** `O=<cluster>, CN=<common name>`. */
function name(cluster: string, commonName: string): Uint8Array {
  return seq(set(seq(oid(OID_ORGANIZATION), utf8(cluster))), set(seq(oid(OID_COMMON_NAME), utf8(commonName))));
}

/** A key identifier: the first 20 bytes of BLAKE3(key). */
function keyId(publicKey: Uint8Array): Uint8Array {
  return blake3(publicKey).subarray(0, 20);
}

/** A positive serial derived from the subject key: 0x01 ‖ its first 15 bytes. */
function serial(publicKey: Uint8Array): Uint8Array {
  return tlv(0x02, cat([Uint8Array.of(1), publicKey.subarray(0, 15)]));
}

function tbs(issuer: Uint8Array, subject: Uint8Array, subjectKey: Uint8Array, extensions: readonly Uint8Array[]): Uint8Array {
  return seq(
    tlv(0xa0, tlv(0x02, Uint8Array.of(2))), // v3
    serial(subjectKey),
    ED25519_ALGORITHM,
    issuer,
    seq(ascii(0x17, NOT_BEFORE), ascii(0x18, NOT_AFTER)),
    subject,
    seq(ED25519_ALGORITHM, bits(subjectKey)),
    tlv(0xa3, seq(...extensions)),
  );
}

/** The TBSCertificate of a trust authority's self-signed CA certificate. */
export function authorityTbs(cluster: string, authority: string, authorityKey: Uint8Array): Uint8Array {
  const subject = name(cluster, `pesto authority ${authority}`);
  return tbs(subject, subject, authorityKey, [
    extension(OID_BASIC_CONSTRAINTS, true, seq(TRUE, tlv(0x02, Uint8Array.of(0)))), // CA, path length 0
    extension(OID_KEY_USAGE, true, tlv(0x03, Uint8Array.of(1, 0x06))), // keyCertSign, cRLSign
    extension(OID_SUBJECT_KEY_ID, false, octets(keyId(authorityKey))),
  ]);
}

/** `replica s0r3` or `client 7`: the common name, and `pesto://<cluster>/<that>` the URI SAN. */
function memberName(member: CertifiedMember): string {
  return member.kind === 'replica' ? `replica s${member.shard}r${member.index}` : `client ${member.id}`;
}

/** The TBSCertificate of a member's leaf certificate (TLS server and client), issued by `authority`. */
export function memberTbs(cluster: string, authority: string, authorityKey: Uint8Array, member: CertifiedMember, memberKey: Uint8Array): Uint8Array {
  const cn = memberName(member);
  const uri = `pesto://${cluster}/${cn.replace(' ', '/')}`;
  return tbs(name(cluster, `pesto authority ${authority}`), name(cluster, cn), memberKey, [
    extension(OID_BASIC_CONSTRAINTS, true, seq()),
    extension(OID_KEY_USAGE, true, tlv(0x03, Uint8Array.of(7, 0x80))), // digitalSignature
    extension(OID_EXT_KEY_USAGE, false, seq(oid(OID_SERVER_AUTH), oid(OID_CLIENT_AUTH))),
    extension(OID_SUBJECT_ALT_NAME, false, seq(ascii(0x86, uri))),
    extension(OID_AUTHORITY_KEY_ID, false, seq(tlv(0x80, keyId(authorityKey)))),
  ]);
}

/** The DER certificate: TBSCertificate, the ed25519 algorithm, the issuer's signature over the TBS. */
export function certificateDer(tbsBytes: Uint8Array, signature: Uint8Array): Uint8Array {
  return seq(tbsBytes, ED25519_ALGORITHM, bits(signature));
}
