/**
 * A throwaway local PostgreSQL 15 for baselines (benchmarks compare against it in the same session):
 * initdb into a temporary folder, a private port and unix socket, SERIALIZABLE by default like the
 * paper's setup, stopped and removed afterwards. Runs the server as the `postgres` user when we are
 * root (PostgreSQL refuses to run as root).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface PostgresServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  readonly dataDir: string;
  /** Total CPU seconds (user + system) of every process of this server, for CPU-per-transaction figures. */
  cpuSeconds(): number;
  stop(): void;
}

function asPostgres(args: string[]): void {
  const root = process.getuid?.() === 0;
  const [cmd, ...rest] = root ? ['runuser', '-u', 'postgres', '--', ...args] : args;
  const r = spawnSync(cmd!, rest, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr || r.stdout}`);
}

export function startPostgres(port: number, settings: Readonly<Record<string, string>> = {}): PostgresServer {
  const dir = mkdtempSync(join(tmpdir(), 'pesto-pg-'));
  const root = process.getuid?.() === 0;
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  asPostgres([join(PG_BIN, 'initdb'), '-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const conf = {
    port: String(port),
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${dir}'`,
    default_transaction_isolation: "'serializable'",
    shared_buffers: "'256MB'",
    max_connections: '300',
    ...settings,
  };
  appendFileSync(join(data, 'postgresql.conf'), Object.entries(conf).map(([k, v]) => `${k} = ${v}\n`).join(''));
  writeFileSync(join(dir, 'touch'), '');
  asPostgres([join(PG_BIN, 'pg_ctl'), '-D', data, '-l', join(dir, 'server.log'), '-w', 'start']);
  const postmasterPid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    dataDir: dir,
    cpuSeconds: () => treeCpuSeconds(postmasterPid),
    stop: () => {
      try {
        asPostgres([join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const TICKS_PER_SECOND = 100;

/** Fields of /proc/<pid>/stat from field 3 (state) on: [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime; null if gone. */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime + stime of one process, in seconds (0 if it is gone). */
export function processCpuSeconds(pid: number): number {
  const f = statFields(pid);
  return f === null ? 0 : (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
}

/**
 * CPU seconds of `pid` and its live children (PostgreSQL backends are children of the postmaster);
 * with `reaped`, also of the children it has already reaped (cutime + cstime: pgbench's backends exit
 * when pgbench does, before the run's CPU is read).
 */
export function treeCpuSeconds(pid: number, reaped = false): number {
  const own = statFields(pid);
  if (own === null) return 0;
  let ticks = Number(own[11]) + Number(own[12]) + (reaped ? Number(own[13]) + Number(own[14]) : 0);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (f !== null && Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

/** CPU seconds of a server's postmaster, its live backends and the backends it has reaped. */
export function postgresCpuSeconds(server: PostgresServer): number {
  const pid = Number(readFileSync(join(server.dataDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return treeCpuSeconds(pid, true);
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a !== null ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}
