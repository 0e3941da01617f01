/**
 * `npm run bench -- sql [--json] [--runs 3] [--seconds 1]`: single-node SQL engine throughput against a
 * throwaway local PostgreSQL 15 reached through the `pg` driver with named prepared statements. Cases:
 * TPC-C point statements (select, update, insert by primary key, and their 1:1:1 mix) and a
 * 10,000-row range scan with and without a 1%-selective filter. Each case runs `--runs` times for
 * `--seconds` each on both systems; the median is reported with the ratio Pesto / PostgreSQL.
 * Both sides verify their results (row counts) so a broken engine cannot look fast.
 */
import pg from 'pg';
import { Engine, type Session } from '../sql/engine.ts';
import { freePort, startPostgres } from './postgres-server.ts';
import { median, parseFlags, round } from './stats.ts';

const SCHEMA = [
  `CREATE TABLE customer (c_w_id int NOT NULL, c_d_id int NOT NULL, c_id int NOT NULL, c_discount numeric(4,4),
     c_last varchar(16), c_credit char(2), c_balance numeric(12,2), PRIMARY KEY (c_w_id, c_d_id, c_id))`,
  `CREATE TABLE stock (s_w_id int NOT NULL, s_i_id int NOT NULL, s_quantity int, s_ytd int, s_order_cnt int,
     s_dist_01 char(24), PRIMARY KEY (s_w_id, s_i_id))`,
  `CREATE TABLE order_line (ol_w_id int NOT NULL, ol_d_id int NOT NULL, ol_o_id int NOT NULL, ol_number int NOT NULL,
     ol_i_id int, ol_quantity int, ol_amount numeric(6,2), ol_dist_info char(24),
     PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))`,
  `CREATE TABLE scan_t (id int PRIMARY KEY, category int NOT NULL, k int NOT NULL, pad varchar(60))`,
];
const CUSTOMERS = 3000;
const ITEMS = 10000;
const SCAN_ROWS = 10000;

interface Stmt {
  readonly name: string;
  readonly sql: string;
  readonly params: (i: number) => unknown[];
  readonly expectRows: number | null;
}

