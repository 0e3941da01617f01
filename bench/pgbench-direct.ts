/**
 * The pgbench benchmark's direct side (bench/pgbench.ts): the TPC-B-like script's statements run on
 * what the gateway serves, called in-process (an engine session, or a cluster `SqlSession`), for the
 * gateway-overhead figure; on the cluster optionally with one loopback round trip per statement to an
 * echo process (the wire control, docs/decisions/0020).
 */
import { transportStats } from '../net/index.ts';
import { cryptoStats } from '../protocol/crypto/crypto-stats.ts';
import type { SqlClient } from '../client/sql/sql-session.ts';
import type { Session } from '../sql/engine.ts';
import type { EchoPeer } from './echo-peer.ts';
import { selfCpuSeconds } from './metered-backend.ts';

/** BEGIN, five statements, END. */
export const STATEMENTS_PER_TX = 7;

/** The script's five statements for the direct-engine loop, with parameters in the order pgbench binds them. */
export const DIRECT: readonly { name: string; sql: string; params: (aid: number, bid: number, tid: number, delta: number) => number[] }[] = [
  { name: 'u_acc', sql: 'UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2', params: (a, _b, _t, d) => [d, a] },
  { name: 's_acc', sql: 'SELECT abalance FROM pgbench_accounts WHERE aid = $1', params: (a) => [a] },
  { name: 'u_tel', sql: 'UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2', params: (_a, _b, t, d) => [d, t] },
  { name: 'u_bra', sql: 'UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', params: (_a, b, _t, d) => [d, b] },
  {
    name: 'i_his', sql: 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)',
    params: (a, b, t, d) => [t, b, a, d],
  },
];

const rand = (lo: number, hi: number): number => lo + Math.floor(Math.random() * (hi - lo + 1));

export interface DirectRun {
  readonly cpuUsPerStatement: number;
  readonly msPerTx: number;
  /** Stream writes to replicas and frames received from them per statement (cluster only, else 0). */
  readonly framesOutPerStatement: number;
  readonly framesInPerStatement: number;
  /** ed25519 verifications this process ran per statement (verified-root cache hits excluded). */
  readonly verificationsPerStatement: number;
}

/**
 * Counts this process's replica stream frames and signature verifications over a run (the cluster's
 * client library is in this process).
 */
export function frameMeter(): (statements: number) => { framesOutPerStatement: number; framesInPerStatement: number; verificationsPerStatement: number } {
  const out0 = transportStats.framesWritten;
  const in0 = transportStats.framesReceived;
  const verifs0 = cryptoStats.verifications;
  const per = (n: number, statements: number): number => (statements === 0 ? 0 : n / statements);
  return (statements) => ({
    framesOutPerStatement: per(transportStats.framesWritten - out0, statements),
    framesInPerStatement: per(transportStats.framesReceived - in0, statements),
    verificationsPerStatement: per(cryptoStats.verifications - verifs0, statements),
  });
}

/** The script run directly on an engine session for `seconds`. */
export function directEngine(session: Session, seconds: number): DirectRun {
  const cpu0 = selfCpuSeconds();
  const frames = frameMeter();
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
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
  return { cpuUsPerStatement: ((selfCpuSeconds() - cpu0) * 1e6) / (txs * STATEMENTS_PER_TX), msPerTx: (performance.now() - t0) / txs, ...frames(txs * STATEMENTS_PER_TX) };
}

/**
 * The script run directly on one `SqlSession` of the gateway's own client for `seconds` (statements
 * prepared once, like pgbench -M prepared); a transaction that fails with 40001 is retried, and only
 * committed transactions count, as pgbench counts them.
 */
export async function directCluster(sql: SqlClient, accounts: number, seconds: number, peer: EchoPeer | null): Promise<DirectRun> {
  const session = sql.session();
  const prepared = [];
  for (const s of DIRECT) {
    const p = await session.prepare(s.sql);
    if (!p.ok) throw new Error(`direct prepare ${s.name}: ${p.error.message}`);
    prepared.push({ ...s, statement: p.statement });
  }
  const cpu0 = selfCpuSeconds();
  const frames = frameMeter();
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  let txs = 0;
  let statements = 0;
  // With a peer: one loopback round trip after each statement, as a client on the wire would cost.
  const statementDone = async (): Promise<void> => {
    statements++;
    if (peer !== null) await peer.roundTrip();
  };
  while (performance.now() < deadline) {
    const aid = rand(1, accounts);
    const tid = rand(1, 10);
    const delta = rand(-5000, 5000);
    await session.begin();
    await statementDone();
    let failed = false;
    for (const s of prepared) {
      const r = await session.run(s.statement, s.params(aid, 1, tid, delta));
      await statementDone();
      if (!r.ok) {
        if (r.error.code !== '40001') throw new Error(`direct ${s.name}: ${r.error.code} ${r.error.message}`);
        failed = true;
        break;
      }
      if ((r.rows.length > 0 ? r.rows.length : r.rowCount) !== 1) throw new Error(`direct ${s.name}: expected one row`);
    }
    if (failed) {
      await session.rollback();
      await statementDone();
      continue;
    }
    const c = await session.commit();
    await statementDone();
    if (c.ok) txs++;
    else if (c.error.code !== '40001') throw new Error(`direct COMMIT: ${c.error.code} ${c.error.message}`);
  }
  await session.close();
  if (txs === 0) throw new Error('direct: no transaction committed');
  // Per statement of a committed transaction, like the gateway figure (pgbench counts committed ones).
  return { cpuUsPerStatement: ((selfCpuSeconds() - cpu0) * 1e6) / (txs * STATEMENTS_PER_TX), msPerTx: (performance.now() - t0) / txs, ...frames(txs * STATEMENTS_PER_TX) };
}

