import assert from 'node:assert/strict';
import { createPublicKey, verify as opensslVerify } from 'node:crypto';
import { describe, it } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { checkPublicKey, keyPairFromSeed, sign, verify } from './ed25519.ts';

const fromHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

// RFC 8032 §7.1, TEST 1 (empty message).
const RFC_SEED = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
const RFC_PK = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC_SIG =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

/** The 8 small-order points (canonical encodings), by y and sign of x. */
const SMALL_ORDER_CANONICAL = [
  '0100000000000000000000000000000000000000000000000000000000000000', // identity
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // order 2
  '0000000000000000000000000000000000000000000000000000000000000000', // order 4
  '0000000000000000000000000000000000000000000000000000000000000080', // order 4
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', // order 8
];
/** Non-canonical encodings of small-order points: x = -0, and y + p. */
const SMALL_ORDER_NONCANONICAL = [
  '0100000000000000000000000000000000000000000000000000000000000080', // identity, sign bit set
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', // order 2, sign bit set
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p ≡ 0
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p + 1 ≡ 1
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
];

void describe('ed25519', () => {
  void it('reproduces RFC 8032 test 1 from its seed', () => {
    const kp = keyPairFromSeed(RFC_SEED);
    assert.equal(hex(kp.publicKey), RFC_PK);
    const sig = sign(new Uint8Array(0), kp.secretKey);
    assert.equal(hex(sig), RFC_SIG);
    assert.equal(verify(sig, new Uint8Array(0), kp.publicKey), true);
  });

  void it('rejects a tampered message, signature or key', () => {
    const kp = keyPairFromSeed(new Uint8Array(32).fill(1));
    const other = keyPairFromSeed(new Uint8Array(32).fill(2));
    const msg = Uint8Array.of(1, 2, 3);
    const sig = sign(msg, kp.secretKey);
    assert.equal(verify(sig, Uint8Array.of(1, 2, 4), kp.publicKey), false);
    const badSig = sig.slice();
    badSig[10]! ^= 1;
    assert.equal(verify(badSig, msg, kp.publicKey), false);
    assert.equal(verify(sig, msg, other.publicKey), false);
  });

  void it('returns false instead of throwing on wrong-length signatures and keys', () => {
    const kp = keyPairFromSeed(new Uint8Array(32).fill(3));
    const msg = Uint8Array.of(9);
    const sig = sign(msg, kp.secretKey);
    assert.equal(verify(sig.subarray(0, 63), msg, kp.publicKey), false);
    assert.equal(verify(new Uint8Array(65), msg, kp.publicKey), false);
    assert.equal(verify(sig, msg, kp.publicKey.subarray(0, 31)), false);
    assert.equal(verify(new Uint8Array(0), msg, new Uint8Array(0)), false);
  });

  void it('accepts honestly generated public keys', () => {
    for (let i = 0; i < 16; i++) {
      const pk = keyPairFromSeed(new Uint8Array(32).fill(i)).publicKey;
      const r = checkPublicKey(pk);
      assert.ok(r.ok);
      assert.deepEqual(r.value, pk);
    }
  });

  void it('rejects every small-order public key, canonical or not', () => {
    for (const h of SMALL_ORDER_CANONICAL) {
      assert.ok(ed25519.Point.fromHex(h).isSmallOrder(), `${h} is small-order per @noble/curves`);
    }
    for (const h of [...SMALL_ORDER_CANONICAL, ...SMALL_ORDER_NONCANONICAL]) {
      const r = checkPublicKey(fromHex(h));
      assert.equal(r.ok, false, h);
      if (!r.ok) assert.equal(r.reason, 'small-order', h);
    }
  });

  void it('rejects non-canonical, off-curve and mixed-order keys and wrong lengths', () => {
    const cases: [string, string][] = [
      ['efffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'non-canonical'], // y = p + 2
      ['ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 'non-canonical'],
      ['0200000000000000000000000000000000000000000000000000000000000000', 'not-prime-order-point'], // y = 2: no x
    ];
    // A honest key plus a point of order 8: on the curve, canonical, but outside the prime-order subgroup.
    const honest = ed25519.Point.fromHex(hex(keyPairFromSeed(new Uint8Array(32).fill(5)).publicKey));
    const torsion = ed25519.Point.fromHex(SMALL_ORDER_CANONICAL[6]!);
    cases.push([honest.add(torsion).toHex(), 'not-prime-order-point']);
    for (const [h, reason] of cases) {
      const r = checkPublicKey(fromHex(h));
      assert.equal(r.ok, false, h);
      if (!r.ok) assert.equal(r.reason, reason, h);
    }
    for (const len of [0, 31, 33, 64]) {
      const r = checkPublicKey(new Uint8Array(len).fill(9));
      assert.equal(r.ok ? 'accepted' : r.reason, 'wrong-length');
    }
  });

  void it('shows why one implementation: the identity key with R = identity, S = 0 passes OpenSSL and noble, not sodium', () => {
    const identity = fromHex(SMALL_ORDER_CANONICAL[0]!);
    const sig = new Uint8Array(64);
    sig.set(identity); // R = identity, S = 0
    const msg = new TextEncoder().encode('any message at all');
    assert.equal(verify(sig, msg, identity), false, 'sodium-native rejects');
    assert.equal(ed25519.verify(sig, msg, identity), true, '@noble/curves default (ZIP-215) accepts');
    assert.equal(ed25519.verify(sig, msg, identity, { zip215: false }), false, '@noble/curves strict rejects');
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), identity]);
    const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    assert.equal(opensslVerify(null, msg, key, sig), true, 'node:crypto (OpenSSL) accepts');
    assert.equal(checkPublicKey(identity).ok, false, 'and configuration loading refuses the key');
  });
});
