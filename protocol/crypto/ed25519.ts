/**
 * ed25519 for every signature and verification in the cluster, through one implementation:
 * libsodium via sodium-native (decision 0001).
 *
 * Why one implementation: ed25519 libraries disagree on edge cases. The identity public key with
 * R = identity and S = 0 "verifies" every message under OpenSSL (node:crypto) and @noble/curves'
 * default (ZIP-215) rules, but not under libsodium. If two honest replicas ran different libraries,
 * a Byzantine key could make them disagree on whether a vote counts (ed25519.test.ts shows it).
 *
 * Guarantees:
 * - `verify` never throws: wrong-length inputs return false. libsodium also rejects small-order
 *   public keys and R values and non-canonical S.
 * - `checkPublicKey` is what configuration loading calls for every replica, client and authority
 *   key: it accepts only canonical encodings of points in the prime-order subgroup (libsodium's
 *   `crypto_core_ed25519_is_valid_point`), and names why a key was refused.
 * - `sign` and `verify` count into `cryptoStats`.
 *
 * Caveats: sodium-native calls are synchronous (about 50 µs per verify on this box); run them off the
 * event loop only where a replica has a core to spare (reference/node-commit-path-model.md). Key
 * generation takes its 32-byte seed from the caller: this module draws no randomness.
 */
import sodium from 'sodium-native';
import { fail, InvariantError, ok, type Result } from '../errors.ts';
import { cryptoStats } from './crypto-stats.ts';

export const PUBLIC_KEY_BYTES = 32;
export const SECRET_KEY_BYTES = 64;
export const SEED_BYTES = 32;
export const SIGNATURE_BYTES = 64;

/**
 * The part of sodium-native used here, typed over `Uint8Array`: sodium-native 5 accepts any typed
 * array at run time (checked by the tests, which pass plain `Uint8Array`s), its typings say `Buffer`.
 */
interface SodiumEd25519 {
  crypto_sign_seed_keypair(publicKey: Uint8Array, secretKey: Uint8Array, seed: Uint8Array): void;
  crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void;
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  crypto_core_ed25519_is_valid_point(point: Uint8Array): boolean;
}
const na: SodiumEd25519 = sodium;

declare const checkedKey: unique symbol;
/** A public key that passed `checkPublicKey`. */
export type PublicKey = Uint8Array & { readonly [checkedKey]: true };

export interface KeyPair {
  readonly publicKey: PublicKey;
  /** libsodium layout: seed ‖ public key (64 bytes). */
  readonly secretKey: Uint8Array;
}

export type PublicKeyRejection = 'wrong-length' | 'small-order' | 'non-canonical' | 'not-prime-order-point';

/** Deterministic key pair from a 32-byte seed (the caller owns the randomness). */
export function keyPairFromSeed(seed: Uint8Array): KeyPair {
  if (seed.length !== SEED_BYTES) throw new InvariantError(`ed25519 seed must be ${SEED_BYTES} bytes, got ${seed.length}`);
  const publicKey = new Uint8Array(PUBLIC_KEY_BYTES);
  const secretKey = new Uint8Array(SECRET_KEY_BYTES);
  na.crypto_sign_seed_keypair(publicKey, secretKey, seed);
  return { publicKey: publicKey as PublicKey, secretKey };
}

/** Detached signature over `message` in a fresh 64-byte array. */
export function sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  if (secretKey.length !== SECRET_KEY_BYTES) throw new InvariantError(`ed25519 secret key must be ${SECRET_KEY_BYTES} bytes`);
  const signature = new Uint8Array(SIGNATURE_BYTES);
  na.crypto_sign_detached(signature, message, secretKey);
  cryptoStats.signatures++;
  return signature;
}

/** True iff `signature` is a valid libsodium ed25519 signature of `message` under `publicKey`. Never throws. */
export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== SIGNATURE_BYTES || publicKey.length !== PUBLIC_KEY_BYTES) return false;
  cryptoStats.verifications++;
  return na.crypto_sign_verify_detached(signature, message, publicKey);
}

/**
 * The y-coordinates (little-endian, sign bit masked off) of the 8 small-order points, including
 * their non-canonical encodings y + p: the same list libsodium refuses in `ge25519_has_small_order`.
 */
const SMALL_ORDER_Y: readonly string[] = [
  '0000000000000000000000000000000000000000000000000000000000000000', // 0: order 4 (x = ±sqrt(-1))
  '0100000000000000000000000000000000000000000000000000000000000000', // 1: identity
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p - 1: order 2
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p (= 0, non-canonical): order 4
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p + 1 (= 1, non-canonical): identity
];
const smallOrderY: readonly Uint8Array[] = SMALL_ORDER_Y.map((h) => Uint8Array.from(Buffer.from(h, 'hex')));

function isSmallOrderEncoding(pk: Uint8Array): boolean {
  return smallOrderY.some((y) => {
    for (let i = 0; i < 31; i++) if (pk[i] !== y[i]) return false;
    return (pk[31]! & 0x7f) === y[31];
  });
}

/** y ≥ p = 2^255 - 19, ignoring the sign bit. */
function isNonCanonicalY(pk: Uint8Array): boolean {
  if ((pk[31]! & 0x7f) !== 0x7f) return false;
  for (let i = 30; i > 0; i--) if (pk[i] !== 0xff) return false;
  return pk[0]! >= 0xed;
}

/** Accepts exactly the keys an honest `keyPairFromSeed` can produce the encoding of; never throws. */
export function checkPublicKey(pk: Uint8Array): Result<PublicKey, PublicKeyRejection> {
  if (pk.length !== PUBLIC_KEY_BYTES) return fail('wrong-length', `${pk.length} bytes`);
  if (isSmallOrderEncoding(pk)) return fail('small-order');
  if (isNonCanonicalY(pk)) return fail('non-canonical');
  if (!na.crypto_core_ed25519_is_valid_point(pk)) return fail('not-prime-order-point');
  return ok(Uint8Array.from(pk) as PublicKey);
}
