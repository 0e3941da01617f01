/**
 * Secret key files: where they live in a data folder and how they are written and read.
 *
 * Format (decision 0004): a key file holds one ed25519 seed, 32 bytes as 64 hex digits, followed by a
 * newline; nothing else. The key pair is derived from it (`keyPairFromSeed`), so the file never holds the
 * public key and cannot disagree with it. Files are created with mode 0600 through a temporary file and a
 * rename, so a crash never leaves half a key behind.
 *
 * Layout of a data folder: `keys/authority.key` (the local trust authority), `keys/s<S>r<I>.key` (replica
 * I of shard S), `keys/client-<id>.key` (an authenticated client). A replica finds its key at
 * `replicaKeyPath(configPath, shard, index)`: the `keys/` folder next to the configuration file; the
 * supervisor also passes the exact path in the `PESTO_KEY_FILE` environment variable.
 *
 * Seeds come from node:crypto `randomBytes` (this is a shell; protocol/ draws no randomness).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { keyPairFromSeed, SEED_BYTES, type KeyPair } from '../protocol/crypto/ed25519.ts';
import { fromHex, toHex } from '../protocol/config.ts';

/** A key file is missing, unreadable or malformed. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

/** Which key: the file name inside `keys/` (without `.key`). */
export type KeyOwner =
  | { readonly kind: 'authority' }
  | { readonly kind: 'replica'; readonly shard: number; readonly index: number }
  | { readonly kind: 'client'; readonly id: number };

export function keyFileName(owner: KeyOwner): string {
  switch (owner.kind) {
    case 'authority':
      return 'authority.key';
    case 'replica':
      return `s${owner.shard}r${owner.index}.key`;
    case 'client':
      return `client-${owner.id}.key`;
  }
}

/** `<dataDir>/keys/<owner>.key`. */
export function keyPath(dataDir: string, owner: KeyOwner): string {
  return join(dataDir, 'keys', keyFileName(owner));
}

/** Where a replica started with `--config configPath` finds its secret key. */
export function replicaKeyPath(configPath: string, shard: number, index: number): string {
  return join(dirname(configPath), 'keys', keyFileName({ kind: 'replica', shard, index }));
}

export function newSeed(): Uint8Array {
  return new Uint8Array(randomBytes(SEED_BYTES));
}

/** Writes a seed as a key file with mode 0600 (atomically: temporary file, then rename). */
export async function writeKeyFile(path: string, seed: Uint8Array): Promise<void> {
  if (seed.length !== SEED_BYTES) throw new KeyFileError(`a seed is ${SEED_BYTES} bytes, got ${seed.length}`);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  const file = await open(tmp, 'w', 0o600);
  try {
    await file.writeFile(`${toHex(seed)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  await chmod(tmp, 0o600); // in case the file pre-existed with a looser mode
  await rename(tmp, path);
}

/** Reads a key file and derives its key pair. Throws `KeyFileError` when missing or malformed. */
export async function readKeyFile(path: string): Promise<KeyPair> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new KeyFileError(`cannot read key file ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const seed = fromHex(text.trim());
  if (seed === undefined || seed.length !== SEED_BYTES) throw new KeyFileError(`key file ${path} must hold ${2 * SEED_BYTES} hex digits (an ed25519 seed)`);
  return keyPairFromSeed(seed);
}

/** Reads the key file at `path`, or creates it with a fresh seed when it does not exist. */
export async function loadOrCreateKeyFile(path: string): Promise<{ readonly keyPair: KeyPair; readonly created: boolean }> {
  try {
    return { keyPair: await readKeyFile(path), created: false };
  } catch (e) {
    if (!(e instanceof KeyFileError) || !(await isMissing(path))) throw e;
  }
  const seed = newSeed();
  await writeKeyFile(path, seed);
  return { keyPair: keyPairFromSeed(seed), created: true };
}

async function isMissing(path: string): Promise<boolean> {
  try {
    await readFile(path);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
