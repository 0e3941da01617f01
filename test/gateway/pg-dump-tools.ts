// What the pg_dump restore tests share: PostgreSQL 15's client programs, and a dump of a fresh
// PostgreSQL database loaded from a script, owned by the gateway's user as on a server an application
// moves from.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { PG_BIN } from '../../bench/postgres-server.ts';
import { DATABASE, USER } from './gateway-fixture.ts';

export type Ran = { code: number; stdout: string; stderr: string };

export function runPg(bin: string, args: readonly string[], password = ''): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(join(PG_BIN, bin), args, { env: { ...process.env, PGPASSWORD: password, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' }, timeout: 120_000, maxBuffer: 1 << 24 },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr }));
  });
}

export const psqlAt = (port: number, user: string, password: string, ...args: string[]): Promise<Ran> =>
  runPg('psql', ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', DATABASE, ...args], password);

/**
 * pg_dump's output for the database the PostgreSQL on `port` gets from `source` (a script the gateway's
 * user runs), after `setup` statements run as postgres (roles the script needs).
 */
export async function dumpOf(port: number, source: string, setup: readonly string[] = []): Promise<string> {
  const created = await runPg('psql', ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1',
    '-c', `CREATE USER ${USER} SUPERUSER`, '-c', `CREATE DATABASE ${DATABASE} OWNER ${USER}`, ...setup.flatMap((s) => ['-c', s])]);
  assert.equal(created.code, 0, created.stderr);
  const load = await runPg('psql', ['-X', '-q', '-h', '127.0.0.1', '-p', String(port), '-U', USER, '-d', DATABASE, '-v', 'ON_ERROR_STOP=1', '-f', source]);
  assert.equal(load.code, 0, load.stderr);
  const d = await runPg('pg_dump', ['-h', '127.0.0.1', '-p', String(port), '-U', USER, DATABASE]);
  assert.equal(d.code, 0, d.stderr);
  return d.stdout;
}
