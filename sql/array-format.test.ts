import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatArrayBinary, formatArrayText, parseArrayBinary, parseArrayText } from './array-format.ts';
import { SqlArray, compareArrays, type ArrayElementType } from './sql-array.ts';
import { SqlError } from './errors.ts';
import { formatText, parseText } from './value-text.ts';
import { formatBinary, parseBinary } from './value-binary.ts';

function err(f: () => unknown): { code: string; message: string; detail: string | undefined } {
  try {
    f();
  } catch (e) {
    if (e instanceof SqlError) return { code: e.code, message: e.message, detail: e.detail };
    throw e;
  }
  assert.fail('no error');
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

void test('reads and prints array text as PostgreSQL 15 does', () => {
  // [input, element type, PostgreSQL 15's output of input::type[]]
  const cases: [string, ArrayElementType, string][] = [
    ['{1,2,NULL}', 'int4', '{1,2,NULL}'],
    [' { 1 , 2 } ', 'int4', '{1,2}'],
    ['{}', 'int4', '{}'],
    ['{"1"}', 'int4', '{1}'],
    ['{"a b","c\\"d",NULL,"",null,"NULL", x , "{"}', 'text', '{"a b","c\\"d",NULL,"",NULL,"NULL",x,"{"}'],
    ['{a b,  c  d  }', 'text', '{"a b","c  d"}'],
    ['{a\\,b}', 'text', '{"a,b"}'],
    ['{a\\ }', 'text', '{"a "}'],
    ['{"NULL",\\NULL, N\\ULL}', 'text', '{"NULL","NULL","NULL"}'],
    ['{ NULL , "null", nul}', 'text', '{NULL,"null",nul}'],
    ['{a\tb}', 'text', '{"a\tb"}'],
    ['{\\\\}', 'text', '{"\\\\"}'],
    ['{"\\\\x01"}', 'bytea', '{"\\\\x01"}'],
    ['{1.50,2e3}', 'numeric', '{1.50,2000}'],
    ['{1.5,NaN}', 'float8', '{1.5,NaN}'],
    ['{t,false}', 'bool', '{t,f}'],
    ['{1,2}', 'int2', '{1,2}'],
    ['{2021-01-02, 1999-12-31 }', 'date', '{2021-01-02,1999-12-31}'],
    ['{"2021-01-02 03:04:05"}', 'timestamp', '{"2021-01-02 03:04:05"}'],
    ['{5f0c1b88-0000-0000-0000-000000000001}', 'uuid', '{5f0c1b88-0000-0000-0000-000000000001}'],
  ];
  for (const [input, type, output] of cases) {
    assert.equal(formatArrayText(parseArrayText(input, type)), output, input);
    assert.equal(formatArrayText(parseArrayText(output, type)), output, output);
  }
  assert.equal(formatArrayText(parseArrayText('{a,b}', 'bpchar', 2 + 4)), '{"a ","b "}');
});

void test('rejects malformed array text with 22P02 and PostgreSQL 15 details', () => {
  const cases: [string, string][] = [
    ['1,2', 'Array value must start with "{" or dimension information.'],
    ['{1,2', 'Unexpected end of input.'],
    ['{1,,2}', 'Unexpected "," character.'],
    ['{,}', 'Unexpected "," character.'],
    ['{"a",}', 'Unexpected "}" character.'],
    ['{1,2}x', 'Junk after closing right brace.'],
    ['{}}', 'Junk after closing right brace.'],
    ['{1}}', 'Junk after closing right brace.'],
    ['{"a}', 'Unexpected end of input.'],
    ['{"a" b}', 'Unexpected array element.'],
    ['{a "b"}', 'Unexpected array element.'],
    ['{abc"}', 'Unexpected array element.'],
    ['{a{b}', 'Unexpected "{" character.'],
    ['{a\\', 'Unexpected end of input.'],
    ['', 'Array value must start with "{" or dimension information.'],
  ];
  for (const [input, detail] of cases) {
    const e = err(() => parseArrayText(input, 'text'));
    assert.deepEqual(e, { code: '22P02', message: `malformed array literal: "${input}"`, detail }, input);
  }
  assert.deepEqual(err(() => parseArrayText('{a}', 'int4')), {
    code: '22P02', message: 'invalid input syntax for type integer: "a"', detail: undefined,
  });
  assert.equal(err(() => parseArrayText('{1 2}', 'int4')).message, 'invalid input syntax for type integer: "1 2"');
  assert.equal(formatArrayText(parseArrayText('{ab,c}', 'varchar', 1 + 4)), '{a,c}');
  assert.equal(err(() => parseArrayText('{123}', 'numeric', ((2 << 16) | 1) + 4)).code, '22003');
  assert.equal(err(() => parseArrayText('{{1,2},{3,4}}', 'int4')).code, '0A000');
  // Dimensions: one, from 0 or 1 ('[0:1]={1,2}' reads back what a vector cast to its array prints).
  assert.equal(err(() => parseArrayText('[2:3]={1,2}', 'int4')).code, '0A000');
  assert.equal(err(() => parseArrayText('[1:2][1:1]={{1},{2}}', 'int4')).code, '0A000');
  assert.equal(formatArrayText(parseArrayText(' [0:1] = {1,2}', 'int4')), '[0:1]={1,2}');
  assert.equal(formatArrayText(parseArrayText('[1:2]={1,2}', 'int4')), '{1,2}');
  assert.deepEqual(err(() => parseArrayText('[0:1]={1}', 'int4')),
    { code: '22P02', message: 'malformed array literal: "[0:1]={1}"', detail: 'Specified array dimensions do not match array contents.' });
  assert.deepEqual(err(() => parseArrayText('[0:x]={1}', 'int4')),
    { code: '22P02', message: 'malformed array literal: "[0:x]={1}"', detail: 'Missing array dimension value.' });
});

void test('writes the binary form PostgreSQL 15 sends (array_send)', () => {
  assert.equal(hex(formatArrayBinary(parseArrayText('{1,NULL}', 'int4'))),
    '00000001000000010000001700000002000000010000000400000001ffffffff');
  assert.equal(hex(formatArrayBinary(new SqlArray('text', []))), '000000000000000000000019');
});

void test('reads binary arrays back to the same values for every element type', () => {
  const cases: [string, ArrayElementType][] = [
    ['{1,NULL,-3}', 'int2'], ['{2147483647,NULL}', 'int4'], ['{9007199254740993,-1}', 'int8'],
    ['{1.50,-2000,NULL}', 'numeric'], ['{1.5,NaN,-Infinity}', 'float4'], ['{0.1,NULL}', 'float8'],
    ['{"a b","c\\"d",""}', 'text'], ['{x,NULL}', 'varchar'], ['{"a "}', 'bpchar'], ['{t,f,NULL}', 'bool'],
    ['{2021-01-02}', 'date'], ['{"2021-01-02 03:04:05.25"}', 'timestamp'],
    ['{"2021-01-02 03:04:05+00"}', 'timestamptz'], ['{5f0c1b88-0000-0000-0000-000000000001}', 'uuid'],
    ['{"\\\\x00ff",NULL}', 'bytea'], ['{}', 'int4'],
  ];
  for (const [text, type] of cases) {
    const a = parseArrayText(text, type);
    const back = parseArrayBinary(formatArrayBinary(a), type);
    assert.equal(back.elementType, type);
    assert.equal(formatArrayText(back), formatArrayText(a), `${type} ${text}`);
    assert.equal(compareArrays(back, a), 0);
  }
});

void test('rejects bad binary arrays with PostgreSQL 15 SQLSTATEs, never a crash', () => {
  const good = formatArrayBinary(parseArrayText('{1,NULL}', 'int4'));
  const with32 = (at: number, v: number): Uint8Array => {
    const b = good.slice();
    new DataView(b.buffer).setInt32(at, v);
    return b;
  };
  assert.deepEqual(err(() => parseArrayBinary(good.subarray(0, 8), 'int4')).code, '08P01');
  assert.deepEqual(err(() => parseArrayBinary(with32(0, -1), 'int4')).message, 'invalid number of dimensions: -1');
  assert.deepEqual(err(() => parseArrayBinary(with32(0, 7), 'int4')).code, '54000');
  assert.deepEqual(err(() => parseArrayBinary(with32(0, 2), 'int4')).code, '0A000');
  assert.deepEqual(err(() => parseArrayBinary(with32(4, 2), 'int4')).message, 'invalid array flags');
  assert.deepEqual(err(() => parseArrayBinary(good, 'int8')), {
    code: '42804', message: 'binary data has array element type 23 (integer) instead of expected 20 (bigint)', detail: undefined,
  });
  // A count far beyond the bytes: refused before allocating.
  assert.deepEqual(err(() => parseArrayBinary(with32(12, 100_000_000), 'int4')), {
    code: '08P01', message: 'insufficient data left in message', detail: undefined,
  });
  assert.deepEqual(err(() => parseArrayBinary(good.subarray(0, 22), 'int4')).code, '08P01');
  assert.deepEqual(err(() => parseArrayBinary(with32(12, -5), 'int4')).code, '54000');
  // Lower bounds: 1, and 0 (a vector cast to its array, sql-array.ts); any other is 0A000.
  assert.deepEqual(err(() => parseArrayBinary(with32(16, 2), 'int4')).code, '0A000');
  assert.equal(parseArrayBinary(with32(16, 0), 'int4').lower, 0);
  // An element length past the end, and an int4 element of 3 bytes.
  assert.deepEqual(err(() => parseArrayBinary(with32(20, 9), 'int4')).message, 'insufficient data left in message');
  const short = good.slice(0, 27);
  new DataView(short.buffer).setInt32(20, 3);
  new DataView(short.buffer).setInt32(12, 1);
  assert.deepEqual(err(() => parseArrayBinary(short, 'int4')), {
    code: '22P03', message: 'improper binary format in array element 1', detail: undefined,
  });
  assert.deepEqual(err(() => parseArrayBinary(Uint8Array.of(...good, 0), 'int4')).code, '22P03');
});

void test('orders arrays as btarraycmp: element-wise, NULL elements last, then the shorter first', () => {
  const a = (t: string): SqlArray => parseArrayText(t, 'int4');
  assert.equal(compareArrays(a('{1,2}'), a('{1,2,3}')), -1);
  assert.equal(compareArrays(a('{1,NULL}'), a('{1,5}')), 1);
  assert.equal(compareArrays(a('{NULL}'), a('{NULL}')), 0);
  assert.equal(compareArrays(a('{2}'), a('{1,9}')), 1);
  assert.equal(compareArrays(a('{}'), a('{}')), 0);
  const c = (t: string): SqlArray => parseArrayText(t, 'bpchar', 3 + 4);
  assert.equal(compareArrays(c('{a}'), c('{"a  "}')), 0);
});

void test('int2vector and oidvector: the text and binary forms PostgreSQL 15 prints and sends', () => {
  const k = parseText(' 1   3 ', 'int2vector') as SqlArray;
  assert.equal(k.lower, 0);
  assert.equal(formatText(k, 'int2vector'), '1 3');
  assert.equal(formatText(parseText('', 'int2vector'), 'int2vector'), '');
  // int2vectorsend is array_send: one dimension even when empty, lower bound 0; oidvector's elements are oids (26).
  assert.equal(hex(formatBinary(k, 'int2vector')), '0000000100000000000000150000000200000000000000020001000000020003');
  assert.equal(hex(formatBinary(parseText('', 'int2vector'), 'int2vector')), '0000000100000000000000150000000000000000');
  const c = parseText('5 6', 'oidvector');
  assert.equal(hex(formatBinary(c, 'oidvector')), '00000001000000000000001a000000020000000000000004000000050000000400000006');
  // A vector cast to its array keeps the bounds: '[0:1]={1,3}', and binary lower bound 0, which binary input takes back.
  assert.equal(formatArrayText(k), '[0:1]={1,3}');
  assert.equal((parseArrayBinary(formatArrayBinary(k), 'int2')).lower, 0);
  assert.deepEqual(parseBinary(formatBinary(c, 'oidvector'), 'oidvector'), c);
  assert.deepEqual(parseBinary(formatBinary(k, 'int2vector'), 'int2vector'), k);
});

void test('int2vector and oidvector input errors are their element types\' and int2vectorrecv\'s', () => {
  assert.deepEqual(err(() => parseText('1 x', 'int2vector')), { code: '22P02', message: 'invalid input syntax for type smallint: "x"', detail: undefined });
  assert.deepEqual(err(() => parseText('99999', 'int2vector')), { code: '22003', message: 'value "99999" is out of range for type smallint', detail: undefined });
  assert.deepEqual(err(() => parseText('x', 'oidvector')), { code: '22P02', message: 'invalid input syntax for type oid: "x"', detail: undefined });
  assert.equal(err(() => parseText('3000000000', 'oidvector')).code, '0A000');
  // Lower bound 1, a NULL element, another element type.
  assert.equal(err(() => parseBinary(formatArrayBinary(new SqlArray('int2', [1])), 'int2vector')).message, 'invalid int2vector data');
  assert.equal(err(() => parseBinary(formatArrayBinary(new SqlArray('int2', [1, null], 0)), 'int2vector')).code, '22P03');
  assert.deepEqual(err(() => parseBinary(formatArrayBinary(new SqlArray('int4', [1], 0)), 'oidvector')),
    { code: '42804', message: 'binary data has array element type 23 (integer) instead of expected 26 (oid)', detail: undefined });
});
