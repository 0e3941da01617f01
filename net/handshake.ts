/**
 * Mutual authentication of one stream with the cluster's ed25519 keys (decision 0003).
 *
 * Three messages, each alone in its own frame, before any protocol message:
 *   1. server -> dialer  HELLO  u8 1, u8 version, challengeS[32], serverIdentity
 *   2. dialer -> server  AUTH   u8 2, u8 version, dialerIdentity, challengeD[32],
 *                               sig_dialer(TAG_DIALER || challengeS || serverIdentity || dialerIdentity)
 *   3. server -> dialer  PROOF  u8 3, sig_server(TAG_SERVER || challengeD || dialerIdentity || serverIdentity)
 * The dialer refuses a server whose identity is not the one it meant to dial, or whose key the
 * configuration does not know; the server refuses a dialer whose key it does not know. Fresh random
 * challenges make every signature single-use; the domain tags keep these signatures from ever being
 * mistaken for protocol signatures made with the same keys. Each step returns a Result with a closed
 * reason (counted by the caller) instead of throwing.
 *
 * Caveat: without TLS this proves who opened the stream, not that an on-path attacker cannot take
 * it over afterwards; run TLS (`transport.tls` in the configuration, net/tls.ts) where the network
 * is not trusted.
 */
import sodium from 'sodium-native';
import type { RejectReason } from './transport-stats.ts';
import { encodePeer, readPeer, samePeer, type PeerIdentity } from './peer-identity.ts';
import { sameKey } from './tls.ts';

export const HANDSHAKE_VERSION = 1;
const T_HELLO = 1;
const T_AUTH = 2;
const T_PROOF = 3;
const CHALLENGE_BYTES = 32;
const SIG_BYTES = 64;
const PUBLIC_KEY_BYTES = 32;
const TAG_DIALER = Buffer.from('pesto/net/v1 dialer auth\0');
const TAG_SERVER = Buffer.from('pesto/net/v1 server auth\0');

/** What an endpoint needs to authenticate itself and its peers. */
export interface EndpointKeys {
  readonly identity: PeerIdentity;
  /** ed25519 secret key in sodium's 64-byte form (seed || public key). */
  readonly secretKey: Uint8Array;
  /** The configured public key of a peer, or undefined when the peer is not a cluster member. */
  readonly publicKeyOf: (peer: PeerIdentity) => Uint8Array | undefined;
}

export type StepResult =
  | { readonly ok: true; readonly reply: Buffer | undefined; readonly peer: PeerIdentity | undefined }
  | { readonly ok: false; readonly reason: RejectReason };

function reject(reason: RejectReason): StepResult {
  return { ok: false, reason };
}

function sign(keys: EndpointKeys, tag: Buffer, challenge: Uint8Array, a: Uint8Array, b: Uint8Array): Buffer {
  const sig = Buffer.alloc(SIG_BYTES);
  sodium.crypto_sign_detached(sig, Buffer.concat([tag, challenge, a, b]), Buffer.from(keys.secretKey.buffer, keys.secretKey.byteOffset, keys.secretKey.byteLength));
  return sig;
}

function verify(publicKey: Uint8Array, sig: Uint8Array, tag: Buffer, challenge: Uint8Array, a: Uint8Array, b: Uint8Array): boolean {
  if (publicKey.byteLength !== PUBLIC_KEY_BYTES) return false;
  return sodium.crypto_sign_verify_detached(
    Buffer.from(sig.buffer, sig.byteOffset, sig.byteLength),
    Buffer.concat([tag, challenge, a, b]),
    Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength),
  );
}

function randomChallenge(): Buffer {
  const c = Buffer.alloc(CHALLENGE_BYTES);
  sodium.randombytes_buf(c);
  return c;
}

/** The accepting side: sends HELLO, checks AUTH, answers with PROOF. */
export class ServerHandshake {
  private readonly challenge = randomChallenge();
  private readonly selfBytes: Uint8Array;
  private done = false;

  /**
   * `channelKey`: on a TLS link, the ed25519 key of the dialer's TLS certificate (NO_CHANNEL_KEY
   * when it had none usable); the dialer must authenticate as the identity of that very key, so a
   * member cannot relay another's handshake through its own TLS session (net/tls.ts).
   */
  constructor(
    private readonly keys: EndpointKeys,
    private readonly channelKey?: Uint8Array,
  ) {
    this.selfBytes = encodePeer(keys.identity);
  }

