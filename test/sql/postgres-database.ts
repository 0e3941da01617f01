// The real-PostgreSQL backend for the sqllogictest runner: the oracle that proves the corpus's expected
// results. Each script runs in a fresh database (created and dropped around it) on the server named by
// the usual libpq environment variables (PGHOST, PGPORT, PGUSER, ...), through node `pg`'s simple query
// protocol, with every result cell kept as PostgreSQL's text output.
import pg from 'pg';

import type { SltDatabase, SltOutcome } from '../../sql/slt/slt-database.ts';
import type { OpenedDatabase } from './slt-files.ts';

const rawText = { getTypeParser: () => (value: string) => value };

let databaseCounter = 0;

/** Creates a scratch database for one script and returns a backend connected to it. */
export async function openPostgresDatabase(): Promise<OpenedDatabase> {
  databaseCounter += 1;
  const name = `slt_${process.pid}_${databaseCounter}`;
  const admin = new pg.Client({ database: process.env['PGDATABASE'] ?? 'postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  // Pin what a server's defaults could change: text ordering by code point (Pesto's and the C
  // collation's), ISO dates, shortest-exact float output.
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C'`);
  await admin.query(`ALTER DATABASE ${name} SET datestyle = 'ISO, MDY'`);
  await admin.query(`ALTER DATABASE ${name} SET extra_float_digits = 1`);
  await admin.query(`ALTER DATABASE ${name} SET timezone = 'UTC'`);
  const client = new pg.Client({ database: name });
  await client.connect();
  client.on('notice', () => undefined);
  const db: SltDatabase = {
    labels: ['postgresql'],
    execute: (sql) => executeOn(client, sql),
  };
  return {
    db,
    close: async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}

/** Runs one record's SQL through `pg` (simple protocol), every cell as PostgreSQL's text output. */
export async function executeOn(client: pg.Client, sql: string): Promise<SltOutcome> {
  try {
    const result: pg.QueryArrayResult | pg.QueryArrayResult[] = await client.query({ text: sql, rowMode: 'array', types: rawText });
    // Several statements in one text yield several results; the last one is the record's result.
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    if (last === undefined) return { ok: true, columnCount: 0, rows: [] };
    const rows = last.rows.map((row: unknown[]) => row.map((cell) => (cell === null ? null : String(cell))));
    return { ok: true, columnCount: last.fields.length, rows };
  } catch (e) {
    if (e instanceof pg.DatabaseError) return { ok: false, code: e.code ?? 'XX000', message: e.message };
    throw e;
  }
}
