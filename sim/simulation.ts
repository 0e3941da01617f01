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
import { checkRun } from './checker.ts';
import { CALM_NETWORK, SimNetwork, type NetworkFaults, type NetworkStats } from './network.ts';
import { Prng } from './prng.ts';
import type { ClientBehaviorName } from './client-behavior.ts';
import { SimClient, SIM_CLIENT_TIMEOUTS, type SimClientTimeouts } from './sim-client.ts';
import { REPLICA_BEHAVIORS, replicaNode, SimReplica, type ReplicaBehaviorName, type RestartLog, type SimClusterKeys } from './sim-replica.ts';
import { BankWorkload, type TxnLog } from './workload-bank.ts';

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

export interface SimOptions {
  readonly seed: number;
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

export function runSimulation(o: SimOptions): SimReport {
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
  const replicas: SimReplica[] = [];
  for (let s = 0; s < shardCount; s++) {
    for (let i = 0; i < n; i++) {
      const behavior = REPLICA_BEHAVIORS[faultOf.get(replicaNode(s, i)) ?? 'correct'];
      replicas.push(new SimReplica(net, cluster, s, i, behavior, byzRng.fork(), { clockSkewMaxMicros: 2_000_000, gcWindowMicros: 60_000_000 }));
    }
  }
  const timeouts: SimClientTimeouts = { ...SIM_CLIENT_TIMEOUTS, ...o.timeouts };
  const clientFaults = new Map<number, ClientFault>();
  for (const cf of o.clientFaults ?? []) {
    if (cf.client < 2 || cf.client > (o.clients ?? 4) || !Number.isInteger(cf.every) || cf.every < 1) throw new RangeError(`bad client fault ${JSON.stringify(cf)}`);
    clientFaults.set(cf.client, cf);
  }
  const clients = Array.from({ length: o.clients ?? 4 }, (_, i) => {
    const cf = clientFaults.get(i + 1);
    return new SimClient(net, cluster, i + 1, clientRng.fork(), timeouts, cf === undefined ? null : { behavior: cf.behavior, every: cf.every });
  });
  const accounts = o.accounts ?? 8;
  const initialBalance = o.initialBalance ?? 100;
  const transfers = o.transactions ?? 40;
  const bank = new BankWorkload(net, clients, workRng, {
    accounts,
    initialBalance,
    transfers,
    attemptsMax: o.attemptsMax ?? transfers * 25 + 100,
    amountMax: o.amountMax ?? 30,
    thinkUs: 200,
  });

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

  bank.start();
  const targetReached = net.runUntil(() => bank.finished, deadlineUs) && bank.targetReached;
  let audit: TxnLog | null = null;
  if (targetReached) {
    const auditor = clients[0]!;
    bank.audit(auditor, (log) => {
      audit = log;
    });
    net.runUntil(() => audit !== null, deadlineUs);
  }

  const correct = replicas.filter((r) => r.behavior.name === 'correct');
  const faultyTxns = resolveFaulty(bank.history, clients, correct);
  const violations = checkRun({ history: bank.history, audit, accounts, initialBalance, clients, correctReplicas: correct, targetReached, healAtUs });

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
  for (const t of bank.history) if (t.outcome === 'abort') abortReasons[t.path] = (abortReasons[t.path] ?? 0) + 1;
  const finalAudit = audit as TxnLog | null;
  return {
    seed: o.seed,
    ok: violations.length === 0,
    violations,
    f,
    faults: [...faultOf.entries()]
      .map(([node, b]) => `${node}:${b}`)
      .concat(o.partitionReplica === undefined ? [] : [`partition:${replicaNode(0, o.partitionReplica)}`])
      .concat([...clientFaults.values()].map((cf) => `c${cf.client}:${cf.behavior}/${cf.every}`))
      .concat((o.restarts ?? []).map((rs) => `${replicaNode(rs.shard ?? 0, rs.index)}:restart@${rs.crashAtMs}-${rs.restartAtMs}ms/${rs.log ?? 'intact'}`)),
    committed: bank.history.filter((t) => t.outcome === 'commit').length,
    aborted: bank.history.filter((t) => t.outcome === 'abort').length,
    failed: bank.history.filter((t) => t.outcome === 'failed').length,
    pending: bank.pending().length,
    fastCommits,
    slowCommits,
    recoveries,
    restarted: { count: replicas.reduce((sum, r) => sum + r.restarts, 0), records: restoredRecords },
    faultyTxns,
    clientFaultEvents: sorted(clientFaultEvents),
    auditTotal: finalAudit === null ? null : finalAudit.reads.reduce((s, [, v]) => s + (v === null ? 0 : Number(v.slice(0, v.indexOf(':')))), 0),
    virtualMs: Math.round((net.nowMicros - START_MICROS) / 1000),
    network: { ...net.stats },
    signatures: replicas.reduce((s, r) => s + r.signatures, 0),
    rejectedByReplicas: sorted(rejectedByReplicas),
    rejectedByClients: sorted(rejectedByClients),
    abortReasons: sorted(abortReasons),
    replicaVoteReasons: sorted(replicaVoteReasons),
    trace: violations.length === 0 ? [] : net.trace(),
  };
}

/**
 * A faulty client's transaction has the outcome the correct replicas gave it: committed at any of
 * them, it joins the serial replay (correct clients may have read its writes); else it is left out.
 */
function resolveFaulty(history: readonly TxnLog[], clients: readonly SimClient[], correct: readonly SimReplica[]): SimReport['faultyTxns'] {
  let committed = 0;
  let aborted = 0;
  let undecided = 0;
  for (const t of history) {
    if (t.outcome !== 'unknown') continue;
    const digest = clients.find((c) => c.id === t.client)?.digestByTs.get(formatTs(t.ts));
    const states = digest === undefined ? [] : correct.map((r) => r.core.txnState(digest));
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
  return { committed, aborted, undecided };
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
