// SCRAM-SHA-256 (RFC 5802, RFC 7677), server side, as PostgreSQL speaks it: the client-first message's
// user name is ignored (the startup packet names the user), channel binding is not offered (gs2 flag 'n'
// or 'y' accepted, 'p' refused), 4096 iterations. Credentials are derived once per configured user at
// gateway start; an unknown user runs the exchange against random credentials and fails at the proof,
// so a client cannot tell unknown users from wrong passwords.

import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

export const SCRAM_MECHANISM = 'SCRAM-SHA-256';
const ITERATIONS = 4096;

export interface ScramCredentials {
  readonly salt: Buffer;
  readonly iterations: number;
  readonly storedKey: Buffer;
  readonly serverKey: Buffer;
}

const hmac = (key: Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest();

export function deriveCredentials(password: string, salt: Buffer = randomBytes(16), iterations = ITERATIONS): ScramCredentials {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  return {
    salt,
    iterations,
    storedKey: sha256(hmac(salted, 'Client Key')),
    serverKey: hmac(salted, 'Server Key'),
  };
}

/** Splits 'a=1,b=2' into a map of single-letter attributes. */
function attributes(s: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of s.split(',')) {
    if (part.length < 2 || part[1] !== '=') continue;
    out.set(part[0] as string, part.slice(2));
  }
  return out;
}

export type ScramStep<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** One server-side exchange: `start` with the client-first message, then `finish` with the client-final. */
export class ScramExchange {
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';
  private gs2Header = '';

  constructor(private readonly credentials: ScramCredentials) {}

  /** Parses SASLInitialResponse's body; returns the server-first message. */
  start(body: Buffer): ScramStep<string> {
    const end = body.indexOf(0);
    if (end < 0 || body.length < end + 5) return { ok: false, reason: 'malformed SASLInitialResponse' };
    const mechanism = body.toString('utf8', 0, end);
    if (mechanism !== SCRAM_MECHANISM) return { ok: false, reason: `unsupported SASL mechanism "${mechanism}"` };
    const len = body.readInt32BE(end + 1);
    if (len < 0 || end + 5 + len !== body.length) return { ok: false, reason: 'malformed SASLInitialResponse' };
    const msg = body.toString('utf8', end + 5);
    const m = /^([ny]),(?:a=[^,]*)?,(.*)$/.exec(msg);
    if (m === null) return { ok: false, reason: 'unsupported or malformed SCRAM gs2 header (channel binding is not offered)' };
    this.clientFirstBare = m[2] as string;
    this.gs2Header = msg.slice(0, msg.length - this.clientFirstBare.length);
    const clientNonce = attributes(this.clientFirstBare).get('r');
    if (clientNonce === undefined || clientNonce === '') return { ok: false, reason: 'client nonce missing' };
    this.nonce = clientNonce + randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${this.credentials.salt.toString('base64')},i=${this.credentials.iterations}`;
    return { ok: true, value: this.serverFirst };
  }

  /** Verifies the client-final message; returns the server-final message ('v=...') on success. */
  finish(body: Buffer): ScramStep<string> {
    const msg = body.toString('utf8');
    const proofAt = msg.lastIndexOf(',p=');
    if (proofAt < 0) return { ok: false, reason: 'proof missing' };
    const withoutProof = msg.slice(0, proofAt);
    const attrs = attributes(withoutProof);
    if (attrs.get('r') !== this.nonce) return { ok: false, reason: 'nonce mismatch' };
    if (attrs.get('c') !== Buffer.from(this.gs2Header).toString('base64')) return { ok: false, reason: 'channel binding mismatch' };
    const proof = Buffer.from(msg.slice(proofAt + 3), 'base64');
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const clientSignature = hmac(this.credentials.storedKey, authMessage);
    if (proof.length !== clientSignature.length) return { ok: false, reason: 'bad proof' };
    const clientKey = Buffer.alloc(proof.length);
    for (let i = 0; i < proof.length; i++) clientKey[i] = (proof[i] as number) ^ (clientSignature[i] as number);
    if (!timingSafeEqual(sha256(clientKey), this.credentials.storedKey)) return { ok: false, reason: 'bad proof' };
    return { ok: true, value: `v=${hmac(this.credentials.serverKey, authMessage).toString('base64')}` };
  }
}
