/**
 * Checks of one simulated SQL run (workload-sql.ts; PROTOCOL §1, §4, §9):
 *
 * (a) Byz-serializability with predicates: the committed transactions (and the faulty clients'
 *     transactions the correct replicas committed) are replayed serially in timestamp order over a
 *     plain map of row bytes. Inside each, its operations are replayed in the order it ran them, over
 *     the state its predecessors left plus its own earlier writes (what it shipped as `ownWrites`):
 *     every point read must return exactly the bytes the replay holds for its key, and every range
 *     read must return exactly what an independent evaluator (`REFERENCE`, plain TypeScript over
 *     decoded rows, not the SQL engine) computes for its statement on that state. A phantom (a row
 *     inserted below T into a scanned range and missed), a stale or made-up row, a wrong aggregate or
 *     order, a missed own write: each shows as a result that differs from the replay.
 * (b) conservation: the audit's `count(*), sum(bal)` sees the initial total;
 * (c) agreement, (e) one vote per replica: as for the bank workload (checker.ts);
 * (d) liveness: the workload reached its target once faults healed and the audit committed; and
 *     range reads resolve: with no replica that lies about queries, no range read may give up
 *     (`query-unresolved`) after the faults healed. With lying replicas, the apply fault or client
 *     faults, failures are counted in the report, not judged (the sync path may legitimately run out
 *     of retries while a Byzantine replica or a stalled transaction keeps replies apart).
 */
import { compareTs, formatTs } from '../protocol/timestamp.ts';
import type { Key } from '../protocol/messages.ts';
import type { TableDef } from '../sql/catalog.ts';
import { tablePrefix } from '../sql/row-key.ts';
import type { SqlValue } from '../sql/types.ts';
import { decodeOutcome } from '../sql/wire-values.ts';
import { checkProtocol, collectViolations } from './checker.ts';
import type { SimClient } from './sim-client.ts';
import type { SimReplica } from './sim-replica.ts';
import { auditTotals, decodeAcct, type AcctRow, type SqlQueryName, type SqlTxnLog } from './workload-sql.ts';

export interface SqlCheckInput {
  readonly history: readonly SqlTxnLog[];
  readonly audit: SqlTxnLog | null;
  readonly table: TableDef;
  readonly totalBalance: number;
  readonly clients: readonly SimClient[];
  readonly correctReplicas: readonly SimReplica[];
  readonly targetReached: boolean;
  readonly healAtUs: number;
  /** Range reads that gave up after the heal; judged only when `queryFailuresJudged`. */
  readonly queryFailuresAfterHeal: number;
  readonly queryFailuresJudged: boolean;
  readonly violationsMax?: number;
}

type Cell = string;

/** Independent evaluation of each workload statement over rows sorted by id. */
const REFERENCE: Record<SqlQueryName, (rows: readonly AcctRow[], p: readonly number[]) => SqlValue[][]> = {
  rangeRows: (rows, [lo, hi]) => rows.filter((r) => r.id >= lo! && r.id < hi!).map((r) => [r.id, r.bal, r.tag]),
  rangeAgg: (rows, [lo, hi]) => agg(rows.filter((r) => r.id >= lo! && r.id < hi!)),
  filterAgg: (rows, [min]) => agg(rows.filter((r) => r.bal >= min!)),
  betweenLow: (rows, [lo, hi, below]) =>
    rows
      .filter((r) => r.id >= lo! && r.id <= hi! && r.bal < below!)
      .sort((a, b) => b.bal - a.bal || a.id - b.id)
      .map((r) => [r.id, r.tag]),
  pointQuery: (rows, [id]) => rows.filter((r) => r.id === id).map((r) => [r.bal, r.tag]),
  inList: (rows, ids) => agg(rows.filter((r) => ids.includes(r.id))),
  sweepRecon: (rows, [lo, hi]) => rows.filter((r) => r.id >= lo! && r.id < hi! && r.bal === 0).map((r) => [r.id, r.bal, r.tag]),
  total: (rows) => agg(rows),
};

