import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SqlJsonb} from './json.ts';
import { SqlJson, compareJsonbDocs, parseJson, parseJsonb } from './json.ts';
import { compareText } from './ops.ts';
import { encodeKey } from './key-encoding.ts';
import { formatText, parseText } from './value-text.ts';
import { formatBinary, parseBinary } from './value-binary.ts';
import { decodeParams, encodeParams } from './wire-values.ts';
import { decodeRow, encodeRow } from './row-codec.ts';
import { decodePredicate, encodePredicate } from './predicate-codec.ts';
import { evalPredicate } from './eval.ts';
import type { TableDef } from './catalog.ts';
import type { Expr } from './expr.ts';
import { SqlError } from './errors.ts';

function failure(f: () => unknown): [string, string, string | undefined] {
  try {
    f();
  } catch (e) {
    if (e instanceof SqlError) return [e.code, e.message, e.detail];
    throw e;
  }
  assert.fail('no error');
}

void test('malformed documents fail with PostgreSQL\'s message and detail', () => {
  const cases: [string, string][] = [
    ['{"a":}', 'Expected JSON value, but found "}".'],
    ['{"a":1,}', 'Expected string, but found "}".'],
    ['{1:2}', 'Expected string or "}", but found "1".'],
    ['{"a" 1}', 'Expected ":", but found "1".'],
    ['[1 2]', 'Expected "," or "]", but found "2".'],
    ['{"a":1 "b"}', 'Expected "," or "}", but found ""b"".'],
    ['[1,]', 'Expected JSON value, but found "]".'],
    ['[1,}', 'Expected JSON value, but found "}".'],
    ['[}', 'Expected JSON value, but found "}".'],
    ['{"a": 1, 2}', 'Expected string, but found "2".'],
    ['1 2', 'Expected end of input, but found "2".'],
    ['[1,2', 'The input string ended unexpectedly.'],
    ['', 'The input string ended unexpectedly.'],
    ['"abc', 'The input string ended unexpectedly.'],
    ['tru', 'Token "tru" is invalid.'],
    ['01', 'Token "01" is invalid.'],
    ['1.e', 'Token "1.e" is invalid.'],
    ['-', 'Token "-" is invalid.'],
    ['@', 'Token "@" is invalid.'],
    ['"a\\x"', 'Escape sequence "\\x" is invalid.'],
    ['"\\u12"', '"\\u" must be followed by four hexadecimal digits.'],
    ['"a\tb"', 'Character with value 0x09 must be escaped.'],
  ];
  for (const [text, detail] of cases) {
    assert.deepEqual(failure(() => parseJsonb(text)), ['22P02', 'invalid input syntax for type json', detail], text);
    assert.deepEqual(failure(() => parseJson(text)), ['22P02', 'invalid input syntax for type json', detail], text);
  }
  // jsonb checks what its text form could not hold; json only the lexical form.
  assert.deepEqual(failure(() => parseJsonb('"\\u0000"')), ['22P05', 'unsupported Unicode escape sequence', '\\u0000 cannot be converted to text.']);
  assert.equal(failure(() => parseJsonb('"\\ud800"'))[2], 'Unicode low surrogate must follow a high surrogate.');
  assert.equal(parseJson('"\\ud800\\u0000"').text, '"\\ud800\\u0000"');
});

void test('jsonb normalises keys (length, then bytes; last duplicate wins), numbers and whitespace; json keeps its text', () => {
  assert.equal(parseJsonb(' {"bb": 1, "a": {"y":1, "x" :2}, "c": [1.50, 1e2, -0, 2E-3], "a2": null, "a": true} ').toString(),
    '{"a": true, "c": [1.50, 100, 0, 0.002], "a2": null, "bb": 1}');
  assert.equal(parseJsonb('{"é": 1, "z": 2, "ab": 3}').toString(), '{"z": 2, "ab": 3, "é": 1}');
  assert.equal(parseJsonb('"\\u00e9\\n\\"\\/"').toString(), '"é\\n\\"/"');
  const text = ' {"b" : 1,\n "b": 2} ';
  assert.equal(parseJson(text).text, text);
});

