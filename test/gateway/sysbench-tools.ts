// Shared pieces of the sysbench gateway tests (sysbench.test.ts over the single-node engine,
// sysbench-cluster.test.ts over a cluster): finding the binary, a backend wrapper that counts the
// SQLSTATE of every error it returns, running sysbench 1.0 `oltp_read_write` against a gateway port, and
// reading its final report.
import type { EnumTypeDef } from '../../sql/enum-types.ts';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import pg from 'pg';
import type {
  BackendOutcome, BackendResult, BackendSession, BackendStatement, OpenSessionResult, PrepareResult, SqlBackend,
} from '../../client/gateway/sql-backend.ts';
import type { TableDef, ViewDef } from '../../sql/catalog.ts';
import type { SequenceDef } from '../../sql/sequences.ts';
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
/** The reason to skip, or false when sysbench is installed. */
export const SKIP: string | false = SYSBENCH === null ? 'sysbench is not installed (apt-get install sysbench; .ci/run does it)' : false;

/** Counts the SQLSTATE of every error the backend returns, by code. */
export class CountingBackend implements SqlBackend {
  readonly errors = new Map<string, number>();

  constructor(private readonly inner: SqlBackend) {}

  note<T extends { readonly ok: boolean }>(r: T): T {
    if (!r.ok && 'error' in r) {
      const { code } = (r as { error: { code: string } }).error;
      this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
    }
    return r;
  }

  loginRole(user: string): ReturnType<SqlBackend['loginRole']> {
    return this.inner.loginRole(user);
  }

  async openSession(user: string, database: string, bootstrap?: readonly string[]): Promise<OpenSessionResult> {
    const r = await this.inner.openSession(user, database, bootstrap);
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

  tables(): Promise<readonly TableDef[]> {
    return this.inner.tables();
  }

  sequences(): Promise<readonly SequenceDef[]> {
    return this.inner.sequences();
  }

  views(): Promise<readonly ViewDef[]> {
    return this.inner.views();
  }

  enums(): Promise<readonly EnumTypeDef[]> {
    return this.inner.enums();
  }

  roles(): ReturnType<BackendSession['roles']> {
    return this.inner.roles();
  }
}

export function sysbench(port: number, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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

export interface SysbenchStats {
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
export function parseStats(out: string): SysbenchStats {
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

export async function rowCount(port: number): Promise<number> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: DATABASE });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>('SELECT count(*) AS n FROM sbtest1');
    return Number(r.rows[0]?.n);
  } finally {
    await c.end();
  }
}

