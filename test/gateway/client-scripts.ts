// Scripts of real clients run against a gateway by several test files (over the engine, and over a
// cluster in cluster.test.ts): psql with testdata/*.sql, whose expected outputs are PostgreSQL 15's,
// and the drivers psycopg2, psycopg 3 and pgjdbc (Debian's python3-psycopg2, python3-psycopg and
// libpostgresql-jdbc-java, which .ci/run installs) with the checks in drivers/, which compare values and
// pass against PostgreSQL 15 too; SQLAlchemy's schema creation, ORM session and reflection
// (drivers/sqlalchemy_check.py, python3-sqlalchemy), whose output is compared with PostgreSQL 15's.

import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE, PASSWORD } from './gateway-fixture.ts';

const BIN = '/usr/lib/postgresql/15/bin';
/** The psql scripts in testdata/, each with PostgreSQL 15's output. */
export type ScriptName = 'index-describe' | 'drop-cascade' | 'cursors' | 'system-catalog' | 'prepare' | 'copy-binary' | 'orm-catalog' | 'views' | 'constraints-catalog' | 'create-table-as' | 'matviews' | 'generated-columns' | 'create-table-like' | 'enum-psql';
const TESTDATA = join(import.meta.dirname, 'testdata');

/** Runs testdata/NAME.sql with psql against `port`; stdout and stderr (the script's path shortened). */
export function psqlScript(name: ScriptName, port: number, user: string, password: string): Promise<{ stdout: string; stderr: string }> {
  const script = join(TESTDATA, `${name}.sql`);
  return new Promise((resolve) => {
    execFile(join(BIN, 'psql'), ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', DATABASE, '-f', script], {
      env: { ...process.env, PGPASSWORD: password, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
      timeout: 120_000,
    }, (_err, stdout, stderr) => resolve({ stdout, stderr: stderr.split(`psql:${script}:`).join(`psql:${name}.sql:`) }));
  });
}

/** What PostgreSQL 15 prints for testdata/NAME.sql (connected as pesto to a database pesto it owns). */
export function scriptOutput(name: ScriptName): { stdout: string; stderr: string } {
  const err = join(TESTDATA, `${name}.err`);
  return { stdout: readFileSync(join(TESTDATA, `${name}.out`), 'utf8'), stderr: existsSync(err) ? readFileSync(err, 'utf8') : '' };
}

/** Binary COPY data: the header, rows of fields (a Buffer, or null for NULL), and the end marker unless `marker` is false. */
function binaryCopy(rows: readonly (readonly (Buffer | null)[])[], opts: { flags?: number; extension?: Buffer; marker?: boolean } = {}): Buffer {
  const int16 = (v: number): Buffer => Buffer.from([(v >> 8) & 0xff, v & 0xff]);
  const int32 = (v: number): Buffer => { const b = Buffer.alloc(4); b.writeInt32BE(v); return b; };
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), int32(opts.flags ?? 0), int32(opts.extension?.length ?? 0), opts.extension ?? Buffer.alloc(0)];
  for (const row of rows) {
    parts.push(int16(row.length));
    for (const f of row) parts.push(...(f === null ? [int32(-1)] : [int32(f.length), f]));
  }
  if (opts.marker !== false) parts.push(int16(-1));
  return Buffer.concat(parts);
}

/** The malformed binary COPY files testdata/copy-binary.sql loads (nine columns of NULL after an int4 id). */
function badCopyFiles(): Record<string, Buffer> {
  const id = (n: number): Buffer => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; };
  const row = (n: number): (Buffer | null)[] => [id(n), ...Array<null>(14).fill(null)];
  const good = binaryCopy([row(8)]);
  return {
    'bad-sig.bin': Buffer.concat([Buffer.from('PGCOPZ'), good.subarray(6)]),
    'bad-count.bin': binaryCopy([[id(7), null]]),
    'truncated.bin': binaryCopy([row(8)], { marker: false }).subarray(0, -3),
    'after-eof.bin': Buffer.concat([binaryCopy([row(9)]), Buffer.from('xx')]),
    'oids.bin': binaryCopy([], { flags: 1 << 16 }),
    'crit.bin': binaryCopy([], { flags: 1 << 17 }),
    'ext.bin': binaryCopy([row(11)], { extension: Buffer.from('abcd') }),
    'nomarker.bin': binaryCopy([row(12)], { marker: false }),
    'short.bin': Buffer.from('PGCO'),
    'badsize.bin': Buffer.concat([binaryCopy([], { marker: false }), Buffer.from([0, 15, 0xff, 0xff, 0xff, 0xfb])]),
  };
}

