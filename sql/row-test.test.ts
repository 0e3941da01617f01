import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CmpOp, Expr } from './expr.ts';
import { evalExpr, makeEnv } from './eval.ts';
import { rowTest } from './row-test.ts';
import { compareText } from './ops.ts';
import { Numeric, type Row, type SqlType, type SqlValue } from './types.ts';

const OPS: CmpOp[] = ['=', '<>', '<', '<=', '>', '>='];
const col = (i: number, t: SqlType): Expr => ({ k: 'col', i, t });
const lit = (v: SqlValue, t: SqlType): Expr => ({ k: 'const', v, t });
const cmp = (op: CmpOp, l: Expr, r: Expr, ct: SqlType): Expr => ({ k: 'cmp', op, l, r, ct, t: 'bool' });

// Column 0 holds numbers (and what else a row may hold there), column 1 strings.
const ROWS: Row[] = [];
for (const n of [-2, 0, 0.5, 1, 3, NaN, -0, null, 5n, Numeric.parse('1.0')]) for (const s of ['', 'a', 'b', 'ab', '\uFFFD', '😀', 'a😀', null]) ROWS.push([n, s]);

function same(e: Expr, params: SqlValue[] = []): void {
  const env = makeEnv(params, null);
  const t = rowTest(e, env);
  for (const row of ROWS) {
    let want: boolean | 'throws';
    try {
      want = evalExpr(e, row, env) === true;
    } catch {
      want = 'throws';
    }
    if (want === 'throws') assert.throws(() => t(row), `${JSON.stringify(e)} on ${String(row)}`);
    else assert.equal(t(row), want, `${JSON.stringify(e, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))} on ${String(row)}`);
  }
}

void describe('rowTest: a compiled residual filter', () => {
  void it('agrees with the interpreter on numbers, NaN, NULL, bigints and numerics, either side, every operator', () => {
    for (const op of OPS) {
      for (const c of [0, 1, -2, 0.5, NaN, null]) {
        same(cmp(op, col(0, 'int4'), lit(c, 'int4'), 'float8'));
        same(cmp(op, lit(c, 'int4'), col(0, 'int4'), 'float8'));
      }
    }
  });

  void it('agrees with the interpreter on strings, parameters and ANDs', () => {
    for (const op of OPS) {
      for (const c of ['', 'a', 'ab', 'b', '\uFFFD', '😀']) {
        same(cmp(op, col(1, 'text'), lit(c, 'text'), 'text'));
        same(cmp(op, lit(c, 'text'), col(1, 'text'), 'text'));
      }
      same(cmp(op, col(0, 'int4'), { k: 'param', i: 0, t: 'int4' }, 'int4'), [1]);
    }
    const two = [cmp('>=', col(0, 'int4'), lit(0, 'int4'), 'int4'), cmp('=', col(1, 'text'), lit('a', 'text'), 'text')];
    same({ k: 'and', args: two, t: 'bool' });
    same({ k: 'and', args: [...two, cmp('<', col(0, 'int4'), lit(3, 'int4'), 'int4')], t: 'bool' });
    // Not compiled: bpchar (padding), OR, column against column.
    same(cmp('=', col(1, 'bpchar'), lit('a ', 'bpchar'), 'bpchar'));
    same({ k: 'or', args: two, t: 'bool' });
    same(cmp('<', col(0, 'int4'), col(0, 'int4'), 'int4'));
  });

  void it('a missing parameter fails at the first row, as the interpreter does, not before', () => {
    const t = rowTest(cmp('=', col(0, 'int4'), { k: 'param', i: 3, t: 'int4' }, 'int4'), makeEnv([], null));
    assert.throws(() => t([1, 'a']), /no parameter \$4/);
  });
});

void describe('text order', () => {
  void it('is code-point order (the order of UTF-8 bytes), not UTF-16 code-unit order', () => {
    const words = ['', 'a', 'ab', 'b', '\uD7FF', '\uE000', '\uFFFD', '\uFFFF', '😀', '😁', 'a😀', 'a\uFFFD', '𐀀', 'z'];
    for (const x of words) {
      for (const y of words) {
        const bytes = Math.sign(Buffer.compare(Buffer.from(x, 'utf8'), Buffer.from(y, 'utf8')));
        assert.equal(compareText(x, y), bytes, `${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
      }
    }
  });
});
