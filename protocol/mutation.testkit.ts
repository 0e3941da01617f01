import assert from 'node:assert/strict';
import type { Result } from './errors.ts';
import { plain } from './plain.testkit.ts';

/**
 * Deterministic damage to a message's encoding for codec fuzz tests (codec-query.test.ts,
 * codec-fast-query.test.ts): mutation `i` cuts the bytes short, changes one byte, flips one bit, or
 * appends a field (an unknown one, or a second copy of a known one), in turn.
 */
export function mutationOf(bytes: Uint8Array, i: number): Uint8Array {
  const at = (i * 7919) % bytes.length;
  switch (i % 4) {
    case 0:
      return bytes.subarray(0, at);
    case 1: {
      const m = bytes.slice();
      m[at] = (m[at]! + 1 + (i % 255)) & 0xff;
      return m;
    }
    case 2: {
      const m = bytes.slice();
      m[at] = m[at]! ^ (1 << (i % 8));
      return m;
    }
    default:
      return new Uint8Array([...bytes, 0x08 + 8 * (i % 12), i % 128]);
  }
}

/**
 * A hand-written decoder held to the generic (protobufjs) one over damaged encodings (codec-fast,
 * codec-query and codec-fast-query tests): `check` fails the test when the fast decoder accepts what
 * the generic one refuses, or when both accept and disagree; `assertExercised` that enough inputs were
 * accepted by both and refused by both for the comparison to mean something.
 */
export class DecoderAgreement {
  both = 0;
  refusedByBoth = 0;

  /** `fast`: the hand-written decoder's result for mutation `i` (undefined: refused, or left to the generic path). */
  check(i: number, generic: Result<unknown, string>, fast: unknown): void {
    if (fast === undefined) {
      if (!generic.ok) this.refusedByBoth++;
      return;
    }
    assert.ok(generic.ok, `mutation ${i}: accepted what the generic path refuses (${generic.ok ? '' : generic.reason})`);
    assert.deepEqual(plain(fast), plain(generic.value), `mutation ${i}`);
    this.both++;
  }

  assertExercised(): void {
    assert.ok(this.both > 1000 && this.refusedByBoth > 1000, `both ${this.both}, refused ${this.refusedByBoth}`);
  }
}