function agg(rows: readonly AcctRow[]): SqlValue[][] {
  return [[rows.length, rows.length === 0 ? null : rows.reduce((s, r) => s + r.bal, 0)]];
}

const cell = (v: SqlValue): Cell => (v === null ? 'NULL' : String(v));
const show = (rows: readonly (readonly SqlValue[])[]): string => JSON.stringify(rows.map((r) => r.map(cell)));
const hex = (v: Uint8Array | null | undefined): string => (v == null ? 'null' : Buffer.from(v).toString('hex').slice(0, 40));

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}

export function checkSqlRun(input: SqlCheckInput): string[] {
  return collectViolations(input.violationsMax, (add) => {
    checkConservation(input, add);
    checkSerialReplay(input, add);
    checkProtocol(input, add);
    if (input.queryFailuresJudged && input.queryFailuresAfterHeal > 0) {
      add(`liveness: ${input.queryFailuresAfterHeal} range reads gave up after the faults healed, with no replica lying about queries`);
    }
  });
}

function checkConservation(input: SqlCheckInput, add: (s: string) => void): void {
  const a = input.audit;
  if (a === null) return;
  const t = auditTotals(a);
  if (t === null) return add(`conservation: audit ${formatTs(a.ts)} has no total`);
  if (t.sum !== input.totalBalance) add(`conservation: audit ${formatTs(a.ts)} sees total ${t.sum} over ${t.count} rows, want ${input.totalBalance}`);
}

function checkSerialReplay(input: SqlCheckInput, add: (s: string) => void): void {
  const table = input.table;
  const prefix = tablePrefix(table.id);
  const committed = input.history.filter((t) => t.outcome === 'commit' || t.committedAtReplicas === true).sort((x, y) => compareTs(x.ts, y.ts));
  const state = new Map<Key, Uint8Array | null>();
  for (let i = 0; i < committed.length; i++) {
    const t = committed[i]!;
    const who = `${t.kind} ${formatTs(t.ts)} of c${t.client}`;
    if (i > 0 && compareTs(committed[i - 1]!.ts, t.ts) === 0) add(`serializability: two committed transactions at ${formatTs(t.ts)}`);
    const own = new Map<Key, Uint8Array | null>();
    const view = (key: Key): Uint8Array | null => (own.has(key) ? own.get(key)! : state.get(key) ?? null);
    for (const op of t.ops) {
      switch (op.k) {
        case 'read': {
          const want = view(op.key);
          if (!sameBytes(want, op.value)) add(`serializability: ${who} read ${JSON.stringify(op.key)}=${hex(op.value)}, serial replay gives ${hex(want)}`);
          break;
        }
        case 'write':
          own.set(op.key, op.value);
          break;
        case 'query': {
          const rows: AcctRow[] = [];
          const keys = new Set<Key>([...state.keys(), ...own.keys()]);
          for (const k of keys) {
            if (!k.startsWith(prefix)) continue;
            const v = view(k);
            if (v !== null) rows.push(decodeAcct(table, v));
          }
          rows.sort((a, b) => a.id - b.id);
          const want = show(REFERENCE[op.q](rows, op.params));
          let got: string;
          try {
            const o = decodeOutcome(op.result);
            got = o.ok ? show(o.rows) : `error ${o.code} ${o.message}`;
          } catch (e) {
            got = `undecodable result (${e instanceof Error ? e.message : String(e)})`;
          }
          if (got !== want) add(`serializability: ${who} ${op.q}(${op.params.join(', ')}) returned ${got}, serial replay gives ${want}${op.syncRounds > 0 ? ` (after ${op.syncRounds} sync rounds)` : ''}`);
          break;
        }
      }
    }
    for (const [k, v] of own) state.set(k, v);
  }
}
