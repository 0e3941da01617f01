import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bindExpr } from './scan-exec.ts';
import { evalPredicate, makeEnv } from './eval.ts';
import { decodePredicate, encodePredicate } from './predicate-codec.ts';
import type { CmpOp, Expr } from './expr.ts';
import { SqlArray } from './sql-array.ts';
import { parseArrayText } from './array-format.ts';
import type { SqlValue } from './types.ts';

const col: Expr = { k: 'col', i: 0, t: 'int4' };
const anyOf = (op: CmpOp, all: boolean): Expr => ({ k: 'anyarr', e: col, arr: { k: 'param', i: 0, t: '_int4' }, op, all, ct: 'int4', t: 'bool' });

/** The filter a replica records for `param`, after a trip through the predicate's bytes. */
function recorded(filter: Expr, param: SqlValue): Expr {
  const bound = bindExpr(filter, makeEnv([param], null));
  const back = decodePredicate(encodePredicate({ indexId: null, lo: '', hi: null, filter: bound, keys: null }));
  assert.ok(back?.filter);
  return back.filter;
}

void test('x = ANY($1) is recorded as the IN list of the bound array, so a writer\'s row is checked against it', () => {
  const f = recorded(anyOf('=', false), parseArrayText('{1,3,NULL}', 'int4'));
  assert.equal(f.k, 'in');
  assert.deepEqual([1, 2, 3, 4].map((id) => evalPredicate(f, [id])), [true, false, true, false]);
  const g = recorded(anyOf('<>', true), new SqlArray('int4', [1, 3]));
  assert.equal(g.k, 'in');
  assert.deepEqual([1, 2, 3].map((id) => evalPredicate(g, [id])), [false, true, false]);
});

void test('other ANY/ALL forms keep the array as a constant that survives the predicate bytes', () => {
  const f = recorded(anyOf('<', false), new SqlArray('int4', [2, 5]));
  assert.equal(f.k, 'anyarr');
  assert.deepEqual([1, 4, 5, 9].map((id) => evalPredicate(f, [id])), [true, true, false, false]);
  const g = recorded(anyOf('>=', true), new SqlArray('int4', [2, null]));
  assert.deepEqual([1, 4].map((id) => evalPredicate(g, [id])), [false, false], 'NULL element: never true');
});

void test('an empty or NULL array is recorded as the constant it evaluates to', () => {
  assert.deepEqual(recorded(anyOf('=', false), new SqlArray('int4', [])), { k: 'const', v: false, t: 'bool' });
  assert.deepEqual(recorded(anyOf('=', true), new SqlArray('int4', [])), { k: 'const', v: true, t: 'bool' });
  assert.deepEqual(recorded(anyOf('=', false), null), { k: 'const', v: null, t: 'bool' });
});

void test('filters over an array column (@>, &&, subscripts, array_length) survive the predicate bytes and judge rows as before', () => {
  const tagsCol: Expr = { k: 'col', i: 1, t: '_text' };
  const fn = (name: string, args: Expr[], t: Expr['t']): Expr => ({ k: 'func', fn: name, args, t });
  const filter: Expr = {
    k: 'or',
    args: [
      fn('array_contains', [tagsCol, { k: 'param', i: 0, t: '_text' }], 'bool'),
      { k: 'and', args: [
        { k: 'cmp', op: '=', l: fn('array_subscript', [tagsCol, { k: 'const', v: 2, t: 'int4' }], 'text'), r: { k: 'const', v: 'q', t: 'text' }, ct: 'text', t: 'bool' },
        fn('array_overlap', [tagsCol, { k: 'const', v: new SqlArray('text', ['p', null]), t: '_text' }], 'bool'),
      ], t: 'bool' },
    ],
    t: 'bool',
  };
  const f = recorded(filter, parseArrayText('{a,"b c"}', 'text'));
  const rows: SqlValue[][] = [
    [1, parseArrayText('{x,a,"b c",NULL}', 'text')],
    [2, parseArrayText('{a}', 'text')],
    [3, parseArrayText('{p,q}', 'text')],
    [4, parseArrayText('{z,q}', 'text')],
    [5, null],
  ];
  assert.deepEqual(rows.map((r) => evalPredicate(f, r)), [true, false, true, false, false]);
  assert.deepEqual(rows.map((r) => evalPredicate(f, r)), rows.map((r) => evalPredicate(bindExpr(filter, makeEnv([parseArrayText('{a,"b c"}', 'text')], null)), r)));
});