/**
 * Runs testdata/copy-binary.sql with psql in a folder holding testdata/copy-binary.bin (PostgreSQL 15's
 * binary COPY of a row of every type) and the malformed files above: psql's output and errors and the
 * bytes the script's `\copy ... to 'out.bin' (format binary)` wrote.
 */
export async function binaryCopySession(port: number, user: string, password: string): Promise<{ stdout: string; stderr: string; out: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'pesto-copy-binary-'));
  try {
    copyFileSync(join(TESTDATA, 'copy-binary.bin'), join(dir, 'copy-binary.bin'));
    for (const [name, data] of Object.entries(badCopyFiles())) writeFileSync(join(dir, name), data);
    const script = join(TESTDATA, 'copy-binary.sql');
    const r = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      execFile(join(BIN, 'psql'), ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', DATABASE, '-f', script], {
        cwd: dir,
        env: { ...process.env, PGPASSWORD: password, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
        timeout: 120_000,
      }, (_err, stdout, stderr) => resolve({ stdout, stderr: stderr.split(`psql:${script}:`).join('psql:copy-binary.sql:') }));
    });
    const out = existsSync(join(dir, 'out.bin')) ? readFileSync(join(dir, 'out.bin')) : Buffer.alloc(0);
    return { ...r, out };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Debian's interpreter: the python3-psycopg packages install into its dist-packages. */
export const PYTHON = '/usr/bin/python3';

/**
 * Runs a client program (psql, python, java) with libpq's environment for the test gateways and
 * `input` on its stdin; its exit code and output.
 */
export function runClient(file: string, args: readonly string[], input?: string, timeout = 60_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, {
      env: { ...process.env, PGPASSWORD: PASSWORD, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
      timeout,
    }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}
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
  return runClient(command, args, undefined, 180_000).then((r) => ({ code: r.code, output: `${r.stdout}${r.stderr}` }));
}

/** Debian's Django 3.2 (python3-django, with python3-psycopg2), which .ci/run installs. */
export const DJANGO_SKIP = missing(PYTHON, ['-c', 'import django, psycopg2; assert django.VERSION[:2] == (3, 2)'],
  `${PYTHON} cannot import Django 3.2 and psycopg2 (apt-get install python3-django python3-psycopg2; .ci/run does)`);

/**
 * Runs the Django project in django/ (check.py: migrate twice, makemigrations --check, the ORM, inspectdb)
 * against the gateway on `port`, on a database with no tables yet; its exit code, output, and inspectdb's
 * output.
 */
export async function runDjangoCheck(port: number, user: string, password: string): Promise<{ code: number; output: string; inspectdb: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pesto-django-'));
  try {
    const out = join(dir, 'inspectdb.py');
    const r = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(PYTHON, [join(import.meta.dirname, 'django', 'check.py'), out], {
        cwd: join(import.meta.dirname, 'django'),
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', DJANGO_DB_HOST: '127.0.0.1', DJANGO_DB_PORT: String(port), DJANGO_DB_NAME: DATABASE, DJANGO_DB_USER: user, DJANGO_DB_PASSWORD: password },
        timeout: 300_000,
      }, (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, output: `${stdout}${stderr}` }));
    });
    return { ...r, inspectdb: existsSync(out) ? readFileSync(out, 'utf8') : '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** SQLAlchemy 1.4 over psycopg2 (Debian's python3-sqlalchemy, which .ci/run installs). */
export const SQLALCHEMY_SKIP = missing(PYTHON, ['-c', 'import sqlalchemy, psycopg2'], `${PYTHON} cannot import sqlalchemy (apt-get install python3-sqlalchemy; .ci/run does)`);

/**
 * Runs drivers/sqlalchemy_check.py against a gateway (tables named PREFIX_parent, PREFIX_child, ...):
 * its exit code, the JSON document of what it reflected (stdout) and its errors.
 */
/** drivers/enum_check.py (psycopg2, psycopg 3, SQLAlchemy over enum types) against `port`: its exit code and output. */
export function runEnumCheck(port: number, user: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return runClient(PYTHON, [join(drivers, 'enum_check.py'), String(port), user, PASSWORD, DATABASE], undefined, 300_000);
}

/** A script of drivers/ (FILE PORT USER PASSWORD DB: psycopg2 and psycopg 3 over one kind of value) against `port`: its exit code and output. */
export function runDriverScript(file: string, port: number, user: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return runClient(PYTHON, [join(drivers, file), String(port), user, PASSWORD, DATABASE], undefined, 120_000);
}

export function runSqlalchemyCheck(port: number, user: string, prefix: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return runClient(PYTHON, [join(drivers, 'sqlalchemy_check.py'), String(port), user, PASSWORD, DATABASE, prefix], undefined, 300_000);
}
