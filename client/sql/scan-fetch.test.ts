import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Engine } from '../../sql/engine.ts';
import type { Expr } from '../../sql/expr.ts';
import { prefixEnd } from '../../sql/key-encoding.ts';
import { indexEntryPrefix, primaryKeyOf } from '../../sql/memory-store.ts';
import { CatalogVersion } from '../../sql/replicated-catalog.ts';
import type { ScanRequest } from '../../sql/row-source.ts';
import type { Row } from '../../sql/types.ts';
import { scanFetchedRows, scanFetchOf } from './scan-fetch.ts';

const engine = await Engine.create();
let cv = CatalogVersion.empty;
for (const sql of ['CREATE TABLE t (id int PRIMARY KEY, email text, n int)', 'CREATE UNIQUE INDEX t_email ON t (email)', 'CREATE UNIQUE INDEX t_lower ON t (lower(email)) WHERE n > 0', 'CREATE TABLE "we""ird" (v text)']) {
  cv = cv.apply(engine.parse(sql).stmts[0]!).next!;
}
const t = cv.catalog.require('t');
const weird = cv.catalog.require('we"ird');
const byEmail = t.indexes.find((i) => i.name === 't_email')!;

const col = (i: number, type: Expr['t']): Expr => ({ k: 'col', i, t: type });
const cnst = (v: Row[number], type: Expr['t']): Expr => ({ k: 'const', v, t: type });
const cmp = (op: '=' | '<' | '>=', l: Expr, r: Expr, ct: Expr['t']): Expr => ({ k: 'cmp', op, l, r, ct, t: 'bool' });

function scan(over: Partial<ScanRequest>): ScanRequest {
  return { table: t, index: null, lo: '', hi: null, predicate: null, mode: 'read', reverse: false, ...over };
}

void describe('scans of client-run statements as reconnaissance reads', () => {
  void it('an expression index probe reads the rows whose key expression has the value (the predicate widens the read, not narrows it)', () => {
    const byLower = t.indexes.find((i) => i.name === 't_lower')!;
    const key = byLower.exprs![0]!.expr;
    const pred: Expr = { k: 'and', t: 'bool', args: [cmp('=', key, cnst('a@x', 'text'), 'text'), byLower.predicate!.expr] };
    const f = scanFetchOf(scan({ index: byLower, predicate: pred }));
    assert.equal(f.sql, 'DELETE FROM "t" WHERE (lower(email)) = $1 AND "n" > $2');
    assert.deepEqual(f.params, ['a@x', 0]);
    // A row the partial index leaves out is not served from the fetched rows.
    const lo = indexEntryPrefix(byLower, [1, 'A@x', 5])!;
    assert.equal(indexEntryPrefix(byLower, [2, 'a@x', 0]), null);
    assert.deepEqual(scanFetchedRows(scan({ index: byLower, lo, hi: prefixEnd(lo) }), [[1, 'A@x', 5], [2, 'a@x', 0]]).map((r) => r.row[0]), [1]);
  });

  void it('a unique index probe becomes an equality read of the index columns, with the value as a parameter', () => {
    const row: Row = [7, 'a@x', 1];
    const lo = indexEntryPrefix(byEmail, row)!;
    const f = scanFetchOf(scan({ index: byEmail, lo, hi: prefixEnd(lo), predicate: cmp('=', col(1, 'text'), cnst('a@x', 'text'), 'text') }));
    assert.equal(f.sql, 'DELETE FROM "t" WHERE "email" = $1');
    assert.deepEqual(f.params, ['a@x']);
    const other = scanFetchOf(scan({ index: byEmail, lo, hi: prefixEnd(lo), predicate: cmp('=', col(1, 'text'), cnst('b@x', 'text'), 'text') }));
    assert.equal(other.sql, f.sql);
    assert.notEqual(other.cacheKey, f.cacheKey, 'the parameters are part of the cache key');
  });

  void it('renders column-op-constant terms (either side), IS NULL, and quotes names; leaves out what it cannot render', () => {
    const pred: Expr = {
      k: 'and',
      t: 'bool',
      args: [
        cmp('<', cnst(5, 'int4'), col(2, 'int4'), 'int4'), // 5 < n  ->  n > 5
        { k: 'isnull', e: col(1, 'text'), neg: true, t: 'bool' },
        cmp('=', col(2, 'int4'), cnst(2.5, 'numeric'), 'numeric'), // another type: not rendered
        cmp('=', col(0, 'int4'), cnst(null, 'int4'), 'int4'), // NULL constant: not rendered
        { k: 'or', t: 'bool', args: [cmp('=', col(0, 'int4'), cnst(1, 'int4'), 'int4'), cmp('=', col(0, 'int4'), cnst(2, 'int4'), 'int4')] },
      ],
    };
    const f = scanFetchOf(scan({ predicate: pred }));
    assert.equal(f.sql, 'DELETE FROM "t" WHERE "n" > $1 AND "email" IS NOT NULL');
    assert.deepEqual(f.params, [5]);
    assert.equal(scanFetchOf(scan({ table: weird })).sql, 'DELETE FROM "we""ird"');
  });

  void it('serves the fetched rows within the scan range, in key order or reversed', () => {
    const rows: Row[] = [[3, 'c', 0], [1, 'b', 0], [2, 'a', 0], [9, null, 0]];
    const pk = (id: number): string => primaryKeyOf(t, [id, null, null]);
    assert.deepEqual(scanFetchedRows(scan({ lo: pk(2), hi: pk(9) }), rows).map((r) => r.row[0]), [2, 3]);
    assert.deepEqual(scanFetchedRows(scan({ lo: pk(2), hi: null, reverse: true }), rows).map((r) => r.row[0]), [9, 3, 2]);
    const lo = indexEntryPrefix(byEmail, [0, 'b', 0])!;
    const served = scanFetchedRows(scan({ index: byEmail, lo, hi: prefixEnd(lo) }), rows);
    assert.deepEqual(served.map((r) => r.row), [[1, 'b', 0]]);
    assert.equal(served[0]!.key, pk(1));
    assert.equal(served[0]!.own, false);
  });
});