void test('jsonb keys order and collide exactly as the documents compare', () => {
  const docs = ['[]', 'null', '""', '"a"', '"ab"', '"b"', '0', '1', '1.0', '10', '-1', 'false', 'true', '[0]', '[1.00]', '[null]',
    '[[]]', '[{}]', '[1, 2]', '{}', '{"a": null}', '{"a": 1}', '{"b": 1}', '{"aa": 1}', '{"a": [1]}', '{"a": 1, "b": 2}'].map(parseJsonb);
  for (const a of docs) {
    for (const b of docs) {
      const ka = encodeKey([a, 1], ['jsonb', 'int4']);
      const kb = encodeKey([b, 0], ['jsonb', 'int4']);
      const byKey = ka < kb ? -1 : ka > kb ? 1 : 0;
      const c = Math.sign(compareJsonbDocs(a.value, b.value, compareText));
      assert.equal(byKey, c === 0 ? 1 : c, `${a.toString()} vs ${b.toString()}`);
    }
  }
});

void test('json and jsonb round-trip through text, binary, parameters, stored rows and predicates', () => {
  const doc = parseJsonb('{"k": "v", "n": [1, 2.50, null]}');
  const raw = new SqlJson('{"x" :  1}');
  assert.deepEqual([...formatBinary(doc, 'jsonb').subarray(0, 2)], [1, 123]);
  assert.equal((parseBinary(formatBinary(doc, 'jsonb'), 'jsonb') as SqlJsonb).toString(), doc.toString());
  assert.equal((parseBinary(formatBinary(raw, 'json'), 'json') as SqlJson).text, raw.text);
  assert.equal(failure(() => parseBinary(new Uint8Array([2, 123, 125]), 'jsonb'))[1], 'unsupported jsonb version number 2');
  assert.equal(formatText(parseText(formatText(doc, 'jsonb'), 'jsonb'), 'jsonb'), doc.toString());
  const params = decodeParams(encodeParams([doc, raw, null]));
  assert.equal(String(params[0]), doc.toString());
  assert.ok(params[1] instanceof SqlJson && params[1].text === raw.text);

  const table = {
    id: 7, name: 't', pk: [0], pkTypes: ['int4'], hiddenPk: false, indexes: [],
    columns: [
      { name: 'id', type: 'int4', typmod: -1, notNull: true, default: null, hidden: false, serial: false },
      { name: 'doc', type: 'jsonb', typmod: -1, notNull: false, default: null, hidden: false, serial: false },
      { name: 'raw', type: 'json', typmod: -1, notNull: false, default: null, hidden: false, serial: false },
    ],
  } as unknown as TableDef;
  const row = decodeRow(table, encodeRow(table, [1, doc, raw]));
  assert.equal(String(row[1]), doc.toString());
  assert.equal(String(row[2]), raw.text);

  // doc @> '{"n": [2.5]}' AND doc ->> 'k' = 'v', as a replica receives it.
  const filter: Expr = {
    k: 'and', t: 'bool', args: [
      { k: 'func', fn: 'jsonb_contains', t: 'bool', args: [{ k: 'col', i: 1, t: 'jsonb' }, { k: 'const', v: parseJsonb('{"n": [2.5]}'), t: 'jsonb' }] },
      { k: 'cmp', op: '=', ct: 'text', t: 'bool', l: { k: 'func', fn: 'json_field_text', t: 'text', args: [{ k: 'col', i: 1, t: 'jsonb' }, { k: 'const', v: 'k', t: 'text' }] }, r: { k: 'const', v: 'v', t: 'text' } },
    ],
  };
  const decoded = decodePredicate(encodePredicate({ indexId: null, lo: '', hi: null, filter, keys: null }));
  assert.ok(decoded?.filter);
  assert.equal(evalPredicate(decoded.filter, row), true);
  assert.equal(evalPredicate(decoded.filter, [2, parseJsonb('{"k": "v", "n": [2.51]}'), null]), false);
});