  hello(): Buffer {
    return Buffer.concat([Buffer.from([T_HELLO, HANDSHAKE_VERSION]), this.challenge, this.selfBytes]);
  }

  /** Consumes the dialer's AUTH; on success `peer` is the authenticated dialer and `reply` the PROOF. */
  receive(msg: Uint8Array): StepResult {
    if (this.done) return reject('handshake-unexpected');
    if (msg.length < 2 || msg[0] !== T_AUTH) return reject('handshake-malformed');
    if (msg[1] !== HANDSHAKE_VERSION) return reject('handshake-version');
    const id = readPeer(msg, 2);
    if (id === undefined || id.end + CHALLENGE_BYTES + SIG_BYTES !== msg.length) return reject('handshake-malformed');
    const dialerBytes = msg.subarray(2, id.end);
    const challengeD = msg.subarray(id.end, id.end + CHALLENGE_BYTES);
    const sig = msg.subarray(id.end + CHALLENGE_BYTES);
    const publicKey = this.keys.publicKeyOf(id.peer);
    if (publicKey === undefined) return reject('auth-unknown-peer');
    if (!verify(publicKey, sig, TAG_DIALER, this.challenge, this.selfBytes, dialerBytes)) return reject('auth-bad-signature');
    if (this.channelKey !== undefined && !sameKey(this.channelKey, publicKey)) return reject('tls-wrong-peer');
    this.done = true;
    const proof = sign(this.keys, TAG_SERVER, challengeD, dialerBytes, this.selfBytes);
    return { ok: true, reply: Buffer.concat([Buffer.from([T_PROOF]), proof]), peer: id.peer };
  }
}

/** The dialing side: answers HELLO with AUTH, then checks the server's PROOF. */
export class DialerHandshake {
  private readonly challenge = randomChallenge();
  private readonly selfBytes: Uint8Array;
  private readonly expectedBytes: Uint8Array;
  private step: 'hello' | 'proof' | 'done' = 'hello';

  constructor(
    private readonly keys: EndpointKeys,
    private readonly expected: PeerIdentity,
  ) {
    this.selfBytes = encodePeer(keys.identity);
    this.expectedBytes = encodePeer(expected);
  }

  /** HELLO yields `reply` = AUTH (peer undefined); PROOF yields `peer` = the authenticated server. */
  receive(msg: Uint8Array): StepResult {
    if (this.step === 'hello') {
      if (msg.length < 2 || msg[0] !== T_HELLO) return reject('handshake-malformed');
      if (msg[1] !== HANDSHAKE_VERSION) return reject('handshake-version');
      const id = readPeer(msg, 2 + CHALLENGE_BYTES);
      if (id === undefined || id.end !== msg.length) return reject('handshake-malformed');
      if (!samePeer(id.peer, this.expected)) return reject('auth-wrong-peer');
      if (this.keys.publicKeyOf(id.peer) === undefined) return reject('auth-unknown-peer');
      const challengeS = msg.subarray(2, 2 + CHALLENGE_BYTES);
      const sig = sign(this.keys, TAG_DIALER, challengeS, this.expectedBytes, this.selfBytes);
      this.step = 'proof';
      const reply = Buffer.concat([Buffer.from([T_AUTH, HANDSHAKE_VERSION]), this.selfBytes, this.challenge, sig]);
      return { ok: true, reply, peer: undefined };
    }
    if (this.step === 'proof') {
      if (msg.length !== 1 + SIG_BYTES || msg[0] !== T_PROOF) return reject('handshake-malformed');
      const publicKey = this.keys.publicKeyOf(this.expected);
      if (publicKey === undefined) return reject('auth-unknown-peer');
      if (!verify(publicKey, msg.subarray(1), TAG_SERVER, this.challenge, this.selfBytes, this.expectedBytes)) return reject('auth-bad-signature');
      this.step = 'done';
      return { ok: true, reply: undefined, peer: this.expected };
    }
    return reject('handshake-unexpected');
  }
}
