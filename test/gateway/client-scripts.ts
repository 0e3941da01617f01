// Scripts of real clients run against a gateway by several test files (over the engine, and over a
// cluster in cluster.test.ts): psql with testdata/*.sql, whose expected outputs are PostgreSQL 15's,
// and the drivers psycopg2, psycopg 3 and pgjdbc (Debian's python3-psycopg2, python3-psycopg and
// libpostgresql-jdbc-java, which .ci/run installs) with the checks in drivers/, which compare values and
// pass against PostgreSQL 15 too.

import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE } from './gateway-fixture.ts';

const BIN = '/usr/lib/postgresql/15/bin';
const TESTDATA = join(import.meta.dirname, 'testdata');

/** Runs testdata/NAME.sql with psql against `port`; stdout and stderr (the script's path shortened). */
/** The psql scripts in testdata/, each with PostgreSQL 15's output. */
export type PsqlScript = 'cursors' | 'system-catalog' | 'orm-catalog';

export function psqlScript(name: PsqlScript, port: number, user: string, password: string): Promise<{ stdout: string; stderr: string }> {
  const script = join(TESTDATA, `${name}.sql`);
  return new Promise((resolve) => {
    execFile(join(BIN, 'psql'), ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', DATABASE, '-f', script], {
      env: { ...process.env, PGPASSWORD: password, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
      timeout: 120_000,
    }, (_err, stdout, stderr) => resolve({ stdout, stderr: stderr.split(`psql:${script}:`).join(`psql:${name}.sql:`) }));
  });
}

/** What PostgreSQL 15 prints for testdata/NAME.sql (connected as pesto to a database pesto it owns). */
export function scriptOutput(name: PsqlScript): { stdout: string; stderr: string } {
  const err = join(TESTDATA, `${name}.err`);
  return { stdout: readFileSync(join(TESTDATA, `${name}.out`), 'utf8'), stderr: existsSync(err) ? readFileSync(err, 'utf8') : '' };
}

/** Debian's interpreter: the python3-psycopg packages install into its dist-packages. */
const PYTHON = '/usr/bin/python3';
/** Debian's pgjdbc (libpostgresql-jdbc-java); java comes with the machine's image. */
const PGJDBC_JAR = '/usr/share/java/postgresql.jar';

function missing(command: string, args: readonly string[], what: string): string | false {
  try {
    execFileSync(command, args, { stdio: 'pipe' });
    return false;
  } catch {
    return what;
  }
}

interface Driver {
  readonly skip: string | false;
  /** The command running the driver's checks, given PORT USER PASSWORD DATABASE TABLE. */
  readonly command: (args: readonly string[]) => [string, string[]];
}

const drivers = join(import.meta.dirname, 'drivers');

export const DRIVERS: Readonly<Record<'psycopg2' | 'psycopg3' | 'pgjdbc', Driver>> = {
  psycopg2: {
    skip: missing(PYTHON, ['-c', 'import psycopg2'], `${PYTHON} cannot import psycopg2 (apt-get install python3-psycopg2; .ci/run does)`),
    command: (args) => [PYTHON, [join(drivers, 'psycopg2_check.py'), ...args]],
  },
  psycopg3: {
    skip: missing(PYTHON, ['-c', 'import psycopg'], `${PYTHON} cannot import psycopg (apt-get install python3-psycopg; .ci/run does)`),
    command: (args) => [PYTHON, [join(drivers, 'psycopg3_check.py'), ...args]],
  },
  pgjdbc: {
    skip: missing('java', ['-version'], 'no java') || (existsSync(PGJDBC_JAR) ? false : `no ${PGJDBC_JAR} (apt-get install libpostgresql-jdbc-java; .ci/run does)`),
    // A single source file runs without a separate compile (Java 11 and later).
    command: (args) => ['java', ['-cp', PGJDBC_JAR, join(drivers, 'PgjdbcCheck.java'), ...args]],
  },
};

/**
 * Runs one driver's checks against a gateway; they create and drop `table`. Resolves with the exit code
 * and output ("ok N checks" on success, the first difference otherwise).
 */
export function runDriverChecks(driver: keyof typeof DRIVERS, port: number, user: string, password: string, table: string): Promise<{ code: number; output: string }> {
  const [command, args] = DRIVERS[driver].command([String(port), user, password, DATABASE, table]);
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 180_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}