const pointSelect: Stmt = {
  name: 'sel', sql: 'SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3',
  params: (i) => [1, (i % 10) + 1, (i % 300) + 1], expectRows: 1,
};
const pointUpdate: Stmt = {
  name: 'upd', sql: 'UPDATE stock SET s_quantity = $1, s_ytd = s_ytd + $2, s_order_cnt = s_order_cnt + 1 WHERE s_w_id = $3 AND s_i_id = $4',
  params: (i) => [(i % 90) + 10, 5, 1, (i % ITEMS) + 1], expectRows: 1,
};
/** Insert keys never repeat within one database: one counter per system, never reset. */
const insertSeqs = { pesto: 0, postgres: 0 };
let insertTarget: keyof typeof insertSeqs = 'pesto';
const insert: Stmt = {
  name: 'ins', sql: `INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_quantity, ol_amount, ol_dist_info)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  params: () => {
    const n = insertSeqs[insertTarget]++;
    return [1, (n % 10) + 1, Math.floor(n / 150) + 1, n % 15 + 1 + 15 * (Math.floor(n / 10) % 1000), (n % ITEMS) + 1, 5, '12.34', 'dist-info-xxxxxxxxxxxxx'];
  },
  expectRows: 1,
};
const scan: Stmt = {
  name: 'scan', sql: 'SELECT id, k, pad FROM scan_t WHERE id BETWEEN $1 AND $2', params: () => [1, SCAN_ROWS], expectRows: SCAN_ROWS,
};
const scanFiltered: Stmt = {
  name: 'scanf', sql: 'SELECT id, k, pad FROM scan_t WHERE id BETWEEN $1 AND $2 AND category = $3', params: () => [1, SCAN_ROWS, 7],
  expectRows: SCAN_ROWS / 100,
};

const cases: { name: string; stmts: Stmt[] }[] = [
  { name: 'tpcc-point-select', stmts: [pointSelect] },
  { name: 'tpcc-point-update', stmts: [pointUpdate] },
  { name: 'tpcc-insert', stmts: [insert] },
  { name: 'tpcc-mix', stmts: [pointSelect, pointUpdate, insert] },
  { name: 'scan-10k', stmts: [scan] },
  { name: 'scan-10k-filter-1pct', stmts: [scanFiltered] },
];

function loadSql(): string[] {
  const out: string[] = [];
  const batch = (rows: string[], head: string): void => {
    for (let i = 0; i < rows.length; i += 500) out.push(`${head} VALUES ${rows.slice(i, i + 500).join(',')}`);
  };
  const cust: string[] = [];
  for (let d = 1; d <= 10; d++) for (let c = 1; c <= CUSTOMERS / 10; c++) cust.push(`(1, ${d}, ${c}, 0.${String(c % 5000).padStart(4, '0')}, 'LAST${c}', 'GC', 10.00)`);
  batch(cust, 'INSERT INTO customer');
  const stock: string[] = [];
  for (let i = 1; i <= ITEMS; i++) stock.push(`(1, ${i}, 50, 0, 0, 'dist-01-xxxxxxxxxxxxxxxx')`);
  batch(stock, 'INSERT INTO stock');
  const rows: string[] = [];
  for (let i = 1; i <= SCAN_ROWS; i++) rows.push(`(${i}, ${i % 100}, ${i * 7 % 1000}, 'pad-${'x'.repeat(50)}')`);
  batch(rows, 'INSERT INTO scan_t');
  return out;
}

function check(name: string, got: number, want: number | null): void {
  if (want !== null && got !== want) throw new Error(`${name}: expected ${want} rows, got ${got}`);
}

interface Measured {
  readonly opsPerSec: number;
  /** CPU microseconds per statement (Pesto: this process; PostgreSQL: server processes plus the client). */
  readonly cpuUsPerOp: number;
}

function cpuSecondsSelf(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function runPesto(session: Session, stmts: readonly Stmt[], seconds: number): Measured {
  const cpu0 = cpuSecondsSelf();
  const deadline = performance.now() + seconds * 1000;
  let ops = 0;
  while (performance.now() < deadline) {
    for (let j = 0; j < 50; j++) {
      const s = stmts[ops % stmts.length] as Stmt;
      const r = session.executePrepared(s.name, s.params(ops) as never[]);
      if (!r.ok) throw new Error(`pesto ${s.name}: ${r.error.code} ${r.error.message}`);
      check(s.name, r.rows.length > 0 ? r.rows.length : r.rowCount, s.expectRows);
      ops++;
    }
  }
  return { opsPerSec: ops / seconds, cpuUsPerOp: ((cpuSecondsSelf() - cpu0) * 1e6) / ops };
}

async function runPg(client: pg.Client, stmts: readonly Stmt[], seconds: number, serverCpu: () => number): Promise<Measured> {
  const cpu0 = cpuSecondsSelf() + serverCpu();
  const deadline = performance.now() + seconds * 1000;
  let ops = 0;
  while (performance.now() < deadline) {
    for (let j = 0; j < 20; j++) {
      const s = stmts[ops % stmts.length] as Stmt;
      const r = await client.query({ name: s.name, text: s.sql, values: s.params(ops) });
      check(s.name, r.rows.length > 0 ? r.rows.length : (r.rowCount ?? 0), s.expectRows);
      ops++;
    }
  }
  return { opsPerSec: ops / seconds, cpuUsPerOp: ((cpuSecondsSelf() + serverCpu() - cpu0) * 1e6) / ops };
}

export async function runSqlBench(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const json = flags.has('json');
  const runs = Number(flags.get('runs') ?? 3);
  const seconds = Number(flags.get('seconds') ?? 1);
  const load = loadSql();

  const engine = await Engine.create({ clock: () => Date.now() * 1000 });
  const session = engine.session();
  for (const sql of [...SCHEMA, ...load]) {
    const r = session.execute(sql);
    if (!r.ok) throw new Error(`pesto setup: ${r.error.message} in ${sql.slice(0, 80)}`);
  }
  for (const s of [pointSelect, pointUpdate, insert, scan, scanFiltered]) {
    const r = session.prepare(s.name, s.sql);
    if (!r.ok) throw new Error(`pesto prepare ${s.name}: ${r.error.message}`);
  }

  // fsync off: compare query engines, not the disk (PostgreSQL's commit fsync would dominate otherwise).
  const server = startPostgres(await freePort(), { fsync: 'off', synchronous_commit: 'off' });
  const client = new pg.Client({ host: server.dataDir, port: server.port, user: server.user, database: server.database });
  try {
    await client.connect();
    for (const sql of [...SCHEMA, ...load]) await client.query(sql);
    await client.query('VACUUM ANALYZE');
    if (!json) {
      process.stdout.write(`case                      pesto ops/s   postgres ops/s   ratio   pesto cpu us/op   postgres cpu us/op  (median of ${runs} x ${seconds}s)\n`);
    }
    for (const c of cases) {
      const pesto: Measured[] = [];
      const postgres: Measured[] = [];
      for (let i = 0; i < runs; i++) {
        insertTarget = 'pesto';
        pesto.push(runPesto(session, c.stmts, seconds));
        insertTarget = 'postgres';
        postgres.push(await runPg(client, c.stmts, seconds, () => server.cpuSeconds()));
      }
      const p = median(pesto.map((m) => m.opsPerSec));
      const q = median(postgres.map((m) => m.opsPerSec));
      const pc = median(pesto.map((m) => m.cpuUsPerOp));
      const qc = median(postgres.map((m) => m.cpuUsPerOp));
      const row = {
        case: c.name, pestoOpsPerSec: round(p, 1), postgresOpsPerSec: round(q, 1), ratio: round(p / q, 2),
        pestoCpuUsPerOp: round(pc, 1), postgresCpuUsPerOp: round(qc, 1),
      };
      if (json) process.stdout.write(JSON.stringify(row) + '\n');
      else {
        process.stdout.write(`${c.name.padEnd(24)} ${String(row.pestoOpsPerSec).padStart(12)} ${String(row.postgresOpsPerSec).padStart(16)} ${String(row.ratio).padStart(7)} ${String(row.pestoCpuUsPerOp).padStart(17)} ${String(row.postgresCpuUsPerOp).padStart(20)}\n`);
      }
    }
  } finally {
    await client.end().catch(() => undefined);
    server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  await runSqlBench(process.argv.slice(2));
}
