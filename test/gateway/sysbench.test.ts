/**
 * sysbench 1.0 (Debian) `oltp_read_write` against the gateway over the single-node engine: `prepare`
 * (SERIAL primary key, multi-row INSERTs, CREATE INDEX), a run bounded by an event count (never by
 * time), then `cleanup`. Once with `--db-ps-mode=disable` (simple query protocol, text results) and
 * once with sysbench's default named prepared statements (text parameters, binary results). Two threads,
 * so optimistic concurrency control aborts some transactions: every error the backend returns must be
 * 40001 (sysbench rolls back and retries those), sysbench must exit 0, and its final statistics must
 * show all events done with no reconnects. The table keeps its 1,000 rows (each transaction deletes one
 * row and inserts it back).
 *
 * Skipped, with the reason, when no sysbench binary is installed (.ci/run installs it with apt-get).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import pg from 'pg';
import { Engine } from '../../sql/engine.ts';
import { EngineBackend } from '../../client/gateway/engine-backend.ts';
import { startGateway, type Gateway } from '../../client/gateway/gateway-server.ts';
import type {
  BackendOutcome, BackendResult, BackendSession, BackendStatement, OpenSessionResult, PrepareResult, SqlBackend,
} from '../../client/gateway/sql-backend.ts';
import type { SqlType, SqlValue } from '../../sql/types.ts';
import { DATABASE, PASSWORD, USER } from './gateway-fixture.ts';

function findSysbench(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v sysbench'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const SYSBENCH = findSysbench();
const SKIP = SYSBENCH === null ? 'sysbench is not installed (apt-get install sysbench; .ci/run does it)' : false;

/** Counts the SQLSTATE of every error the backend returns, by code. */
class CountingBackend implements SqlBackend {
  readonly errors = new Map<string, number>();

  constructor(private readonly inner: SqlBackend) {}

  note<T extends { readonly ok: boolean }>(r: T): T {
    if (!r.ok && 'error' in r) {
      const { code } = (r as { error: { code: string } }).error;
      this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
    }
    return r;
  }

  async openSession(user: string, database: string): Promise<OpenSessionResult> {
    const r = await this.inner.openSession(user, database);
    return r.ok ? { ok: true, session: new CountingSession(r.session, this) } : r;
  }
}

class CountingSession implements BackendSession {
  constructor(
    private readonly inner: BackendSession,
    private readonly counter: CountingBackend,
  ) {}

  async execute(sql: string): Promise<BackendResult> {
    return this.counter.note(await this.inner.execute(sql));
  }

  async prepare(sql: string, hints: readonly (SqlType | null)[]): Promise<PrepareResult> {
    return this.counter.note(await this.inner.prepare(sql, hints));
  }

  async run(statement: BackendStatement, params: readonly SqlValue[]): Promise<BackendResult> {
    return this.counter.note(await this.inner.run(statement, params));
  }

  release(statement: BackendStatement): void {
    this.inner.release(statement);
  }

  async begin(): Promise<BackendOutcome> {
    return this.counter.note(await this.inner.begin());
  }

  async commit(): Promise<BackendOutcome> {
    return this.counter.note(await this.inner.commit());
  }

