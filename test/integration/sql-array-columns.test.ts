/**
 * Array columns on a real cluster: rows with arrays are written, replicated and read back by point and
 * range reads, also through an array primary key; a filter over an array column (`tags @> $1`,
 * `$1 = ANY(tags)`, `tags[1] = $1`) is bound to constants, encoded with its array constants
 * (sql/predicate-codec.ts) and evaluated again by the validating replicas (SemanticCC): a concurrent
 * older writer of a row the predicate matches makes the reader abort (40001), one whose row it does not
 * match does not. Results equal the engine's, and the rows survive every replica being killed and
 * restarted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Engine } from '../../sql/engine.ts';
import { SqlClient } from '../../client/sql/sql-session.ts';
import { SqlArray } from '../../sql/sql-array.ts';
import { formatText } from '../../sql/value-text.ts';
import { typeOfValue, type SqlValue } from '../../sql/types.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';
import { commitCode, q, value } from './sql-session-testkit.ts';

const BASE_PORT = 8410;

let tc: TestCluster;
let sql: SqlClient;

const texts = (rows: readonly (readonly SqlValue[])[]): string[][] => rows.map((r) => r.map((v) => (v === null ? 'NULL' : formatText(v, typeOfValue(v)))));
const tags = (...items: (string | null)[]): SqlArray => new SqlArray('text', items);

/**
 * A reader counts the rows its filter matches (none), an older writer then writes row `id` with
 * `write` and commits, and the reader writes and tries to commit: its outcome.
 */
async function race(filter: string, params: readonly SqlValue[], write: string, writeParams: readonly SqlValue[], marker: number): Promise<string> {
  const writer = sql.session();
  const reader = sql.session();
  await writer.begin();
  await value(writer, 'SELECT id FROM items WHERE id = 0'); // fixes the writer's (older) timestamp
  await reader.begin();
  assert.equal(await value(reader, `SELECT count(*) FROM items WHERE ${filter}`, params), 0);
  await q(writer, write, writeParams);
  assert.equal(await commitCode(writer), 'committed');
  await q(reader, 'INSERT INTO seen VALUES ($1)', [marker]);
  return commitCode(reader);
}

void describe('array columns over the cluster', () => {
  before(async () => {
    tc = await startTestCluster('sql-array-columns', BASE_PORT);
    sql = new SqlClient(await tc.connect(), await Engine.create());
    const s = sql.session();
    await q(s, "CREATE TABLE items (id int PRIMARY KEY, tags text[], n int[] NOT NULL DEFAULT '{}')");
    await q(s, 'CREATE TABLE seen (id int PRIMARY KEY)');
    await q(s, "INSERT INTO items VALUES (1, '{a,b}', '{1,2}'), (2, ARRAY['c', NULL], '{}'), (3, NULL, '{3}')");
  });
  after(async () => {
    await tc?.stop();
  });

  void it('a reader filtering on tags @> $1 aborts on an older writer\'s matching row and commits past one it does not match', async () => {
    const filter = 'tags @> $1';
    assert.equal(await race(filter, [tags('z')], 'INSERT INTO items VALUES ($1, $2)', [100, tags('y', 'a')], 1), 'committed');
    assert.equal(await race(filter, [tags('z')], 'INSERT INTO items VALUES ($1, $2)', [101, tags('x', 'z', null)], 2), '40001');
  });

  void it('an older writer appending to an array so that $1 = ANY(tags) matches aborts the reader', async () => {
    assert.equal(await race('$1 = ANY(tags)', ['w'], "UPDATE items SET tags = array_append(tags, 'v') WHERE id = 1", [], 3), 'committed');
    assert.equal(await race('$1 = ANY(tags)', ['w'], "UPDATE items SET tags = tags || 'w'::text WHERE id = 2", [], 4), '40001');
  });

  void it('a filter on a subscript and cardinality is evaluated by the replicas too', async () => {
    const filter = 'tags[1] = $1 AND cardinality(n) > 1';
    assert.equal(await race(filter, ['q'], 'INSERT INTO items VALUES (102, $1, $2)', [tags('q'), new SqlArray('int4', [1])], 5), 'committed');
    assert.equal(await race(filter, ['q'], 'INSERT INTO items VALUES (103, $1, $2)', [tags('q'), new SqlArray('int4', [1, 2])], 6), '40001');
  });

  void it('point and range reads, array keys and writes give the engine\'s results, and survive restarts of every replica', async () => {
    const engine = await Engine.create();
    const ref = engine.session();
    const s = sql.session();
    const setup = [
      "CREATE TABLE docs (id int PRIMARY KEY, tags text[], m numeric(4,1)[], v varchar(3)[] DEFAULT '{}')",
      "INSERT INTO docs VALUES (1, '{a,\"b c\"}', '{1.25,NULL}'), (2, '{}', NULL), (3, NULL, '{2}'), (4, ARRAY['d', NULL], '{}')",
      'CREATE TABLE tagged (tags int[] PRIMARY KEY, label text)',
      "INSERT INTO tagged VALUES ('{1}', 'one'), ('{1,2}', 'one-two'), ('{}', 'empty'), ('{NULL}', 'null'), ('{2}', 'two')",
      'CREATE INDEX docs_tags ON docs (tags)',
    ];
    for (const t of setup) {
      await q(s, t);
      assert.ok(ref.execute(t).ok, t);
    }
    const queries: [string, SqlValue[]][] = [
      ['SELECT * FROM docs ORDER BY id', []],
      ['SELECT * FROM docs WHERE id = 1', []],
      ['SELECT id, tags FROM docs WHERE id BETWEEN 2 AND 4 ORDER BY tags, id', []],
      ['SELECT id FROM docs WHERE tags && $1 ORDER BY id', [tags('d', 'b c')]],
      ['SELECT id FROM docs WHERE tags = $1', [tags()]],
      ['SELECT * FROM tagged WHERE tags = $1', [new SqlArray('int4', [1, 2])]],
      ["SELECT * FROM tagged WHERE tags >= '{1}' AND tags < '{2}' ORDER BY tags", []],
      ['SELECT * FROM tagged ORDER BY tags DESC', []],
    ];
    const check = async (): Promise<void> => {
      for (const [text, params] of queries) {
        const got = await q(s, text, params);
        const want = ref.execute(text, params);
        assert.ok(want.ok, text);
        assert.deepEqual(texts(got.rows), texts(want.rows), text);
      }
    };
    await check();
    for (const t of ["UPDATE docs SET tags = array_prepend('z', tags), v = v || 'abc'::varchar WHERE tags IS NOT NULL AND id < 3",
      "DELETE FROM tagged WHERE tags @> '{2}'", "UPDATE tagged SET tags = '{7}' WHERE label = 'null'"]) {
      await q(s, t);
      assert.ok(ref.execute(t).ok, t);
    }
    const r = await s.execute("UPDATE docs SET v = '{abcd}' WHERE id = 1");
    assert.equal(r.ok ? 'ok' : r.error.code, '22001');
    queries.push(['SELECT * FROM tagged ORDER BY tags', []]);
    await check();

    // Every replica killed and restarted: the rows come back from their logs.
    for (const i of tc.indexes) await tc.cluster.kill(0, i);
    for (const i of tc.indexes) await tc.cluster.restart(0, i);
    sql = new SqlClient(await tc.connect(), await Engine.create());
    const after = sql.session();
    for (const [text, params] of queries) {
      const got = await q(after, text, params);
      const want = ref.execute(text, params);
      assert.ok(want.ok, text);
      assert.deepEqual(texts(got.rows), texts(want.rows), `${text} after the restart`);
    }
  });
});
