/**
 * `npm run bench -- pgbench [--seconds 10] [--clients 4] [--json] [--mode simple|extended|prepared]
 * [--runs 3] [--warmup 3] [--overhead-seconds 5]`: one TPC-B-like pgbench custom script against the
 * PostgreSQL wire gateway and against a throwaway local PostgreSQL 15 (issue 5).
 *
 * The gateway serves Pesto's single-node SQL engine in this process (the replicated cluster backend
 * comes with another issue). PostgreSQL runs SERIALIZABLE by default with fsync and synchronous_commit
 * off, since the engine keeps everything in memory. Both are loaded with `pgbench -i -s 1` (through
 * COPY on the gateway), then `pgbench -n -f script.sql -c N -j 1 -T seconds -M mode --max-tries=10`
 * runs `--runs` times on each after an uncounted `--warmup`, interleaved (Pesto, PostgreSQL, Pesto,
 * ...); the medians of tps, latency and failures are reported with the ratio Pesto / PostgreSQL. CPU
 * per transaction counts the server side only (this process for the gateway; the postmaster and its
 * backends for PostgreSQL), never pgbench. Balances are checked afterwards on both so a broken run
 * cannot look fast.
 *
 * Gateway overhead per statement: the script's statements (BEGIN, 5 statements, END, random
 * parameters) run in a loop on `Engine.session()` directly, then the same script through the gateway
 * with `pgbench -M prepared -c 1`; both as CPU microseconds of this process per statement, median of
 * `--runs`. `gatewayOverheadPct` = (gateway - direct) / direct.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type Session } from '../sql/engine.ts';
import { EngineBackend } from '../client/gateway/engine-backend.ts';
import { startGateway } from '../client/gateway/gateway-server.ts';
import { PG_BIN, freePort, startPostgres, type PostgresServer } from './postgres-server.ts';
import { median, parseFlags, round } from './stats.ts';

const MODES = ['simple', 'extended', 'prepared'] as const;
type Mode = (typeof MODES)[number];

const SCRIPT = `\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
`;
/** BEGIN, five statements, END. */
const STATEMENTS_PER_TX = 7;

/** The script's five statements for the direct-engine loop, with parameters in the order pgbench binds them. */
const DIRECT: readonly { name: string; sql: string; params: (aid: number, bid: number, tid: number, delta: number) => number[] }[] = [
  { name: 'u_acc', sql: 'UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2', params: (a, _b, _t, d) => [d, a] },
  { name: 's_acc', sql: 'SELECT abalance FROM pgbench_accounts WHERE aid = $1', params: (a) => [a] },
  { name: 'u_tel', sql: 'UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2', params: (_a, _b, t, d) => [d, t] },
  { name: 'u_bra', sql: 'UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', params: (_a, b, _t, d) => [d, b] },
  {
    name: 'i_his', sql: 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)',
    params: (a, b, t, d) => [t, b, a, d],
  },
];

const USER = 'pesto';
const PASSWORD = 'pesto';
const DATABASE = 'pesto';

