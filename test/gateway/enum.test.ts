/**
 * Enum types through the gateway, over the engine and over a six-replica cluster: psql's `\dT`, `\dT+`
 * and `\d` and the system catalog's rows (pg_type, pg_enum, format_type, regtype, pg_attribute,
 * information_schema.columns) print what PostgreSQL 15 prints (testdata/enum-psql.sql, .out and .err
 * are PostgreSQL's); psycopg2, psycopg 3 (with and without its enum adapter, text and binary) and
 * SQLAlchemy 1.4's Enum give what they give against PostgreSQL 15 (drivers/enum_check.py,
 * testdata/enum-drivers.txt); node-postgres sees the enum's own oid in RowDescription, binds labels as
 * parameters and gets PostgreSQL's 22P02.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SQLALCHEMY_SKIP, psqlScript, runEnumCheck, scriptOutput } from './client-scripts.ts';
import { PASSWORD, USER, clusterGatewayForSuite, engineGatewayForSuite, withPg } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 9040;
const DRIVERS_EXPECTED = readFileSync(join(import.meta.dirname, 'testdata', 'enum-drivers.txt'), 'utf8');

async function psqlMatchesPostgres(port: number): Promise<void> {
  const r = await psqlScript('enum-psql', port, USER, PASSWORD);
  const expected = scriptOutput('enum-psql');
  assert.equal(r.stderr, expected.stderr);
  assert.equal(r.stdout, expected.stdout);
}

async function driversMatchPostgres(port: number): Promise<void> {
  const r = await runEnumCheck(port, USER);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, DRIVERS_EXPECTED);
}

async function nodePg(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query("CREATE TYPE np_level AS ENUM ('low', 'mid', 'high')");
    await c.query('CREATE TABLE np_t (l np_level PRIMARY KEY, n int)');
    await c.query('INSERT INTO np_t VALUES ($1, $2), ($3, $4)', ['high', 1, 'low', 2]);
    await c.query("ALTER TYPE np_level ADD VALUE 'lowest' BEFORE 'low'");
    await c.query("ALTER TYPE np_level ADD VALUE 'higher' AFTER 'mid'");
    await c.query('INSERT INTO np_t VALUES ($1, 3), ($2, 4)', ['lowest', 'higher']);
    const r = await c.query('SELECT l, n FROM np_t WHERE l > $1 ORDER BY l', ['lowest']);
    assert.deepEqual(r.rows, [{ l: 'low', n: 2 }, { l: 'higher', n: 4 }, { l: 'high', n: 1 }]);
    const oid = (await c.query("SELECT oid FROM pg_type WHERE typname = 'np_level'")).rows[0] as { oid: number };
    assert.equal(r.fields[0]?.dataTypeID, oid.oid);
    await assert.rejects(c.query('SELECT n FROM np_t WHERE l = $1', ['nope']), (e: Error & { code?: string }) => {
      assert.equal(e.code, '22P02');
      assert.equal(e.message, 'invalid input value for enum np_level: "nope"');
      return true;
    });
    await c.query('DROP TABLE np_t');
    await c.query('DROP TYPE np_level');
  });
}

void describe('enum types through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it("psql's \\dT, \\dT+, \\d and the system catalog print what PostgreSQL 15 prints", () => psqlMatchesPostgres(port()));
  void it('psycopg2, psycopg 3 and SQLAlchemy see what they see on PostgreSQL 15', { skip: SQLALCHEMY_SKIP }, () => driversMatchPostgres(port()));
  void it("node-postgres gets the enum's oid, binds labels and orders by labels added later", () => nodePg(port()));
});

void describe('enum types through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-enum', CLUSTER_BASE_PORT);
  void it("psql's \\dT, \\dT+, \\d and the system catalog print what PostgreSQL 15 prints", () => psqlMatchesPostgres(port()));
  void it('psycopg2, psycopg 3 and SQLAlchemy see what they see on PostgreSQL 15', { skip: SQLALCHEMY_SKIP }, () => driversMatchPostgres(port()));
  void it("node-postgres gets the enum's oid, binds labels and orders by labels added later", () => nodePg(port()));
});
