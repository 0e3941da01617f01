import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareBytes, decodeBytes, encodeBytes, formatBytea, parseBytea, substrBytes } from './bytea.ts';
import { encodeKey, prefixEnd } from './key-encoding.ts';
import { compareValues } from './ops.ts';
import { failure } from './errors.testkit.ts';
import { formatText, parseText } from './value-text.ts';
import { formatBinary, parseBinary } from './value-binary.ts';
import { decodeOutcome, decodeParams, encodeOutcome, encodeParams } from './wire-values.ts';
import { Engine } from './engine.ts';
import { decodeColumns, decodeRow, encodeRow } from './row-codec.ts';

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

void test('reads the hex format: either case, blanks between digit pairs, empty after \\x', () => {
  // Each input with the bytes PostgreSQL 15 makes of it.
  const cases: [string, string][] = [
    ['\\x0001', '0001'], ['\\xDEADbeef', 'deadbeef'], ['\\x', ''], ['\\x de\tad\n', 'dead'], ['\\x01 ', '01'],
    ['\\x\r\n0a 0B', '0a0b'],
  ];
  for (const [text, want] of cases) assert.equal(hex(parseBytea(text)), want, JSON.stringify(text));
});

void test('reads the escape format over the text\'s UTF-8 bytes: \\\\ and \\ooo, every other byte as is', () => {
  const cases: [string, string][] = [
    ['abc\\000\\\\', '616263005c'], ['', ''], ['é\\134\\\\', 'c3a95c5c'], ['a\\377\\001', '61ff01'], ['x\\\\y', '785c79'],
  ];
  for (const [text, want] of cases) assert.equal(hex(parseBytea(text)), want, JSON.stringify(text));
  // Only a lower-case x makes the hex format; `\X` is a bad escape.
  assert.equal(failure(() => parseBytea('\\X01')), '22P02 invalid input syntax for type bytea');
});

void test('refuses malformed input with PostgreSQL\'s SQLSTATEs and messages', () => {
  const cases: [string, string][] = [
    ['\\x0', '22023 invalid hexadecimal data: odd number of digits'],
    ['\\xzz', '22023 invalid hexadecimal digit: "z"'],
    ['\\x 0 1', '22023 invalid hexadecimal digit: " "'],
    ['\\x0 1', '22023 invalid hexadecimal digit: " "'],
    ['\\x0é', '22023 invalid hexadecimal digit: "é"'],
    ['\\x0😀', '22023 invalid hexadecimal digit: "😀"'],
    [' \\x01', '22P02 invalid input syntax for type bytea'],
    ['a\\', '22P02 invalid input syntax for type bytea'],
    ['a\\9', '22P02 invalid input syntax for type bytea'],
    ['a\\400', '22P02 invalid input syntax for type bytea'],
    ['a\\12', '22P02 invalid input syntax for type bytea'],
    ['a\\x', '22P02 invalid input syntax for type bytea'],
  ];
  for (const [text, want] of cases) assert.equal(failure(() => parseBytea(text)), want, JSON.stringify(text));
  // The same through the type's input function.
  assert.equal(failure(() => parseText('\\x0', 'bytea')), '22023 invalid hexadecimal data: odd number of digits');
});

void test('prints \\x and lower-case hex, and reads back what it prints', () => {
  assert.equal(formatBytea(bytes('00ff7f80')), '\\x00ff7f80');
  assert.equal(formatBytea(new Uint8Array(0)), '\\x');
  assert.equal(formatText(parseText('\\xABCDEF', 'bytea'), 'bytea'), '\\xabcdef');
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.deepEqual(parseBytea(formatBytea(all)), all);
  // A view into a larger buffer prints only its own bytes.
  assert.equal(formatBytea(bytes('aabbccdd').subarray(1, 3)), '\\xbbcc');
});

