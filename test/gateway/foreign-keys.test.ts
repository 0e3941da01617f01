/**
 * FOREIGN KEY constraints through the gateway, as the node `pg` driver sees them, over the single-node
 * engine and over a real cluster: the 23503 / 2BP01 / 0A000 errors with PostgreSQL 15's message and
 * DETAIL, the cascade, the DROP ... CASCADE notice, and the constraints in information_schema the way
 * ORMs introspect them (table_constraints, key_column_usage, constraint_column_usage,
 * referential_constraints). Every expected value was printed by PostgreSQL 15 for the same statements.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { clusterGatewayForSuite, engineGatewayForSuite, queryFailure, withPg } from './gateway-fixture.ts';

const BASE_PORT = 8240;


const INTROSPECT = `SELECT tc.constraint_name, kcu.column_name, ccu.table_name AS ref_table, ccu.column_name AS ref_column, rc.match_option, rc.update_rule, rc.delete_rule
FROM information_schema.table_constraints tc
JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_name = tc.table_name
JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name
JOIN information_schema.referential_constraints rc ON rc.constraint_name = tc.constraint_name
WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_name = 'gw_child' ORDER BY 1`;

async function scenario(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query('CREATE TABLE gw_parent (id int PRIMARY KEY, code text UNIQUE)');
    await c.query('CREATE TABLE gw_child (id int PRIMARY KEY, parent_id int REFERENCES gw_parent ON DELETE CASCADE, code text, CONSTRAINT gw_code FOREIGN KEY (code) REFERENCES gw_parent (code) ON UPDATE SET NULL)');
    assert.deepEqual((await c.query({ text: INTROSPECT, rowMode: 'array' })).rows, [
      ['gw_child_parent_id_fkey', 'parent_id', 'gw_parent', 'id', 'NONE', 'NO ACTION', 'CASCADE'],
      ['gw_code', 'code', 'gw_parent', 'code', 'NONE', 'SET NULL', 'NO ACTION'],
    ]);
    assert.deepEqual(await queryFailure(c, 'INSERT INTO gw_child VALUES (1, 5, NULL)'), {
      code: '23503', message: 'insert or update on table "gw_child" violates foreign key constraint "gw_child_parent_id_fkey"',
      detail: 'Key (parent_id)=(5) is not present in table "gw_parent".',
    });
    await c.query("INSERT INTO gw_parent VALUES (1, 'a'), (2, 'b')");
    await c.query("INSERT INTO gw_child VALUES (10, 1, 'b'), (11, 2, 'b')");
    assert.deepEqual(await queryFailure(c, 'UPDATE gw_parent SET id = 3 WHERE id = 1'), {
      code: '23503', message: 'update or delete on table "gw_parent" violates foreign key constraint "gw_child_parent_id_fkey" on table "gw_child"',
      detail: 'Key (id)=(1) is still referenced from table "gw_child".',
    });
    // ON UPDATE SET NULL (code) and ON DELETE CASCADE (parent_id), with parameters.
    await c.query('UPDATE gw_parent SET code = $1 WHERE id = $2', ['bb', 2]);
    await c.query('DELETE FROM gw_parent WHERE id = $1', [1]);
    assert.deepEqual((await c.query({ text: 'SELECT id, parent_id, code FROM gw_child ORDER BY id', rowMode: 'array' })).rows, [[11, 2, null]]);
    assert.deepEqual(await queryFailure(c, 'DROP TABLE gw_parent'), {
      code: '2BP01', message: 'cannot drop table gw_parent because other objects depend on it',
      detail: 'constraint gw_child_parent_id_fkey on table gw_child depends on table gw_parent\nconstraint gw_code on table gw_child depends on table gw_parent',
      hint: 'Use DROP ... CASCADE to drop the dependent objects too.',
    });
    assert.deepEqual(await queryFailure(c, 'TRUNCATE gw_parent'), {
      code: '0A000', message: 'cannot truncate a table referenced in a foreign key constraint', detail: 'Table "gw_child" references "gw_parent".',
      hint: 'Truncate table "gw_child" at the same time, or use TRUNCATE ... CASCADE.',
    });
    const notices: { message: string; detail: string }[] = [];
    c.on('notice', (n) => notices.push({ message: n.message ?? '', detail: n.detail ?? '' }));
    await c.query('DROP TABLE gw_parent CASCADE');
    await c.query('SELECT 1'); // the notice has arrived
    assert.deepEqual(notices, [{ message: 'drop cascades to 2 other objects', detail: 'drop cascades to constraint gw_child_parent_id_fkey on table gw_child\ndrop cascades to constraint gw_code on table gw_child' }]);
    assert.deepEqual((await c.query({ text: INTROSPECT, rowMode: 'array' })).rows, []);
    await c.query('INSERT INTO gw_child VALUES (12, 99, NULL)');
    await c.query('DROP TABLE gw_child');
  });
}

void describe('FOREIGN KEY constraints through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('reports PostgreSQL\'s errors, cascades, and lists the constraints in information_schema', () => scenario(port()));
});

void describe('FOREIGN KEY constraints through the gateway over a cluster', () => {
  const { port } = clusterGatewayForSuite('gw-foreign-keys', BASE_PORT);
  void it('reports PostgreSQL\'s errors, cascades, and lists the constraints in information_schema', () => scenario(port()));
});
