/**
 * One deterministic simulated run (DESIGN §2, §9; STYLE "Tests": TigerBeetle's VOPR): a shard of
 * 5f+1 replica cores (some crashed or Byzantine), closed-loop bank clients, and a seeded network.
 * A safety phase with faults (loss, duplication, reordering spikes, an optional partition of one
 * replica) runs until `healAtMs`; then the network is calm, and the liveness phase must reach the
 * workload's target before `deadlineMs`. A final read-only audit transaction reads every account,
 * and the checker (checker.ts) judges the history.
 *
 * Byzantine or crashing clients (`clientFaults`, client-behavior.ts) run the workload too, every
 * k-th of their transactions misbehaving; the checker judges the correct clients, with the faulty
 * transactions that the correct replicas committed in the serial replay (they may have been read).
 *
 * Determinism: every draw comes from the seed (forked streams per component), time is virtual, and
 * the report holds no wall-clock or process-global values: the same options give the same report,
 * byte for byte (`JSON.stringify`).
 */
import { formatTs } from '../protocol/timestamp.ts';
import { keyPairFromSeed, type KeyPair } from '../protocol/crypto/ed25519.ts';
import { checkRun, type HistoryEntry } from './checker.ts';
import { checkSqlRun } from './checker-sql.ts';
import { CALM_NETWORK, SimNetwork, type NetworkFaults, type NetworkStats } from './network.ts';
import { Prng } from './prng.ts';
import type { ClientBehaviorName } from './client-behavior.ts';
import { SimClient, SIM_CLIENT_TIMEOUTS, type SimClientTimeouts } from './sim-client.ts';
import { REPLICA_BEHAVIORS, replicaNode, SimReplica, type ReplicaBehaviorName, type RestartLog, type SimClusterKeys } from './sim-replica.ts';
import { BankWorkload, type TxnLog } from './workload-bank.ts';
import { auditTotals, SqlWorkload, type SqlTxnLog } from './workload-sql.ts';
import type { ApplyFault } from '../replica/core/range-reads.ts';
import type { Engine } from '../sql/engine.ts';

export interface ReplicaFault {
  readonly shard?: number;
  readonly index: number;
  readonly behavior: ReplicaBehaviorName;
}

/**
 * A replica process that stops at `crashAtMs` (drops every message in and out, its timers stop) and
 * starts again at `restartAtMs` as a new core restored from its log (`log: 'intact'`, the default),
 * or from nothing (`'empty'`: amnesia, a durability bug on purpose, for negative controls).
 */
export interface ReplicaRestart {
  readonly shard?: number;
  readonly index: number;
  readonly crashAtMs: number;
  readonly restartAtMs: number;
  readonly log?: RestartLog;
}

export interface ClientFault {
  /** Client id, from 2 (client 1 runs the setup and the audit). */
  readonly client: number;
  readonly behavior: ClientBehaviorName;
  /** Every `every`-th transaction the client commits misbehaves. */
  readonly every: number;
}

/**
 * The apply fault (range-reads.ts) on one replica: committed writes its range reads never see
 * (`omit`) or see only `delayMs` later. The replica is correct otherwise (it votes correctly).
 */
export interface ApplyFaultSpec {
  readonly shard?: number;
  readonly index: number;
  readonly omit?: boolean;
  readonly delayMs?: number;
}

export type WorkloadName = 'bank' | 'sql';

export interface SimOptions {
  readonly seed: number;
  /** `bank` (point reads and writes of accounts, the default) or `sql` (workload-sql.ts: range reads). */
  readonly workload?: WorkloadName;
  readonly f?: number;
  readonly shards?: number;
  readonly clients?: number;
  readonly accounts?: number;
  /** Committed transfers the workload must reach. */
  readonly transactions?: number;
  readonly initialBalance?: number;
  readonly amountMax?: number;
  readonly lossRate?: number;
  readonly dupRate?: number;
  readonly corruptRate?: number;
  /** Probability of a long delay spike per message (reordering). */
  readonly reorderRate?: number;
  readonly delayMinUs?: number;
  readonly delayJitterUs?: number;
  /** Replicas that are crashed or Byzantine for the whole run (at most f per shard for safety). */
  readonly replicaFaults?: readonly ReplicaFault[];
  /** Replicas that crash and restart (they count as correct: a restart from an intact log must be safe). */
  readonly restarts?: readonly ReplicaRestart[];
  /** Byzantine or crashing clients (at most all but client 1). */
  readonly clientFaults?: readonly ClientFault[];
  /** Cut this replica (shard 0) off from everyone until the faults heal. */
  readonly partitionReplica?: number;
  /** When the network faults and partitions stop. */
  readonly healAtMs?: number;
  /** Virtual time by which the workload and the audit must be done. */
  readonly deadlineMs?: number;
  readonly timeouts?: Partial<SimClientTimeouts>;
  /** Transactions begun before the clients give up (a livelock); default 25 per transfer. */
  readonly attemptsMax?: number;
  /** SQL workload: replicas with the apply fault (at most a third of a shard's replicas). */
  readonly applyFaults?: readonly ApplyFaultSpec[];
  /** SQL workload: clients whose range reads skip the eager round (the paper's stress knob). */
  readonly forceSyncClients?: readonly number[];
  /**
   * SQL workload: clients that pick eager-round replicas at random instead of leaving out those that
   * lately disagreed (ClientCoreOptions.learnQueryTargets), so faulty replicas keep being asked.
   */
  readonly randomTargetClients?: readonly number[];
  /** SQL workload: transactions read after range reads (SqlWorkloadOptions.readsAfterScans); default false. */
  readonly sqlReadsAfterScans?: boolean;
}