void test('orders byte-wise with a shorter prefix first, and key encodings sort the same way', () => {
  const values = ['', '00', '0000', '0001', '00ff', '01', '0100', '0101', '01ff', '7f', '80', 'fe', 'ff', 'ff00', 'ffff'].map(bytes);
  for (const a of values) {
    for (const b of values) {
      const want = Math.sign(Buffer.compare(a, b));
      assert.equal(compareBytes(a, b), want, `${hex(a)} vs ${hex(b)}`);
      assert.equal(Math.sign(compareValues(a, b, 'bytea')), want);
      const ka = encodeKey([a], ['bytea']);
      const kb = encodeKey([b], ['bytea']);
      assert.equal(ka < kb ? -1 : ka > kb ? 1 : 0, want, `keys of ${hex(a)} vs ${hex(b)}`);
      // Prefix-free: a second key column never reorders the first.
      for (const [x, y] of [[0, 1], [1, 0], [-5, 5]] as const) {
        const ta = encodeKey([a, x], ['bytea', 'int4']);
        const tb = encodeKey([b, y], ['bytea', 'int4']);
        const tuple = want !== 0 ? want : Math.sign(x - y);
        assert.equal(ta < tb ? -1 : ta > tb ? 1 : 0, tuple, `(${hex(a)}, ${x}) vs (${hex(b)}, ${y})`);
      }
      // The exclusive bound above a value's keys lies above every key that starts with it and below
      // every greater value.
      const end = prefixEnd(ka);
      if (want > 0) assert.ok(kb < end && encodeKey([a], ['bytea']) > kb);
      if (want < 0) assert.ok(kb > end, `prefixEnd(${hex(a)}) below ${hex(b)}`);
    }
  }
  assert.ok(encodeKey([new Uint8Array(0)], ['bytea']) < encodeKey([null], ['bytea']), 'NULL sorts last');
});

void test('substring counts 1-based positions as PostgreSQL does', () => {
  const b = bytes('0102030405');
  assert.equal(hex(substrBytes(b, 2, 2)), '0203');
  assert.equal(hex(substrBytes(b, 2)), '02030405');
  assert.equal(hex(substrBytes(b, 0, 3)), '0102');
  assert.equal(hex(substrBytes(b, -5, 3)), '');
  assert.equal(hex(substrBytes(b, 4)), '0405');
  assert.equal(hex(substrBytes(b, 10)), '');
  assert.equal(hex(substrBytes(b, 3, 100)), '030405');
  assert.equal(failure(() => substrBytes(b, 1, -1)), '22011 negative substring length not allowed');
  assert.equal(hex(substrBytes(b, 2, 2147483647)), '02030405');
  assert.equal(hex(substrBytes(b, 2147483647, 1)), '');
});

