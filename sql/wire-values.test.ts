import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeOutcome, decodeTypedParams, encodeOutcome, decodeParams, encodeParams } from './wire-values.ts';
import { SqlArray } from './sql-array.ts';
import { DATE_INFINITY, DATE_NEG_INFINITY, TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY } from './datetime.ts';

const NAMES = ['id', '', 'héllo wörld', '日本語', 'a😀b', '\uFEFFbom', '\uFEFF', 'x'.repeat(300) + 'é', 'é' + 'x'.repeat(300)];

void test('results carry column names, text values and errors in any UTF-8', () => {
  for (const name of NAMES) {
    const bytes = encodeOutcome({ ok: true, columns: [{ name, type: 'text', typmod: -1 }], rows: [[name], [null]] });
    // The name's length prefix is its UTF-8 length.
    const utf8 = new TextEncoder().encode(name);
    assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(3), utf8.length);
    assert.deepEqual(Array.from(bytes.subarray(7, 7 + utf8.length)), Array.from(utf8));
    const o = decodeOutcome(bytes);
    assert.ok(o.ok);
    assert.equal(o.columns[0]!.name, name);
    assert.deepEqual(o.rows, [[name], [null]]);
    const e = decodeOutcome(encodeOutcome({ ok: false, code: '42P01', message: name, detail: name }));
    assert.ok(!e.ok);
    assert.equal(e.message, name);
    assert.equal(e.detail, name === '' ? undefined : name);
  }
});

void test('parameters round-trip', () => {
  const values = [1, 'héllo', null, 2.5, true, '日本語'];
  assert.deepEqual(decodeParams(encodeParams(values)), values);
});

void test('vectors and arrays that start at 0 travel between clients and replicas with their bounds and declared types', () => {
  const vector = new SqlArray('int2', [1, 3], 0);
  const oids = new SqlArray('int4', [100, 950], 0);
  const typed = decodeTypedParams(encodeParams([vector, vector, oids], ['int2vector', '_int2', 'oidvector']));
  assert.deepEqual(typed.values, [vector, vector, oids]);
  assert.deepEqual(typed.hints, ['int2vector', '_int2', 'oidvector']);
  const out = decodeOutcome(encodeOutcome({ ok: true, columns: [{ name: 'indkey', type: 'int2vector', typmod: -1 }, { name: 'keys', type: '_int2', typmod: -1 }], rows: [[vector, vector]] }));
  assert.ok(out.ok);
  assert.deepEqual(out.rows, [[vector, vector]]);
});

void test('the infinite dates and timestamps travel between clients and replicas as themselves', () => {
  const values = [TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY, DATE_INFINITY, DATE_NEG_INFINITY];
  const typed = decodeTypedParams(encodeParams(values, ['timestamp', 'timestamptz', 'date', 'date']));
  assert.deepEqual(typed.values, values);
  const columns = [{ name: 't', type: 'timestamptz', typmod: -1 }, { name: 'd', type: 'date', typmod: -1 }] as const;
  const out = decodeOutcome(encodeOutcome({ ok: true, columns: [...columns], rows: [[TIMESTAMP_INFINITY, DATE_NEG_INFINITY], [TIMESTAMP_NEG_INFINITY, DATE_INFINITY]] }));
  assert.ok(out.ok);
  assert.deepEqual(out.rows, [[TIMESTAMP_INFINITY, DATE_NEG_INFINITY], [TIMESTAMP_NEG_INFINITY, DATE_INFINITY]]);
});
