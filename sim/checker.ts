/**
 * Safety and liveness checks of one simulated run (DESIGN §9, PROTOCOL §1 and §9):
 * (a) conservation: the final audit transaction sees the initial total;
 * (b) Byz-serializability: replaying every committed transaction serially in timestamp order on a
 *     plain map gives, at each transaction, exactly the values it read;
 * (c) agreement: no transaction is committed at one correct replica (or by its client) and aborted
 *     at another; a transaction's client hears one outcome;
 * (d) liveness: once the faults heal, the workload reaches its target and the audit completes;
 * (e) one vote per transaction per replica, forever (PROTOCOL §9): no correct replica sends two
 *     different ST1 votes for one transaction, across crashes and restarts.
 * Each violation is one line; the simulation prints them with the seed and a trace.
 */
import type { DigestKey } from '../protocol/ids.ts';
import { compareTs, formatTs, type Timestamp } from '../protocol/timestamp.ts';
import type { SimClient } from './sim-client.ts';
import type { SimReplica } from './sim-replica.ts';
import { balanceOf, type TxnLog } from './workload-bank.ts';

/** What the generic checks need of a logged transaction (bank and SQL workloads alike). */
export interface HistoryEntry {
  readonly client: number;
  readonly kind: string;
  readonly ts: Timestamp;
  readonly outcome: string;
  readonly startedUs: number;
}

export interface CheckInput {
  readonly history: readonly TxnLog[];
  readonly audit: TxnLog | null;
  readonly accounts: number;
  readonly initialBalance: number;
  readonly clients: readonly SimClient[];
  /** Replicas that follow the protocol (crashed and Byzantine ones excluded). */
  readonly correctReplicas: readonly SimReplica[];
  readonly targetReached: boolean;
  readonly healAtUs: number;
  readonly violationsMax?: number;
}

export function checkRun(input: CheckInput): string[] {
  return collectViolations(input.violationsMax, (add) => {
    checkConservation(input, add);
    checkSerialReplay(input, add);
    checkProtocol(input, add);
  });
}

/** Runs `checks`, keeping the first `max` (20) violations they report. */
export function collectViolations(max: number | undefined, checks: (add: (s: string) => void) => void): string[] {
  const out: string[] = [];
  const limit = max ?? 20;
  checks((s) => {
    if (out.length < limit) out.push(s);
  });
  return out;
}

/** The checks of every workload: agreement, one vote per replica, liveness. */
export function checkProtocol(
  input: { readonly history: readonly HistoryEntry[]; readonly clients: readonly SimClient[]; readonly correctReplicas: readonly SimReplica[]; readonly targetReached: boolean; readonly audit: unknown; readonly healAtUs: number },
  add: (s: string) => void,
): void {
  checkAgreement(input.history, input.clients, input.correctReplicas, add);
  checkOneVote(input.correctReplicas, add);
  checkLiveness(input.history, input.targetReached, input.audit !== null, input.healAtUs, add);
}

function checkConservation(input: CheckInput, add: (s: string) => void): void {
  const a = input.audit;
  if (a === null) return;
  const total = a.reads.reduce((sum, [, v]) => sum + balanceOf(v), 0);
  const want = input.accounts * input.initialBalance;
  if (total !== want) add(`conservation: audit ${formatTs(a.ts)} sees total ${total}, want ${want}`);
}

function checkSerialReplay(input: CheckInput, add: (s: string) => void): void {
  const committed = input.history.filter((t) => t.outcome === 'commit' || t.committedAtReplicas === true).sort((x, y) => compareTs(x.ts, y.ts));
  const state = new Map<string, string>();
  for (let i = 0; i < committed.length; i++) {
    const t = committed[i]!;
    if (i > 0 && compareTs(committed[i - 1]!.ts, t.ts) === 0) add(`serializability: two committed transactions at ${formatTs(t.ts)}`);
    for (const [key, value] of t.reads) {
      const want = state.get(key) ?? null;
      if (want !== value) add(`serializability: ${t.kind} ${formatTs(t.ts)} of c${t.client} read ${key}=${value ?? 'null'}, serial replay gives ${want ?? 'null'}`);
    }
    for (const [key, value] of t.writes) state.set(key, value);
  }
}

/** (e) One vote per transaction per replica, forever. */
export function checkOneVote(correctReplicas: readonly SimReplica[], add: (s: string) => void): void {
  for (const r of correctReplicas) for (const d of r.doubleVotes) add(`one-vote: ${d}`);
}

/** (c) No transaction is both committed and aborted, at replicas or for its client. */
export function checkAgreement(history: readonly HistoryEntry[], clients: readonly SimClient[], correctReplicas: readonly SimReplica[], add: (s: string) => void): void {
  const input = { clients, correctReplicas };
  const clientOutcome = new Map<DigestKey, { outcome: string; ts: string }>();
  for (const t of history) {
    if (t.outcome !== 'commit' && t.outcome !== 'abort') continue;
    const client = input.clients.find((c) => c.id === t.client);
    const digest = client?.digestByTs.get(formatTs(t.ts));
    if (digest === undefined) continue;
    const prior = clientOutcome.get(digest);
    if (prior !== undefined && prior.outcome !== t.outcome) add(`agreement: ${formatTs(t.ts)} reported both ${prior.outcome} and ${t.outcome}`);
    clientOutcome.set(digest, { outcome: t.outcome, ts: formatTs(t.ts) });
  }
  const digests = new Set<DigestKey>();
  for (const c of input.clients) for (const d of c.digestByTs.values()) digests.add(d);
  for (const d of digests) {
    let committedAt: string | null = null;
    let abortedAt: string | null = null;
    for (const r of input.correctReplicas) {
      const s = r.core.txnState(d);
      if (s === 'committed') committedAt ??= r.node;
      if (s === 'aborted') abortedAt ??= r.node;
    }
    const client = clientOutcome.get(d);
    const label = client?.ts ?? d.slice(0, 12);
    if (committedAt !== null && abortedAt !== null) add(`agreement: ${label} committed at ${committedAt}, aborted at ${abortedAt}`);
    if (client?.outcome === 'commit' && abortedAt !== null) add(`agreement: ${label} committed for its client, aborted at ${abortedAt}`);
    if (client?.outcome === 'abort' && committedAt !== null) add(`agreement: ${label} aborted for its client, committed at ${committedAt}`);
  }
}

/** (d) The workload reached its target and the audit committed. */
export function checkLiveness(history: readonly HistoryEntry[], targetReached: boolean, audited: boolean, healAtUs: number, add: (s: string) => void): void {
  if (!targetReached) {
    const stuck = history.filter((t) => t.outcome === 'pending');
    const oldest = stuck.map((t) => `c${t.client} ${t.kind} ${formatTs(t.ts)} since ${t.startedUs}`).slice(0, 4);
    const begun = history.length;
    const committed = history.filter((t) => t.outcome === 'commit').length;
    add(`liveness: the workload did not reach its target after faults healed at ${healAtUs} (${begun} transactions begun, ${committed} committed); pending: ${oldest.join('; ') || 'none'}`);
  } else if (!audited) {
    add('liveness: the audit transaction did not commit');
  }
}
