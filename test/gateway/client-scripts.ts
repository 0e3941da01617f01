// Scripts of real clients run against a gateway by several test files (over the engine, and over a
// cluster in cluster.test.ts): psql with testdata/*.sql, whose expected outputs are PostgreSQL 15's,
// and the Python drivers psycopg2 and psycopg 3 (Debian's python3-psycopg2 and python3-psycopg, which
// .ci/run installs) with the checks in drivers/.

import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE } from './gateway-fixture.ts';

const BIN = '/usr/lib/postgresql/15/bin';
const TESTDATA = join(import.meta.dirname, 'testdata');

/** Runs testdata/NAME.sql with psql against `port`; stdout and stderr (the script's path shortened). */
export function psqlScript(name: 'cursors' | 'system-catalog', port: number, user: string, password: string): Promise<{ stdout: string; stderr: string }> {
  const script = join(TESTDATA, `${name}.sql`);
  return new Promise((resolve) => {
    execFile(join(BIN, 'psql'), ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', DATABASE, '-f', script], {
      env: { ...process.env, PGPASSWORD: password, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
      timeout: 120_000,
    }, (_err, stdout, stderr) => resolve({ stdout, stderr: stderr.split(`psql:${script}:`).join(`psql:${name}.sql:`) }));
  });
}

/** What PostgreSQL 15 prints for testdata/NAME.sql (connected as pesto to a database pesto it owns). */
export function scriptOutput(name: 'cursors' | 'system-catalog'): { stdout: string; stderr: string } {
  const err = join(TESTDATA, `${name}.err`);
  return { stdout: readFileSync(join(TESTDATA, `${name}.out`), 'utf8'), stderr: existsSync(err) ? readFileSync(err, 'utf8') : '' };
}

/** Debian's interpreter: the python3-psycopg packages install into its dist-packages. */
const PYTHON = '/usr/bin/python3';

function missingModule(module: string): string | false {
  try {
    execFileSync(PYTHON, ['-c', `import ${module}`], { stdio: 'pipe' });
    return false;
  } catch {
    return `${PYTHON} cannot import ${module} (apt-get install python3-psycopg2 python3-psycopg; .ci/run does)`;
  }
}

export const DRIVERS = {
  psycopg2: { script: 'psycopg2_check.py', skip: missingModule('psycopg2') },
  psycopg3: { script: 'psycopg3_check.py', skip: missingModule('psycopg') },
} as const;

/**
 * Runs one driver's checks against a gateway; they create and drop `table`. Resolves with the script's
 * exit code and output ("ok N checks" on success, the first difference otherwise).
 */
export function runDriverChecks(driver: keyof typeof DRIVERS, port: number, user: string, password: string, table: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(PYTHON, [join(import.meta.dirname, 'drivers', DRIVERS[driver].script), String(port), user, password, DATABASE, table], { timeout: 180_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}
