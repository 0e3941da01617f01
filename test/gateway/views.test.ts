/**
 * Views through the gateway over the engine: psql runs testdata/views.sql (`\dv`, `\d`, `\d view`, `\d+
 * view` with its definition, information_schema.tables/views/columns, pg_views, pg_class, pg_attribute,
 * pg_get_viewdef, 2BP01 and 42809 errors) and prints what PostgreSQL 15 prints (testdata/views.out and
 * .err, connected as pesto); the `pg` driver's prepared statements over a view describe its column types,
 * and write through it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { psqlScript, scriptOutput } from './client-scripts.ts';
import { PASSWORD, USER, startTestGateway, withPg } from './gateway-fixture.ts';

void test('psql describes and lists views as PostgreSQL 15 does', async () => {
  const gw = await startTestGateway();
  try {
    assert.deepEqual(await psqlScript('views', gw.port, USER, PASSWORD), scriptOutput('views'));
  } finally {
    await gw.close();
  }
});

void test('a prepared statement over a view describes the view\'s column types and runs with parameters', async () => {
  const gw = await startTestGateway();
  try {
    await withPg(gw.port, async (c) => {
      await c.query('CREATE TABLE items (id int PRIMARY KEY, label varchar(20), price numeric(8,2), at date)');
      await c.query("INSERT INTO items VALUES (1, 'a', 1.50, '2024-01-02'), (2, 'b', 20.00, '2024-02-03'), (3, 'c', 300.25, NULL)");
      await c.query('CREATE VIEW dear (item, label, price, at, doubled) AS SELECT id, label, price, at, price * 2 FROM items WHERE price > 10');
      const r = await c.query({ name: 'dear', text: 'SELECT * FROM dear WHERE price < $1 ORDER BY item', values: ['1000'] });
      // int4, varchar, numeric, date, numeric: the types PostgreSQL's RowDescription gives.
      assert.deepEqual(r.fields.map((f) => [f.name, f.dataTypeID]), [['item', 23], ['label', 1043], ['price', 1700], ['at', 1082], ['doubled', 1700]]);
      assert.deepEqual(r.rows.map((x: { item: number; doubled: string }) => [x.item, x.doubled]), [[2, '40.00'], [3, '600.50']]);
      const again = await c.query({ name: 'dear', text: 'SELECT * FROM dear WHERE price < $1 ORDER BY item', values: ['100'] });
      assert.deepEqual(again.rows.map((x: { item: number }) => x.item), [2]);
      assert.deepEqual((await c.query('SELECT id, price FROM items ORDER BY id')).rows, [{ id: 1, price: '1.50' }, { id: 2, price: '20.00' }, { id: 3, price: '300.25' }]);
      await assert.rejects(c.query("INSERT INTO dear VALUES (4, 'd', 50, NULL, 100)"), { code: '0A000', message: 'cannot insert into column "doubled" of view "dear"' });
      // A simple view writes through to its table, prepared with parameters too.
      const ins = await c.query({ name: 'ins', text: 'INSERT INTO dear (item, label, price) VALUES ($1, $2, $3) RETURNING doubled', values: [4, 'd', '50'] });
      assert.deepEqual(ins.rows, [{ doubled: '100.00' }]);
      assert.equal((await c.query('UPDATE dear SET price = price + 1 WHERE item >= 3')).rowCount, 2);
      await assert.rejects(c.query('DROP TABLE items'), { code: '2BP01', detail: 'view dear depends on table items' });
    });
  } finally {
    await gw.close();
  }
});