void test('encode and decode in hex, base64 and escape as PostgreSQL 15 does', () => {
  const b = bytes('00ff415c27');
  assert.equal(encodeBytes(b, 'hex'), '00ff415c27');
  assert.equal(encodeBytes(b, 'HEX'), '00ff415c27');
  assert.equal(encodeBytes(b, 'base64'), 'AP9BXCc=');
  assert.equal(encodeBytes(b, 'escape'), "\\000\\377A\\\\'");
  // Control characters stay as they are in PostgreSQL 15's escape encoding.
  assert.equal(encodeBytes(bytes('0a011f7f7e20'), 'escape'), '\n\x01\x1f\x7f~ ');
  // base64: a newline after each 76 characters of whole groups, so 57 bytes end with one.
  const line = encodeBytes(new Uint8Array(57).fill(0xab), 'base64');
  assert.equal(line, 'q6ur'.repeat(19) + '\n');
  assert.equal(encodeBytes(new Uint8Array(58).fill(0xab), 'base64'), 'q6ur'.repeat(19) + '\nqw==');
  assert.equal(encodeBytes(new Uint8Array(114).fill(0xab), 'base64'), `${'q6ur'.repeat(19)}\n${'q6ur'.repeat(19)}\n`);
  assert.equal(encodeBytes(new Uint8Array(0), 'base64'), '');
  for (const n of [0, 1, 2, 3, 56, 57, 58, 200]) {
    const data = Uint8Array.from({ length: n }, (_, i) => (i * 37) & 255);
    for (const f of ['hex', 'base64', 'escape']) assert.deepEqual(decodeBytes(encodeBytes(data, f), f), data, `${f} of ${n} bytes`);
  }
  assert.equal(hex(decodeBytes('00FF41', 'hex')), '00ff41');
  assert.equal(hex(decodeBytes('AP9B\nAP 9B\t', 'base64')), '00ff4100ff41');
  assert.equal(hex(decodeBytes('AP8=', 'base64')), '00ff');
  // PostgreSQL reads on after the padding: each later group then gives one byte, as the first did.
  assert.equal(hex(decodeBytes('AA==AA==', 'base64')), '0000');
  assert.equal(hex(decodeBytes('AA=A', 'base64')), '00');
  assert.equal(hex(decodeBytes('ABC=', 'base64')), '0010');
  assert.equal(hex(decodeBytes('\\\\\\001a', 'escape')), '5c0161');
  const errors: [string, string, string][] = [
    ['0', 'hex', '22023 invalid hexadecimal data: odd number of digits'],
    [' 0 1', 'hex', '22023 invalid hexadecimal digit: " "'],
    ['é', 'hex', '22023 invalid hexadecimal digit: "é"'],
    ['AP9', 'base64', '22023 invalid base64 end sequence'],
    ['A', 'base64', '22023 invalid base64 end sequence'],
    ['A=P9', 'base64', '22023 unexpected "=" while decoding base64 sequence'],
    ['ABCD=', 'base64', '22023 unexpected "=" while decoding base64 sequence'],
    ['A*', 'base64', '22023 invalid symbol "*" found while decoding base64 sequence'],
    ['Aé', 'base64', '22023 invalid symbol "é" found while decoding base64 sequence'],
    ['\\9', 'escape', '22P02 invalid input syntax for type bytea'],
    ['\\', 'escape', '22P02 invalid input syntax for type bytea'],
    ['a', 'foo', '22023 unrecognized encoding: "foo"'],
  ];
  for (const [text, f, want] of errors) assert.equal(failure(() => decodeBytes(text, f)), want, `decode(${JSON.stringify(text)}, ${f})`);
  assert.equal(failure(() => encodeBytes(b, 'base32')), '22023 unrecognized encoding: "base32"');
});

void test('binary send format, wire values and stored rows carry the raw bytes, and decoded values own them', () => {
  const b = bytes('00015cff');
  assert.equal(hex(formatBinary(b, 'bytea')), '00015cff');
  const wire = Buffer.from('7700015cff77', 'hex');
  const parsed = parseBinary(wire.subarray(1, 5), 'bytea') as Uint8Array;
  assert.equal(hex(parsed), '00015cff');
  wire.fill(0);
  assert.equal(hex(parsed), '00015cff', 'a parsed value is not a view into the message');

  assert.deepEqual(decodeParams(encodeParams([b, new Uint8Array(0), null, 'x'])), [b, new Uint8Array(0), null, 'x']);
  const out = encodeOutcome({ ok: true, columns: [{ name: 'b', type: 'bytea', typmod: -1 }], rows: [[b], [null], [new Uint8Array(0)]] });
  const o = decodeOutcome(out);
  assert.ok(o.ok);
  assert.deepEqual(o.rows, [[b], [null], [new Uint8Array(0)]]);
  out.fill(0);
  assert.equal(hex(o.rows[0]![0] as Uint8Array), '00015cff', 'a decoded result value is not a view into the reply');
});

void test('rows with bytea columns round-trip through the row codec', async () => {
  const engine = await Engine.create();
  engine.session().execute('CREATE TABLE blobs (k bytea PRIMARY KEY, n int, v bytea)');
  const table = engine.catalog.require('blobs');
  const big = Uint8Array.from({ length: 70_000 }, (_, i) => i & 255);
  for (const row of [[bytes(''), 1, bytes('00')], [bytes('ff00'), null, null], [bytes('01'), 2, big]]) {
    const stored = encodeRow(table, row);
    const back = decodeRow(table, stored);
    assert.deepEqual(back, row);
    const some = [null, null, null];
    decodeColumns(table, stored, [2], some);
    assert.deepEqual(some, [null, null, row[2]]);
    stored.fill(0);
    assert.deepEqual(back, row, 'decoded values do not alias the stored bytes');
  }
});
