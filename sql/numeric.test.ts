import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Numeric, selectDivScale } from './numeric.ts';

const n = (s: string): Numeric => {
  const v = Numeric.parse(s);
  assert.ok(v !== null, s);
  return v;
};

void test('parses and prints numerics keeping their display scale', () => {
  assert.equal(n('1.50').toString(), '1.50');
  assert.equal(n('-0.05').toString(), '-0.05');
  assert.equal(n('.5').toString(), '0.5');
  assert.equal(n('1e3').toString(), '1000');
  assert.equal(n('1.5e-3').toString(), '0.0015');
  assert.equal(Numeric.parse('abc'), null);
});

void test('adds, subtracts and multiplies exactly', () => {
  assert.equal(n('0.1').add(n('0.2')).toString(), '0.3');
  assert.equal(n('1.25').sub(n('2')).toString(), '-0.75');
  assert.equal(n('1.5').mul(n('1.5')).toString(), '2.25');
  assert.equal(n('99999999999999999999').add(n('1')).toString(), '100000000000000000000');
});

void test('divides with PostgreSQL result scales', () => {
  assert.equal(n('1').div(n('3')).toString(), '0.33333333333333333333');
  assert.equal(n('10').div(n('4')).toString(), '2.5000000000000000');
  assert.equal(n('2').div(n('3')).toString(), '0.66666666666666666667');
  assert.equal(selectDivScale(n('100'), n('7')), 16);
});

void test('rounds half away from zero', () => {
  assert.equal(n('2.5').round(0).toString(), '3');
  assert.equal(n('-2.5').round(0).toString(), '-3');
  assert.equal(n('1.005').round(2).toString(), '1.01');
  assert.equal(n('1234.5').round(-2).toString(), '1200');
  assert.equal(n('2.5').toBigIntRounded(), 3n);
});

void test('compares values of different scales', () => {
  assert.equal(n('1.50').cmp(n('1.5')), 0);
  assert.equal(n('-1').cmp(n('0.001')), -1);
});