  rollback(): Promise<void> {
    return this.inner.rollback();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

function sysbench(port: number, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const common = [
    'oltp_read_write', '--db-driver=pgsql', '--pgsql-host=127.0.0.1', `--pgsql-port=${port}`, `--pgsql-user=${USER}`,
    `--pgsql-password=${PASSWORD}`, `--pgsql-db=${DATABASE}`, '--tables=1', '--table-size=1000',
  ];
  return new Promise((resolve) => {
    execFile(SYSBENCH ?? 'sysbench', [...common, ...args], { timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

interface SysbenchStats {
  readonly transactions: number;
  readonly tps: number;
  readonly queries: number;
  readonly ignoredErrors: number;
  readonly reconnects: number;
  readonly events: number;
  readonly read: number;
  readonly write: number;
}

/** Parses sysbench 1.0's final report. */
function parseStats(out: string): SysbenchStats {
  const num = (re: RegExp): number => {
    const m = re.exec(out);
    assert.ok(m?.[1] !== undefined, `no ${String(re)} in sysbench output:\n${out}`);
    return Number(m[1]);
  };
  return {
    read: num(/^\s*read:\s+(\d+)/m),
    write: num(/^\s*write:\s+(\d+)/m),
    transactions: num(/^\s*transactions:\s+(\d+)/m),
    tps: num(/^\s*transactions:\s+\d+\s+\(([\d.]+) per sec\.\)/m),
    queries: num(/^\s*queries:\s+(\d+)/m),
    ignoredErrors: num(/^\s*ignored errors:\s+(\d+)/m),
    reconnects: num(/^\s*reconnects:\s+(\d+)/m),
    events: num(/^\s*total number of events:\s+(\d+)/m),
  };
}

async function rowCount(gw: Gateway): Promise<number> {
  const c = new pg.Client({ host: gw.host, port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>('SELECT count(*) AS n FROM sbtest1');
    return Number(r.rows[0]?.n);
  } finally {
    await c.end();
  }
}

const EVENTS = 200;

for (const mode of ['disable', 'auto'] as const) {
  const label = mode === 'disable' ? 'simple queries (--db-ps-mode=disable)' : 'prepared statements with binary results';
  void test(`sysbench oltp_read_write runs ${EVENTS} transactions with ${label}, only retried 40001 errors`, { skip: SKIP }, async (t) => {
    const backend = new CountingBackend(new EngineBackend(await Engine.create({ clock: () => Date.now() * 1000 }), { databases: [DATABASE] }));
    const gw = await startGateway({ port: 0, backend, users: [{ name: USER, password: PASSWORD }] });
    try {
      const prepare = await sysbench(gw.port, ['prepare']);
      assert.equal(prepare.code, 0, prepare.stderr + prepare.stdout);
      assert.match(prepare.stdout, /Inserting 1000 records into 'sbtest1'/);
      assert.deepEqual([...backend.errors], [], 'errors during prepare');
      assert.equal(await rowCount(gw), 1000);

      const run = await sysbench(gw.port, [`--db-ps-mode=${mode}`, `--events=${EVENTS}`, '--time=0', '--threads=2', 'run']);
      assert.equal(run.code, 0, run.stderr + run.stdout);
      const stats = parseStats(run.stdout);
      t.diagnostic(`${label}: ${stats.tps} tps, ${stats.queries} queries, ${stats.ignoredErrors} ignored errors, backend errors ${JSON.stringify([...backend.errors])}`);
      assert.equal(stats.events, EVENTS);
      assert.equal(stats.transactions, EVENTS);
      assert.equal(stats.reconnects, 0);
      // Per transaction: 10 point selects + 4 range selects, 2 updates + 1 delete + 1 insert.
      assert.ok(stats.read >= 14 * EVENTS && stats.write >= 4 * EVENTS, JSON.stringify(stats));
      const other = [...backend.errors].filter(([code]) => code !== '40001');
      assert.deepEqual(other, [], 'errors other than 40001');
      // Each 40001 reached sysbench as one ignored (rolled back and retried) error, and nothing else did.
      assert.equal(stats.ignoredErrors, backend.errors.get('40001') ?? 0, `sysbench ignored ${stats.ignoredErrors} errors, the backend returned ${JSON.stringify([...backend.errors])}`);
      assert.equal(await rowCount(gw), 1000);

      const cleanup = await sysbench(gw.port, ['cleanup']);
      assert.equal(cleanup.code, 0, cleanup.stderr + cleanup.stdout);
      assert.match(cleanup.stdout, /Dropping table 'sbtest1'/);
    } finally {
      await gw.close();
    }
  });
}
