import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Engine, type ExecResult } from './engine.ts';
import { keyTypesCompatible, orphanOf } from './foreign-keys.ts';

function code(r: ExecResult): string {
  return r.ok ? 'ok' : r.error.code;
}

void describe('foreign keys on the single-node engine', () => {
  void it('a transaction inserting a child and one deleting its parent cannot both commit (the checks are recorded reads)', async () => {
    for (const first of ['insert', 'delete'] as const) {
      const engine = await Engine.create();
      const setup = engine.session();
      assert.equal(code(setup.execute('CREATE TABLE p (id int PRIMARY KEY)')), 'ok');
      assert.equal(code(setup.execute('CREATE TABLE c (id int PRIMARY KEY, p int REFERENCES p)')), 'ok');
      assert.equal(code(setup.execute('INSERT INTO p VALUES (1)')), 'ok');
      const ins = engine.session();
      const del = engine.session();
      ins.execute('BEGIN');
      del.execute('BEGIN');
      assert.equal(code(ins.execute('INSERT INTO c VALUES (1, 1)')), 'ok');
      assert.equal(code(del.execute('DELETE FROM p WHERE id = 1')), 'ok');
      const [a, b] = first === 'insert' ? [ins, del] : [del, ins];
      assert.equal(code(a.execute('COMMIT')), 'ok');
      assert.equal(code(b.execute('COMMIT')), '40001', `${first} committed first`);
      const orphans = setup.execute('SELECT count(*) FROM c WHERE NOT EXISTS (SELECT 1 FROM p WHERE p.id = c.p)');
      assert.ok(orphans.ok);
      assert.deepEqual(orphans.rows, [[0]]);
    }
  });

  void it('a cascade down a self-referencing chain of 5000 rows deletes it all (no recursion depth limit)', async () => {
    const engine = await Engine.create();
    const s = engine.session();
    assert.equal(code(s.execute('CREATE TABLE chain (id int PRIMARY KEY, up int REFERENCES chain ON DELETE CASCADE)')), 'ok');
    assert.equal(code(s.execute('CREATE INDEX chain_up ON chain (up)')), 'ok');
    assert.equal(code(s.execute('INSERT INTO chain SELECT g, CASE WHEN g = 1 THEN NULL ELSE g - 1 END FROM generate_series(1, 5000) g')), 'ok');
    assert.equal(code(s.execute('DELETE FROM chain WHERE id = 4000')), 'ok');
    const left = s.execute('SELECT count(*), max(id) FROM chain');
    assert.ok(left.ok);
    assert.deepEqual(left.rows, [[3999, 3999]]);
    assert.equal(code(s.execute('DELETE FROM chain WHERE id = 1')), 'ok');
    const none = s.execute('SELECT count(*) FROM chain');
    assert.ok(none.ok);
    assert.deepEqual(none.rows, [[0]]);
  });
});

void describe('foreign key definitions', () => {
  void it('key types are compatible within a btree family or by an implicit cast to the referenced type', () => {
    const yes = [['int4', 'int8'], ['int8', 'int2'], ['int4', 'numeric'], ['varchar', 'text'], ['date', 'timestamptz'], ['float4', 'float8'], ['uuid', 'uuid']] as const;
    const no = [['numeric', 'int4'], ['text', 'int4'], ['int4', 'text'], ['uuid', 'text'], ['bool', 'int4']] as const;
    for (const [f, p] of yes) assert.ok(keyTypesCompatible(f, p), `${f} -> ${p}`);
    for (const [f, p] of no) assert.ok(!keyTypesCompatible(f, p), `${f} -> ${p}`);
  });

  void it('orphanOf finds the first referencing row without its key, casting across integer types; MATCH FULL refuses a mix of NULLs', async () => {
    const engine = await Engine.create();
    const s = engine.session();
    s.execute('CREATE TABLE p (a int8, b text, PRIMARY KEY (a, b))');
    s.execute('CREATE TABLE c (x int4, y text, FOREIGN KEY (x, y) REFERENCES p MATCH FULL)');
    const p = engine.catalog.require('p');
    const c = engine.catalog.require('c');
    const fk = c.foreignKeys![0]!;
    const parents = [[1, 'a', null], [2, 'b', null]];
    assert.equal(orphanOf(c, p, fk, [[1, 'a', 10], [null, null, 11], [2, 'b', 12]], parents), null);
    assert.equal(orphanOf(c, p, fk, [[1, 'a', 10], [2, 'a', 11]], parents)?.detail, 'Key (x, y)=(2, a) is not present in table "p".');
    assert.equal(orphanOf(c, p, fk, [[1, null, 10]], parents)?.detail, 'MATCH FULL does not allow mixing of null and non-null key values.');
  });
});