export interface SimReport {
  readonly seed: number;
  readonly ok: boolean;
  readonly violations: readonly string[];
  readonly f: number;
  readonly faults: readonly string[];
  readonly committed: number;
  readonly aborted: number;
  readonly failed: number;
  readonly pending: number;
  readonly fastCommits: number;
  readonly slowCommits: number;
  readonly recoveries: number;
  /** Replica restarts done, and the log records they restored from. */
  readonly restarted: { readonly count: number; readonly records: number };
  /** Faulty clients' transactions (made-up ones included) by the outcome the correct replicas gave them. */
  readonly faultyTxns: { readonly committed: number; readonly aborted: number; readonly undecided: number };
  /** Correct clients' transactions still pending at the end that correct replicas committed (a liveness failure of their client). */
  readonly pendingCommittedAtReplicas: number;
  /** What the faulty clients' behaviours did, summed (e.g. `equivocated`). */
  readonly clientFaultEvents: Record<string, number>;
  readonly auditTotal: number | null;
  readonly virtualMs: number;
  readonly network: NetworkStats;
  readonly signatures: number;
  readonly rejectedByReplicas: Record<string, number>;
  readonly rejectedByClients: Record<string, number>;
  readonly abortReasons: Record<string, number>;
  /** Why correct replicas voted ABSTAIN or ABORT, summed. */
  readonly replicaVoteReasons: Record<string, number>;
  /** Range reads by the clients (both workloads report it; the bank workload runs none). */
  readonly queries: { readonly issued: number; readonly eager: number; readonly syncRounds: number; readonly failed: number; readonly failedAfterHeal: number };
  /** Range reads at the replicas: error outcomes, fetches, bad supplies (Byzantine suppliers caught). */
  readonly replicaQueries: { readonly errors: number; readonly fetchesSent: number; readonly fetchSupplies: number; readonly badSupplies: number };
  /** Error outcomes the SQL workload's range reads returned, by SQLSTATE and message. */
  readonly queryErrors: Record<string, number>;
  /** What the Byzantine replicas' query behaviours did, summed. */
  readonly replicaFaultEvents: Record<string, number>;
  /** Last network events, for failing seeds. */
  readonly trace: readonly string[];
}

/** Virtual time starts at a fixed, realistic epoch so timestamps look like the production ones. */
const START_MICROS = 1_767_225_600_000_000;
const TICK_US = 1_000_000;

