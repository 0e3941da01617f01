// SCRAM-SHA-256 password verifiers as PostgreSQL stores them in pg_authid.rolpassword
// (`SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, RFC 5803), made from a password and a
// salt drawn from the injected randomness. This core folder may not import node:crypto (DESIGN §1): the
// hashes are @noble/hashes' (pure, deterministic; @noble/curves' own), made once per CREATE/ALTER ROLE
// ... PASSWORD, 4096 iterations as PostgreSQL's default.

import { hmac } from '@noble/hashes/hmac.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha256 } from '@noble/hashes/sha2.js';

const utf8 = new TextEncoder();

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

export const SCRAM_ITERATIONS = 4096;

/** The verifier of `password` with `salt` (16 bytes, as PostgreSQL draws). The password is NFKC-normalized (SASLprep's effect on common input). */
export function scramVerifier(password: string, salt: Uint8Array, iterations = SCRAM_ITERATIONS): string {
  const salted = pbkdf2(sha256, utf8.encode(password.normalize('NFKC')), salt, { c: iterations, dkLen: 32 });
  const storedKey = sha256(hmac(sha256, salted, utf8.encode('Client Key')));
  const serverKey = hmac(sha256, salted, utf8.encode('Server Key'));
  return `SCRAM-SHA-256$${iterations}:${base64(salt)}$${base64(storedKey)}:${base64(serverKey)}`;
}

/** A stored verifier's parts (the gateway's SCRAM exchange runs against them); null when `s` is not one. */
export function parseScramVerifier(s: string): { iterations: number; salt: string; storedKey: string; serverKey: string } | null {
  const m = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$/.exec(s);
  if (m === null) return null;
  const iterations = Number(m[1]);
  if (!Number.isSafeInteger(iterations) || iterations < 1) return null;
  return { iterations, salt: m[2]!, storedKey: m[3]!, serverKey: m[4]! };
}
