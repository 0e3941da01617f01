/**
 * Mutual TLS for both transports (decision 0026): what an endpoint presents and trusts, and the pin
 * that ties a TLS peer to the identity its handshake authenticates.
 *
 * The certificates come from the cluster configuration (protocol/x509.ts): the trust authorities are
 * the CAs, every replica and client has a leaf certificate for its own ed25519 key, and the TLS
 * private key is that same key (the seed in its key file). So TLS needs no key material beyond what
 * a process already holds: in Kubernetes, the ConfigMap (certificates are public) and the pod's key
 * Secret, as without TLS.
 *
 * Chain verification alone would accept any member's certificate, so both sides also pin: the dialer
 * accepts only a server certificate whose key is the configured key of the peer it dials
 * (`checkServerIdentity`), and the server accepts the link only if the key the dialer's handshake
 * proves is the key of the dialer's TLS certificate (`ServerHandshake`'s channel key). A member who
 * relays another's handshake through its own TLS session is therefore refused ('tls-wrong-peer').
 * The ed25519 handshake still runs inside TLS; TLS adds confidentiality and integrity on the wire.
 */
import { X509Certificate } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import { tlsCertificatesOf, type ClusterConfig } from '../protocol/config.ts';
import type { PeerIdentity } from './peer-identity.ts';
import { peerKey } from './peer-identity.ts';
import { transportStats } from './transport-stats.ts';

/** What one endpoint presents and trusts, as PEM. */
export interface TlsEndpoint {
  /** The cluster's CA certificates (its trust authorities). */
  readonly ca: string;
  /** This endpoint's own certificate. */
  readonly certificate: string;
  /** Its private key (PKCS#8). */
  readonly privateKey: string;
}

/** SNI name the dialers send: certificates are pinned by key, never matched against host names. */
export const TLS_SERVER_NAME = 'pesto';

export class TlsConfigError extends Error {
  override readonly name = 'TlsConfigError';
}

/** A dialer refused the server's certificate: its key is not the dialed peer's (counted once, by the pin). */
export class TlsWrongPeerError extends Error {
  override readonly name = 'TlsWrongPeerError';
}

function pem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
}

/** PKCS#8 prefix of an ed25519 private key (RFC 8410): the 32-byte seed follows. */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The TLS identity of `self` in `config`, from its sodium secret key (seed ‖ public key). */
export function tlsEndpointOf(config: ClusterConfig, self: PeerIdentity, secretKey: Uint8Array): TlsEndpoint {
  const { authorities, own } = tlsCertificatesOf(config, self);
  if (own === undefined) throw new TlsConfigError(`TLS is on but the configuration has no tlsCertificate for ${peerKey(self)}`);
  if (authorities.length === 0) throw new TlsConfigError('TLS is on but no authority of the configuration has a tlsCertificate');
  return tlsEndpoint(authorities, own, secretKey);
}

/** An endpoint from DER certificates: the CAs, its own, and its sodium secret key. */
export function tlsEndpoint(authorities: readonly Uint8Array[], own: Uint8Array, secretKey: Uint8Array): TlsEndpoint {
  return {
    ca: authorities.map((der) => pem('CERTIFICATE', der)).join(''),
    certificate: pem('CERTIFICATE', own),
    privateKey: pem('PRIVATE KEY', Buffer.concat([PKCS8_ED25519, secretKey.subarray(0, 32)])),
  };
}

/** The ed25519 key of a DER certificate; undefined for anything else. */
export function certificateKey(raw: Buffer | undefined): Uint8Array | undefined {
  if (raw === undefined || raw.length === 0) return undefined;
  try {
    const key = new X509Certificate(raw).publicKey;
    if (key.asymmetricKeyType !== 'ed25519') return undefined;
    return key.export({ format: 'der', type: 'spki' }).subarray(-32);
  } catch {
    return undefined;
  }
}

export function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/**
 * The dialer's server check: the certificate's key must be `expected`, the configured key of the
 * peer being dialed (chain verification has already passed). Counts a mismatch as 'tls-wrong-peer'.
 */
export function pinServer(expected: Uint8Array | undefined): (host: string, cert: PeerCertificate) => Error | undefined {
  return (_host, cert) => {
    const key = certificateKey(cert.raw);
    if (expected !== undefined && key !== undefined && sameKey(key, expected)) return undefined;
    transportStats.rejected['tls-wrong-peer']++;
    return new TlsWrongPeerError("the server certificate is not the dialed peer's configured key");
  };
}

/** A key no handshake can match: the server's channel key when the TLS peer showed no usable certificate. */
export const NO_CHANNEL_KEY = new Uint8Array(0);