function merge(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

function sorted(r: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(r).sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}

/**
 * Runs one simulation. The SQL workload needs the engine (`await simEngine()` from sim-engine.ts,
 * once per process: making one is async, a run is not).
 */
export function runSimulation(o: SimOptions, engine?: Engine): SimReport {
  const workload = o.workload ?? 'bank';
  if (workload === 'sql' && engine === undefined) throw new Error('the SQL workload needs an engine: runSimulation(options, await simEngine())');
  const f = o.f ?? 1;
  const n = 5 * f + 1;
  const shardCount = o.shards ?? 1;
  const root = new Prng(o.seed);
  const keyRng = root.fork();
  const netRng = root.fork();
  const workRng = root.fork();
  const byzRng = root.fork();
  const clientRng = root.fork();
  const healAtUs = START_MICROS + (o.healAtMs ?? 1_000) * 1000;
  const deadlineUs = START_MICROS + (o.deadlineMs ?? 30_000) * 1000;

  const faulty: NetworkFaults = {
    ...CALM_NETWORK,
    lossRate: o.lossRate ?? 0,
    dupRate: o.dupRate ?? 0,
    corruptRate: o.corruptRate ?? 0,
    spikeRate: o.reorderRate ?? 0,
    spikeUs: 5_000,
    delayMinUs: o.delayMinUs ?? CALM_NETWORK.delayMinUs,
    delayJitterUs: o.delayJitterUs ?? CALM_NETWORK.delayJitterUs,
  };
  const net = new SimNetwork(netRng, START_MICROS, faulty);
  const keys: KeyPair[][] = [];
  for (let s = 0; s < shardCount; s++) keys.push(Array.from({ length: n }, () => keyPairFromSeed(keyRng.bytes(32))));
  const cluster: SimClusterKeys = { f, shardCount, keys };

  const faultOf = new Map<string, ReplicaBehaviorName>();
  for (const rf of o.replicaFaults ?? []) faultOf.set(replicaNode(rf.shard ?? 0, rf.index), rf.behavior);
  const applyFaultOf = new Map<string, ApplyFault>();
  for (const af of o.applyFaults ?? []) {
    if ((af.omit === true) === (af.delayMs !== undefined)) throw new RangeError(`an apply fault is omit or delayMs: ${JSON.stringify(af)}`);
    applyFaultOf.set(replicaNode(af.shard ?? 0, af.index), af.omit === true ? { kind: 'omit' } : { kind: 'delay', ms: af.delayMs! });
  }
  const replicas: SimReplica[] = [];
  for (let s = 0; s < shardCount; s++) {
    for (let i = 0; i < n; i++) {
      const behavior = REPLICA_BEHAVIORS[faultOf.get(replicaNode(s, i)) ?? 'correct'];
      const applyFault = applyFaultOf.get(replicaNode(s, i));
      replicas.push(
        new SimReplica(net, cluster, s, i, behavior, byzRng.fork(), {
          clockSkewMaxMicros: 2_000_000,
          gcWindowMicros: 60_000_000,
          ...(engine === undefined ? {} : { engine }),
          ...(applyFault === undefined ? {} : { applyFault }),
        }),
      );
    }
  }
  const timeouts: SimClientTimeouts = { ...SIM_CLIENT_TIMEOUTS, ...o.timeouts };
  const clientFaults = new Map<number, ClientFault>();
  for (const cf of o.clientFaults ?? []) {
    if (cf.client < 2 || cf.client > (o.clients ?? 4) || !Number.isInteger(cf.every) || cf.every < 1) throw new RangeError(`bad client fault ${JSON.stringify(cf)}`);
    clientFaults.set(cf.client, cf);
  }
  const forceSync = new Set(o.forceSyncClients ?? []);
  const randomTargets = new Set(o.randomTargetClients ?? []);
  const clients = Array.from({ length: o.clients ?? 4 }, (_, i) => {
    const cf = clientFaults.get(i + 1);
    return new SimClient(net, cluster, i + 1, clientRng.fork(), timeouts, cf === undefined ? null : { behavior: cf.behavior, every: cf.every }, { forceSyncQueries: forceSync.has(i + 1), learnQueryTargets: !randomTargets.has(i + 1) });
  });
  const accounts = o.accounts ?? 8;
  const initialBalance = o.initialBalance ?? 100;
  const transfers = o.transactions ?? 40;
  const attemptsMax = o.attemptsMax ?? transfers * 25 + 100;
  const bank =
    workload === 'bank' ? new BankWorkload(net, clients, workRng, { accounts, initialBalance, transfers, attemptsMax, amountMax: o.amountMax ?? 30, thinkUs: 200 }) : null;
  const sql =
    workload === 'sql'
      ? new SqlWorkload(net, clients, workRng, { rows: accounts, initialBalance, transactions: transfers, attemptsMax, amountMax: o.amountMax ?? 30, thinkUs: 200, readsAfterScans: o.sqlReadsAfterScans === true }, engine!)
      : null;
  const work = (bank ?? sql)!;

  const tick = (): void => {
    for (const r of replicas) r.onTick();
    net.schedule(TICK_US, tick);
  };
  net.schedule(TICK_US, tick);
  if (o.partitionReplica !== undefined) {
    const cut = replicaNode(0, o.partitionReplica);
    const others = [...replicas.map((r) => r.node), ...clients.map((c) => c.node)].filter((x) => x !== cut);
    net.partition([cut], others);
  }
  let restoredRecords = 0;
  for (const rs of o.restarts ?? []) {
    const r = replicas.find((x) => x.node === replicaNode(rs.shard ?? 0, rs.index));
    if (r === undefined || !(rs.crashAtMs >= 0 && rs.restartAtMs > rs.crashAtMs)) throw new RangeError(`bad restart ${JSON.stringify(rs)}`);
    net.schedule(rs.crashAtMs * 1000, () => r.crash());
    net.schedule(rs.restartAtMs * 1000, () => {
      r.restart(rs.log ?? 'intact');
      restoredRecords += r.log.length;
    });
  }
  net.schedule(healAtUs - START_MICROS, () => {
    net.faults = { ...CALM_NETWORK, delayMinUs: faulty.delayMinUs, delayJitterUs: faulty.delayJitterUs };
    net.healPartitions();
  });

  work.start();
  const targetReached = net.runUntil(() => work.finished, deadlineUs) && work.targetReached;
  let audit: TxnLog | null = null;
  let sqlAudit: SqlTxnLog | null = null;
  if (targetReached) {
    const auditor = clients[0]!;
    if (bank !== null) bank.audit(auditor, (log) => (audit = log));
    else sql!.audit(auditor, (log) => (sqlAudit = log));
    net.runUntil(() => audit !== null || sqlAudit !== null, deadlineUs);
  }

  const correct = replicas.filter((r) => r.behavior.name === 'correct');
  const history: readonly (HistoryEntry & { outcome: string; path: string })[] = work.history;
  const { pendingCommitted, ...faultyTxns } = resolveFaulty(work.history, clients, correct);
  const querySyncKinds = new Set(['query-unresolved']);
  const failedAfterHeal = sql === null ? 0 : sql.history.filter((t) => t.outcome === 'failed' && querySyncKinds.has(t.path) && t.startedUs >= healAtUs).length;
  const queriesLie = [...faultOf.values()].some((b) => b.startsWith('query-') || b.startsWith('fetch-'));
  const violations =
    sql !== null
      ? checkSqlRun({
          history: sql.history,
          audit: sqlAudit,
          table: sql.table,
          totalBalance: accounts * initialBalance,
          clients,
          correctReplicas: correct,
          targetReached,
          healAtUs,
          queryFailuresAfterHeal: failedAfterHeal,
          queryFailuresJudged: !queriesLie,
        })
      : checkRun({ history: bank!.history, audit, accounts, initialBalance, clients, correctReplicas: correct, targetReached, healAtUs });

  const rejectedByReplicas: Record<string, number> = {};
  for (const r of replicas) merge(rejectedByReplicas, r.rejected);
  const rejectedByClients: Record<string, number> = {};
  const abortReasons: Record<string, number> = {};
  for (const c of clients) merge(rejectedByClients, { ...c.rejected, ...c.core.stats.badReplies });
  const clientFaultEvents: Record<string, number> = {};
  for (const c of clients) merge(clientFaultEvents, c.faultEvents);
  let fastCommits = 0;
  let slowCommits = 0;
  let recoveries = 0;
  for (const c of clients) {
    fastCommits += c.core.stats.fastCommits;
    slowCommits += c.core.stats.slowCommits;
    recoveries += c.core.stats.recoveries;
  }
  const replicaVoteReasons: Record<string, number> = {};
  for (const r of correct) {
    merge(replicaVoteReasons, r.core.stats.abstainReasons as Record<string, number>);
    merge(replicaVoteReasons, r.core.stats.abortReasons as Record<string, number>);
  }
  for (const t of history) if (t.outcome === 'abort') abortReasons[t.path] = (abortReasons[t.path] ?? 0) + 1;
  const finalAudit = audit as TxnLog | null;
  const finalSqlAudit = sqlAudit as SqlTxnLog | null;
  const queries = { issued: 0, eager: 0, syncRounds: 0, failed: 0, failedAfterHeal };
  for (const c of clients) {
    queries.issued += c.core.stats.queries;
    queries.eager += c.core.stats.queriesEager;
    queries.syncRounds += c.core.stats.querySyncRounds;
    queries.failed += c.core.stats.queriesFailed;
  }
  const replicaQueries = { errors: 0, fetchesSent: 0, fetchSupplies: 0, badSupplies: 0 };
  for (const r of correct) {
    replicaQueries.errors += r.core.stats.queryErrors;
    replicaQueries.fetchesSent += r.core.stats.fetchesSent;
    replicaQueries.fetchSupplies += r.core.stats.fetchSupplies;
    replicaQueries.badSupplies += r.core.stats.badSupplies;
  }
  const replicaFaultEvents: Record<string, number> = {};
  for (const r of replicas) merge(replicaFaultEvents, r.behaviorEvents);
  return {
    seed: o.seed,
    ok: violations.length === 0,
    violations,
    f,
    faults: [...faultOf.entries()]
      .map(([node, b]) => `${node}:${b}`)
      .concat(o.partitionReplica === undefined ? [] : [`partition:${replicaNode(0, o.partitionReplica)}`])
      .concat([...clientFaults.values()].map((cf) => `c${cf.client}:${cf.behavior}/${cf.every}`))
      .concat((o.restarts ?? []).map((rs) => `${replicaNode(rs.shard ?? 0, rs.index)}:restart@${rs.crashAtMs}-${rs.restartAtMs}ms/${rs.log ?? 'intact'}`))
      .concat([...applyFaultOf.entries()].map(([node, af]) => `${node}:apply-${af.kind === 'omit' ? 'omit' : `delay${af.ms}ms`}`))
      .concat([...forceSync].map((c) => `c${c}:force-sync`))
      .concat([...randomTargets].map((c) => `c${c}:random-targets`)),
    committed: history.filter((t) => t.outcome === 'commit').length,
    aborted: history.filter((t) => t.outcome === 'abort').length,
    failed: history.filter((t) => t.outcome === 'failed').length,
    pending: work.pending().length,
    fastCommits,
    slowCommits,
    recoveries,
    restarted: { count: replicas.reduce((sum, r) => sum + r.restarts, 0), records: restoredRecords },
    faultyTxns,
    pendingCommittedAtReplicas: pendingCommitted,
    clientFaultEvents: sorted(clientFaultEvents),
    auditTotal:
      finalAudit !== null
        ? finalAudit.reads.reduce((s, [, v]) => s + (v === null ? 0 : Number(v.slice(0, v.indexOf(':')))), 0)
        : finalSqlAudit !== null
          ? (auditTotals(finalSqlAudit)?.sum ?? null)
          : null,
    virtualMs: Math.round((net.nowMicros - START_MICROS) / 1000),
    network: { ...net.stats },
    signatures: replicas.reduce((s, r) => s + r.signatures, 0),
    rejectedByReplicas: sorted(rejectedByReplicas),
    rejectedByClients: sorted(rejectedByClients),
    abortReasons: sorted(abortReasons),
    replicaVoteReasons: sorted(replicaVoteReasons),
    queries,
    replicaQueries,
    queryErrors: sorted(sql?.queryErrors ?? {}),
    replicaFaultEvents: sorted(replicaFaultEvents),
    trace: violations.length === 0 ? [] : net.trace(),
  };
}

/**
 * A faulty client's transaction has the outcome the correct replicas gave it: committed at any of
 * them, it joins the serial replay (correct clients may have read its writes); else it is left out.
 * A correct client's transaction still pending at the end (its client never heard the outcome) joins
 * the replay too when correct replicas committed it (`committedAtReplicas`; liveness still sees it
 * pending).
 */
function resolveFaulty(
  history: readonly { readonly client: number; readonly ts: TxnLog['ts']; outcome: string; committedAtReplicas?: boolean }[],
  clients: readonly SimClient[],
  correct: readonly SimReplica[],
): SimReport['faultyTxns'] & { readonly pendingCommitted: number } {
  let committed = 0;
  let aborted = 0;
  let undecided = 0;
  let pendingCommitted = 0;
  const stateOf = (t: { readonly client: number; readonly ts: TxnLog['ts'] }): string[] => {
    const digest = clients.find((c) => c.id === t.client)?.digestByTs.get(formatTs(t.ts));
    return digest === undefined ? [] : correct.map((r) => r.core.txnState(digest));
  };
  for (const t of history) {
    if (t.outcome === 'pending' && stateOf(t).includes('committed')) {
      t.committedAtReplicas = true;
      pendingCommitted++;
    }
    if (t.outcome !== 'unknown') continue;
    const states = stateOf(t);
    if (states.includes('committed')) {
      t.outcome = 'commit';
      committed++;
    } else if (states.includes('aborted')) {
      t.outcome = 'abort';
      aborted++;
    } else {
      undecided++;
    }
  }
  return { committed, aborted, undecided, pendingCommitted };
}

/** A failing report as text: the seed first, so it can be replayed. */
export function formatFailure(r: SimReport, options: SimOptions): string {
  return [
    `simulation failed: seed ${r.seed} (replay: runSimulation(${JSON.stringify(options)}))`,
    ...r.violations.map((v) => `  ${v}`),
    '  last events:',
    ...r.trace.map((t) => `    ${t}`),
  ].join('\n');
}
