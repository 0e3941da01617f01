import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBinary, parseBinary, readBinary, writeBinary } from './value-binary.ts';
import { parseText, formatText } from './value-text.ts';
import type { SqlType } from './types.ts';

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

void test('encodes values in PostgreSQL binary send format', () => {
  assert.equal(hex(formatBinary(1, 'int4')), '00000001');
  assert.equal(hex(formatBinary(-2, 'int2')), 'fffe');
  assert.equal(hex(formatBinary(9007199254740993n, 'int8')), '0020000000000001');
  assert.equal(hex(formatBinary(true, 'bool')), '01');
  assert.equal(hex(formatBinary(parseText('2000-01-02', 'date'), 'date')), '00000001');
  assert.equal(hex(formatBinary(parseText('2000-01-01 00:00:01', 'timestamp'), 'timestamp')), '00000000000f4240');
  // 12345.678 = digits [1, 2345, 6780], weight 1, dscale 3
  assert.equal(hex(formatBinary(parseText('12345.678', 'numeric'), 'numeric')), '0003000100000003000109291a7c');
  assert.equal(hex(formatBinary(parseText('0.00', 'numeric'), 'numeric')), '0000000000000002');
});

void test('sends the infinite dates and timestamps as PostgreSQL does and refuses other integers past the range', () => {
  assert.equal(hex(formatBinary(parseText('infinity', 'timestamp'), 'timestamp')), '7fffffffffffffff');
  assert.equal(hex(formatBinary(parseText('-infinity', 'timestamptz'), 'timestamptz')), '8000000000000000');
  assert.equal(hex(formatBinary(parseText('infinity', 'date'), 'date')), '7fffffff');
  assert.equal(hex(formatBinary(parseText('-infinity', 'date'), 'date')), '80000000');
  const bytes = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
  assert.equal(formatText(parseBinary(bytes('7fffffffffffffff'), 'timestamptz'), 'timestamptz'), 'infinity');
  assert.equal(formatText(parseBinary(bytes('80000000'), 'date'), 'date'), '-infinity');
  // The last microsecond of the range and the first day, then one past each (timestamp_recv, date_recv).
  assert.equal(formatText(parseBinary(bytes('7fffff5bb3b29fff'), 'timestamp'), 'timestamp'), '294276-12-31 23:59:59.999999');
  assert.throws(() => parseBinary(bytes('7fffff5bb3b2a000'), 'timestamp'), { code: '22008', message: 'timestamp out of range' });
  assert.throws(() => parseBinary(bytes('7ffffffffffffffe'), 'timestamp'), { code: '22008', message: 'timestamp out of range' });
  assert.equal(formatText(parseBinary(bytes('ffda97a7'), 'date'), 'date'), '4714-11-24 BC');
  assert.throws(() => parseBinary(bytes('ffda97a6'), 'date'), { code: '22008', message: 'date out of range' });
  assert.throws(() => parseBinary(bytes('80000001'), 'date'), { code: '22008', message: 'date out of range' });
});

void test('decodes what it encodes for every type', () => {
  const cases: [string, SqlType][] = [
    ['-32768', 'int2'], ['2147483647', 'int4'], ['-9223372036854775808', 'int8'], ['1.5', 'float4'], ['0.1', 'float8'],
    ['t', 'bool'], ['12345.678', 'numeric'], ['-0.0001', 'numeric'], ['100000000', 'numeric'], ['1.50', 'numeric'],
    ['1999-12-31', 'date'], ['2024-06-15 12:34:56.789', 'timestamp'], ['héllo', 'text'],
  ];
  for (const [text, t] of cases) {
    const v = parseText(text, t);
    assert.equal(formatText(parseBinary(formatBinary(v, t), t), t), formatText(v, t), `${t} ${text}`);
  }
});

void test('the in-place writer and reader agree byte for byte with formatBinary and parseBinary', () => {
  const cases: [string, SqlType][] = [
    ['-32768', 'int2'], ['7', 'int2'], ['2147483647', 'int4'], ['-1', 'int4'], ['-1', 'int8'], ['4294967296', 'int8'],
    ['-9007199254740991', 'int8'], ['9007199254740993', 'int8'], ['-9223372036854775808', 'int8'], ['0.1', 'float8'],
    ['-0', 'float8'], ['t', 'bool'], ['f', 'bool'], ['', 'text'], ['pad-00000001-xxxx', 'varchar'], ['héllo', 'text'],
    ['x'.repeat(65), 'text'], ['12.5', 'numeric'], ['1999-12-31', 'date'],
  ];
  for (const [text, t] of cases) {
    const v = parseText(text, t);
    const want = formatBinary(v, t);
    const buf = new Uint8Array(4 + 8 + 64 + 3);
    const dv = new DataView(buf.buffer);
    const end = writeBinary(buf, dv, 3, v, t);
    if (end >= 0) {
      assert.equal(dv.getInt32(3), want.length, `${t} ${text}: length`);
      assert.equal(hex(buf.subarray(7, end)), hex(want), `${t} ${text}: bytes`);
    }
    const framed = new Uint8Array(want.length + 2);
    framed.set(want, 2);
    const back = readBinary(framed, new DataView(framed.buffer), 2, want.length, t);
    assert.equal(formatText(back, t), formatText(parseBinary(want, t), t), `${t} ${text}: read`);
  }
  assert.equal(writeBinary(new Uint8Array(80), new DataView(new ArrayBuffer(80)), 0, 'x'.repeat(65), 'text'), -1, 'long text goes to formatBinary');
});

void test('reads text from a plain array or a Buffer view at any offset, ASCII in place and UTF-8 through the decoder', () => {
  const texts = ['', 'a', 'pad-00000001-xxxxxxxxxxxx', 'x'.repeat(300), 'héllo', 'ascii then é', '\u{1F600}'];
  for (const s of texts) {
    const want = formatBinary(s, 'text');
    const backing = Buffer.alloc(want.length + 11);
    backing.set(want, 7);
    const view = backing.subarray(2, 2 + want.length + 9); // a Buffer whose byteOffset is not 0
    const plain = new Uint8Array(view); // a copy that is not a Buffer
    for (const b of [view, plain]) {
      const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
      assert.equal(readBinary(b, dv, 5, want.length, 'text'), s, `${JSON.stringify(s)} from ${b instanceof Buffer ? 'a Buffer' : 'a Uint8Array'}`);
    }
  }
  const bad = new Uint8Array([0x61, 0xff, 0x62]);
  assert.throws(() => readBinary(bad, new DataView(bad.buffer), 0, 3, 'text'), /invalid byte sequence/);
});
