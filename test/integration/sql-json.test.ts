/**
 * jsonb predicates on a real cluster: a filter on a document (`doc ->> 'k' = $1`, `doc @> $1`) is bound
 * to constants, encoded with its jsonb constants (sql/predicate-codec.ts) and evaluated again by the
 * validating replicas (SemanticCC). A concurrent older writer of a row the predicate matches makes the
 * reader abort (40001); one whose row it does not match does not; and the results equal the engine's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Engine, type ExecResult } from '../../sql/engine.ts';
import { SqlClient, type SqlSession } from '../../client/sql/sql-session.ts';
import { SqlJsonb, parseJsonb } from '../../sql/json.ts';
import type { SqlValue } from '../../sql/types.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';
import { commitCode, q, value } from './sql-session-testkit.ts';

const BASE_PORT = 8120;

let tc: TestCluster;
let sql: SqlClient;

const texts = (rows: readonly (readonly SqlValue[])[]): string[][] => rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

void describe('jsonb predicates over the cluster', () => {
  before(async () => {
    tc = await startTestCluster('sql-json', BASE_PORT);
    sql = new SqlClient(await tc.connect(), await Engine.create());
    const s = sql.session();
    await q(s, 'CREATE TABLE events (id int PRIMARY KEY, doc jsonb, raw json)');
    await q(s, 'CREATE TABLE seen (id int PRIMARY KEY, n bigint)');
    await q(s, `INSERT INTO events VALUES
      (1, '{"kind": "click", "tags": ["a"], "n": 1}', '{"x" : 1}'),
      (2, '{"kind": "view", "tags": ["b"], "n": 2.50}', NULL)`);
  });
  after(async () => {
    await tc?.stop();
  });

  void it('a reader filtering on doc ->> $1 = $2 aborts when an older writer inserts a matching row', async () => {
    const writer = sql.session();
    const reader = sql.session();
    await writer.begin();
    await value(writer, 'SELECT id FROM events WHERE id = 100'); // fixes the writer's (older) timestamp
    await reader.begin();
    assert.equal(await value(reader, "SELECT count(*) FROM events WHERE doc ->> 'kind' = $1", ['buy']), 0);
    await q(writer, 'INSERT INTO events VALUES (100, $1, NULL)', [parseJsonb('{"kind": "buy", "n": 9}')]);
    assert.equal(await commitCode(writer), 'committed');
    await q(reader, 'INSERT INTO seen VALUES (1, 0)');
    assert.equal(await commitCode(reader), '40001');
    assert.equal(await value(sql.session(), "SELECT count(*) FROM events WHERE doc ->> 'kind' = 'buy'"), 1);
  });

  void it('a reader filtering on doc @> $1 aborts on a matching row and commits past one it does not match', async () => {
    const match = async (id: number, doc: string): Promise<string> => {
      const writer = sql.session();
      const reader = sql.session();
      await writer.begin();
      await value(writer, 'SELECT id FROM events WHERE id = 0');
      await reader.begin();
      const before = await value(reader, 'SELECT count(*) FROM events WHERE doc @> $1', [parseJsonb('{"tags": ["z"]}')]);
      assert.equal(before, 0);
      await q(writer, 'INSERT INTO events VALUES ($1, $2, NULL)', [id, parseJsonb(doc)]);
      assert.equal(await commitCode(writer), 'committed');
      await q(reader, 'INSERT INTO seen VALUES ($1, 0)', [id]);
      return commitCode(reader);
    };
    // The writer's row is not in the reader's predicate: nothing the reader saw changed.
    assert.equal(await match(200, '{"tags": ["y"], "kind": "z"}'), 'committed');
    assert.equal(await match(201, '{"tags": ["x", "z"]}'), '40001');
  });

  void it('an older writer turning a row into a match of the reader\'s jsonb predicate aborts the reader', async () => {
    const writer = sql.session();
    const reader = sql.session();
    await writer.begin();
    await value(writer, 'SELECT id FROM events WHERE id = 0');
    await reader.begin();
    assert.equal(await value(reader, "SELECT count(*) FROM events WHERE (doc -> 'n')::numeric > 5 AND doc ? 'tags'"), 0);
    await q(writer, "UPDATE events SET doc = jsonb_set(doc, '{n}', '7') WHERE id = 1");
    assert.equal(await commitCode(writer), 'committed');
    await q(reader, 'INSERT INTO seen VALUES (300, 0)');
    assert.equal(await commitCode(reader), '40001');
  });

  void it('reads and writes on documents give the engine\'s results', async () => {
    const engine = await Engine.create();
    const ref = engine.session();
    const s = sql.session();
    const setup = [
      'CREATE TABLE docs (id int PRIMARY KEY, doc jsonb, raw json)',
      `INSERT INTO docs VALUES (1, '{"a": 1, "b": [1, 2], "c": {"d": "x"}}', '[1, 2]'), (2, '{"a": 2.0, "b": []}', '{"k" : "v"}'),
        (3, '[1, "a", null]', NULL), (4, '"scalar"', 'true'), (5, NULL, '{}')`,
    ];
    for (const t of setup) {
      await q(s, t);
      assert.ok(ref.execute(t).ok);
    }
    const queries: [string, SqlValue[]][] = [
      ['SELECT * FROM docs ORDER BY id', []],
      ['SELECT id, doc FROM docs ORDER BY doc, id', []],
      ["SELECT id FROM docs WHERE doc -> 'a' = $1 ORDER BY id", [parseJsonb('2')]],
      ['SELECT id FROM docs WHERE doc @> $1 OR doc ? $2 ORDER BY id', [parseJsonb('{"c": {}}'), 'a']],
      ["SELECT id, raw -> 'k', raw ->> 1 FROM docs WHERE raw IS NOT NULL ORDER BY id", []],
      ["SELECT doc #>> '{c,d}', count(*) FROM docs GROUP BY 1 ORDER BY 1", []],
      ['SELECT DISTINCT jsonb_typeof(doc) FROM docs ORDER BY 1', []],
      ["SELECT jsonb_agg(id ORDER BY id), json_object_agg(id, doc -> 'a') FROM docs WHERE jsonb_typeof(doc) = 'object'", []],
    ];
    for (const [text, params] of queries) {
      const got = await q(s, text, params);
      const want = ref.execute(text, params);
      assert.ok(want.ok, text);
      assert.deepEqual(texts(got.rows), texts(want.rows), text);
    }
    for (const t of ["UPDATE docs SET doc = doc || '{\"u\": true}' WHERE doc @> '{\"a\": 1}'", "DELETE FROM docs WHERE doc #>> '{b,0}' IS NULL AND id < 3"]) {
      await q(s, t);
      assert.ok(ref.execute(t).ok);
    }
    const text = 'SELECT * FROM docs ORDER BY id';
    const got = await q(s, text);
    assert.deepEqual(texts(got.rows), texts((ref.execute(text) as ExecResult & { ok: true }).rows));
    assert.ok(got.rows.some((r) => r[1] instanceof SqlJsonb && r[1].toString() === '{"a": 1, "b": [1, 2], "c": {"d": "x"}, "u": true}'));
  });
});
