import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addEnumLabel, compareEnums, enumAtPosition, makeEnumType, parseEnum, positionBetween, renameEnumLabel, type EnumTypeDef } from './enum-types.ts';
import { encodeKey } from './key-encoding.ts';

function counter(from: number): () => number {
  let n = from;
  return () => n++;
}

void test('a position lies strictly between its neighbours and never ends in 0', () => {
  const cases: [string, string | null][] = [['', null], ['5', null], ['9', null], ['', '1'], ['1', '2'], ['1', '15'], ['19', '2'], ['099', '1'], ['5', '51']];
  for (const [a, b] of cases) {
    const p = positionBetween(a, b);
    assert.ok(p > a && (b === null || p < b), `${a} < ${p} < ${String(b)}`);
    assert.notEqual(p.at(-1), '0');
  }
});

void test('a thousand labels added before the same label keep a strict order, and old positions never move', () => {
  const next = counter(100);
  let type: EnumTypeDef = makeEnumType(1, 'e', ['a', 'z'], next);
  const before = type.labels.map((l) => l.pos);
  for (let i = 0; i < 1000; i++) type = addEnumLabel(type, `x${i}`, { label: 'z', after: false }, false, next())!;
  const pos = type.labels.map((l) => l.pos);
  for (let i = 1; i < pos.length; i++) assert.ok(pos[i - 1]! < pos[i]!);
  assert.deepEqual([type.labels[0]!.pos, type.labels.at(-1)!.pos], before);
  // Keys order as the declared order.
  const keys = type.labels.map((l) => encodeKey([enumAtPosition(type, l.pos)], ['enum']));
  assert.deepEqual([...keys].sort(), keys);
});

void test("sort orders follow PostgreSQL's AddEnumLabel, renumbering when a float4 midpoint is not distinct", () => {
  const next = counter(100);
  let type = makeEnumType(1, 'e', ['a', 'b'], next);
  type = addEnumLabel(type, 'c', { label: 'a', after: false }, false, next())!;
  type = addEnumLabel(type, 'd', { label: 'b', after: true }, false, next())!;
  type = addEnumLabel(type, 'm', { label: 'a', after: true }, false, next())!;
  assert.deepEqual(type.labels.map((l) => [l.label, l.sortOrder]), [['c', 0], ['a', 1], ['m', 1.5], ['b', 2], ['d', 3]]);
  for (let i = 0; i < 40; i++) type = addEnumLabel(type, `n${i}`, { label: 'a', after: true }, false, next())!;
  const orders = type.labels.map((l) => l.sortOrder);
  for (let i = 1; i < orders.length; i++) assert.ok(orders[i - 1]! < orders[i]!, `sortorder ${i}`);
});

void test('values compare by position, a renamed label keeps its position, and errors are PostgreSQL\'s', () => {
  const type = makeEnumType(1, 'mood', ['sad', 'ok', 'happy'], counter(10));
  assert.equal(compareEnums(parseEnum(type, 'happy'), parseEnum(type, 'sad')), 1);
  const renamed = renameEnumLabel(type, 'ok', 'fine');
  assert.equal(enumAtPosition(renamed, parseEnum(type, 'ok').pos).label, 'fine');
  assert.throws(() => parseEnum(type, 'x'), { code: '22P02', message: 'invalid input value for enum mood: "x"' });
  assert.throws(() => addEnumLabel(type, 'ok', null, false, 99), { code: '42710', message: 'enum label "ok" already exists' });
  assert.equal(addEnumLabel(type, 'ok', null, true, 99), null);
  assert.throws(() => addEnumLabel(type, 'q', { label: 'zz', after: true }, false, 99), { code: '22023', message: '"zz" is not an existing enum label' });
  assert.throws(() => makeEnumType(1, 'e', ['a', 'a'], counter(1)), { code: '23505' });
});