interface Target {
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

interface ToolResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function tool(name: string, args: readonly string[], t: Target): Promise<ToolResult> {
  return new Promise((resolve) => {
    execFile(join(PG_BIN, name), ['-h', '127.0.0.1', '-p', String(t.port), '-U', t.user, ...args, t.database], {
      env: { ...process.env, PGPASSWORD: t.password, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 600_000,
    }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

interface PgbenchRun {
  readonly tps: number;
  readonly latencyMs: number;
  readonly transactions: number;
  readonly failed: number;
  readonly retried: number;
  /** Server-side CPU microseconds per processed transaction. */
  readonly cpuUsPerTx: number;
}

function numberAfter(text: string, re: RegExp): number | null {
  const m = re.exec(text);
  return m === null ? null : Number(m[1]);
}

function parsePgbench(r: ToolResult, label: string): Omit<PgbenchRun, 'cpuUsPerTx'> {
  const tps = numberAfter(r.stdout, /^tps = ([\d.]+)/m);
  const latencyMs = numberAfter(r.stdout, /^latency average = ([\d.]+) ms/m);
  const transactions = numberAfter(r.stdout, /^number of transactions actually processed: (\d+)/m);
  if (tps === null || latencyMs === null || transactions === null) {
    throw new Error(`${label}: pgbench exited ${r.code} without a result:\n${r.stdout}\n${r.stderr}`);
  }
  return {
    tps,
    latencyMs,
    transactions,
    failed: numberAfter(r.stdout, /^number of failed transactions: (\d+)/m) ?? 0,
    retried: numberAfter(r.stdout, /^number of transactions retried: (\d+)/m) ?? 0,
  };
}

function selfCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

const TICKS_PER_SECOND = 100;

function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU seconds of the postmaster, its live children, and the children it has already reaped (cutime +
 * cstime): pgbench's backends exit when pgbench does, before the run's CPU is read.
 */
function postgresCpuSeconds(server: PostgresServer): number {
  const pid = Number(readFileSync(join(server.dataDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const own = statFields(pid);
  if (own === null) return 0;
  // Fields from 3 (state): utime 14, stime 15, cutime 16, cstime 17.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (f !== null && Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

async function pgbench(t: Target, script: string, mode: Mode, clients: number, seconds: number, cpu: () => number, label: string): Promise<PgbenchRun> {
  const c0 = cpu();
  const r = await tool('pgbench', ['-n', '-f', script, '-c', String(clients), '-j', '1', '-T', String(seconds), '-M', mode, '--max-tries=10', '-D', 'scale=1'], t);
  const c1 = cpu();
  const p = parsePgbench(r, label);
  return { ...p, cpuUsPerTx: p.transactions === 0 ? 0 : ((c1 - c0) * 1e6) / p.transactions };
}

async function psqlOne(t: Target, sql: string): Promise<string> {
  const r = await tool('psql', ['-X', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], t);
  if (r.code !== 0) throw new Error(`psql ${sql}: ${r.stderr}`);
  return r.stdout.trim();
}

const CONSERVED = `SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(bbalance) FROM pgbench_branches),
  (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(delta) FROM pgbench_history), (SELECT count(*) FROM pgbench_history)`;

async function checkConserved(t: Target, label: string): Promise<number> {
  const out = await psqlOne(t, CONSERVED);
  const [a, b, n] = out.split('|');
  if (a !== 't' || b !== 't') throw new Error(`${label}: balances not conserved (${out})`);
  return Number(n);
}

const rand = (lo: number, hi: number): number => lo + Math.floor(Math.random() * (hi - lo + 1));

/** CPU microseconds per statement of the script run directly on an engine session for `seconds`. */
function directEngine(session: Session, seconds: number): number {
  const cpu0 = selfCpuSeconds();
  const deadline = performance.now() + seconds * 1000;
  let txs = 0;
  while (performance.now() < deadline) {
    for (let j = 0; j < 20; j++) {
      const aid = rand(1, 100000);
      const bid = 1;
      const tid = rand(1, 10);
      const delta = rand(-5000, 5000);
      const b = session.execute('BEGIN');
      if (!b.ok) throw new Error(`direct BEGIN: ${b.error.message}`);
      for (const s of DIRECT) {
        const r = session.executePrepared(s.name, s.params(aid, bid, tid, delta));
        if (!r.ok) throw new Error(`direct ${s.name}: ${r.error.code} ${r.error.message}`);
        if ((r.rows.length > 0 ? r.rows.length : r.rowCount) !== 1) throw new Error(`direct ${s.name}: expected one row`);
      }
      const e = session.execute('END');
      if (!e.ok) throw new Error(`direct END: ${e.error.message}`);
      txs++;
    }
  }
  return ((selfCpuSeconds() - cpu0) * 1e6) / (txs * STATEMENTS_PER_TX);
}

function parseMode(v: string | undefined): Mode {
  const m = MODES.find((x) => x === (v ?? 'simple'));
  if (m === undefined) throw new Error(`--mode must be one of ${MODES.join(', ')}`);
  return m;
}

export async function runPgbenchBench(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const json = flags.has('json');
  const seconds = Number(flags.get('seconds') ?? 10);
  const clients = Number(flags.get('clients') ?? 4);
  const runs = Number(flags.get('runs') ?? 3);
  const overheadSeconds = Number(flags.get('overhead-seconds') ?? 5);
  const warmup = Number(flags.get('warmup') ?? 3);
  const mode = parseMode(flags.get('mode'));
  const log = (s: string): void => {
    if (!json) process.stdout.write(s + '\n');
  };

  const dir = mkdtempSync(join(tmpdir(), 'pesto-pgbench-'));
  const script = join(dir, 'script.sql');
  writeFileSync(script, SCRIPT);

  const engine = await Engine.create({ clock: () => Date.now() * 1000 });
  const gateway = await startGateway({
    port: 0,
    backend: new EngineBackend(engine, { databases: [DATABASE] }),
    users: [{ name: USER, password: PASSWORD }],
  });
  const pesto: Target = { port: gateway.port, user: USER, password: PASSWORD, database: DATABASE };
  const server = startPostgres(await freePort(), { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' });
  const postgres: Target = { port: server.port, user: server.user, password: '', database: server.database };
  const postgresCpu = (): number => postgresCpuSeconds(server);

  try {
    log('pesto: gateway over the single-node SQL engine (the replicated cluster backend comes with another issue)');
    log(`postgres: local PostgreSQL 15, SERIALIZABLE, fsync and synchronous_commit off`);
    for (const [label, t] of [['pesto', pesto], ['postgres', postgres]] as const) {
      const t0 = performance.now();
      const init = await tool('pgbench', ['-i', '-s', '1', '-q'], t);
      if (init.code !== 0) throw new Error(`${label}: pgbench -i failed: ${init.stderr}`);
      log(`${label}: pgbench -i -s 1 in ${round((performance.now() - t0) / 1000, 1)} s`);
    }

    if (warmup > 0) {
      // Not counted: the first seconds of the gateway run at a fraction of its speed (JIT, caches).
      await pgbench(pesto, script, mode, clients, warmup, selfCpuSeconds, 'pesto warmup');
      await pgbench(postgres, script, mode, clients, warmup, postgresCpu, 'postgres warmup');
    }
    log(`pgbench -n -f script.sql -c ${clients} -j 1 -T ${seconds} -M ${mode} --max-tries=10, ${runs} runs each after ${warmup} s warmup, interleaved`);
    const p: PgbenchRun[] = [];
    const q: PgbenchRun[] = [];
    for (let i = 0; i < runs; i++) {
      const a = await pgbench(pesto, script, mode, clients, seconds, selfCpuSeconds, 'pesto');
      p.push(a);
      log(`  run ${i + 1} pesto:    ${a.tps.toFixed(1)} tps, ${a.latencyMs} ms, ${a.failed} failed, ${a.retried} retried, ${a.cpuUsPerTx.toFixed(0)} cpu us/tx`);
      const b = await pgbench(postgres, script, mode, clients, seconds, postgresCpu, 'postgres');
      q.push(b);
      log(`  run ${i + 1} postgres: ${b.tps.toFixed(1)} tps, ${b.latencyMs} ms, ${b.failed} failed, ${b.retried} retried, ${b.cpuUsPerTx.toFixed(0)} cpu us/tx`);
    }
    const pestoHistory = await checkConserved(pesto, 'pesto');
    const postgresHistory = await checkConserved(postgres, 'postgres');

    // Gateway overhead: the same engine (same data), one session called directly vs pgbench -M prepared -c 1.
    const session = engine.session();
    for (const s of DIRECT) {
      const r = session.prepare(s.name, s.sql); // no type hints, like pgbench's Parse
      if (!r.ok) throw new Error(`prepare ${s.name}: ${r.error.message}`);
    }
    log(`gateway overhead: the script on Engine.session() directly vs pgbench -M prepared -c 1 through the gateway, ${overheadSeconds} s each`);
    const direct: number[] = [];
    const viaGateway: number[] = [];
    for (let i = 0; i < runs; i++) {
      direct.push(directEngine(session, overheadSeconds));
      const g = await pgbench(pesto, script, 'prepared', 1, overheadSeconds, selfCpuSeconds, 'pesto overhead');
      viaGateway.push(g.cpuUsPerTx / STATEMENTS_PER_TX);
      log(`  run ${i + 1}: direct ${direct[i]!.toFixed(1)} cpu us/stmt, gateway ${viaGateway[i]!.toFixed(1)} cpu us/stmt (${g.tps.toFixed(0)} tps)`);
    }
    await checkConserved(pesto, 'pesto after overhead runs');

    const med = (xs: readonly PgbenchRun[], k: keyof PgbenchRun): number => median(xs.map((x) => x[k]));
    const directUs = median(direct);
    const gatewayUs = median(viaGateway);
    const result = {
      backend: 'single-node engine (cluster backend: another issue)',
      mode, clients, seconds, runs,
      pestoTps: round(med(p, 'tps'), 1),
      postgresTps: round(med(q, 'tps'), 1),
      ratio: round(med(p, 'tps') / med(q, 'tps'), 2),
      pestoLatencyMs: round(med(p, 'latencyMs'), 3),
      postgresLatencyMs: round(med(q, 'latencyMs'), 3),
      pestoFailures: med(p, 'failed'),
      postgresFailures: med(q, 'failed'),
      pestoRetried: med(p, 'retried'),
      postgresRetried: med(q, 'retried'),
      pestoCpuUsPerTx: round(med(p, 'cpuUsPerTx'), 1),
      postgresCpuUsPerTx: round(med(q, 'cpuUsPerTx'), 1),
      pestoHistoryRows: pestoHistory,
      postgresHistoryRows: postgresHistory,
      directCpuUsPerStatement: round(directUs, 2),
      gatewayCpuUsPerStatement: round(gatewayUs, 2),
      gatewayOverheadPct: round(((gatewayUs - directUs) / directUs) * 100, 1),
    };
    if (json) process.stdout.write(JSON.stringify(result) + '\n');
    else {
      log(`median of ${runs}:      tps   latency ms   failed   retried   server cpu us/tx`);
      log(`pesto      ${String(result.pestoTps).padStart(10)} ${String(result.pestoLatencyMs).padStart(12)} ${String(result.pestoFailures).padStart(8)} ${String(result.pestoRetried).padStart(9)} ${String(result.pestoCpuUsPerTx).padStart(18)}`);
      log(`postgres   ${String(result.postgresTps).padStart(10)} ${String(result.postgresLatencyMs).padStart(12)} ${String(result.postgresFailures).padStart(8)} ${String(result.postgresRetried).padStart(9)} ${String(result.postgresCpuUsPerTx).padStart(18)}`);
      log(`ratio pesto/postgres (tps): ${result.ratio}`);
      log(`gateway overhead: ${result.directCpuUsPerStatement} cpu us/stmt direct, ${result.gatewayCpuUsPerStatement} through the gateway: ${result.gatewayOverheadPct}% (target < 15%)`);
    }
  } finally {
    await gateway.close();
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  await runPgbenchBench(process.argv.slice(2));
}
