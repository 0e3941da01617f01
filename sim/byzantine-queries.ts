/**
 * Byzantine replicas for range reads (PROTOCOL §4.2-4.3; at most f per shard in a run). Like the
 * vote behaviours of sim-replica.ts, each wraps the outgoing side of a correct core: it sees every
 * `queryReply` and `fetchReply` the core wants to send and returns what actually leaves. Votes,
 * decisions and point reads stay honest, so what these test is the query path alone:
 *
 * - `query-wrong-result`: the result bytes describe other rows (a value changed, a row dropped, or
 *   an error outcome), read set and predicates intact;
 * - `query-wrong-reads`: the result is right but the read set is not (a row dropped, or a version
 *   moved), still sorted and below T so it passes the client's structural check;
 * - `query-omit-predicates`: no predicates (the phantom protection of the scan would be lost);
 * - `query-inflate-versions`: every predicate's table version just below T (SemanticCC would then
 *   check no write at all if the client took it);
 * - `query-fake-snapshot`: snapshot votes that also name made-up digests and transactions this
 *   replica knows were aborted (a proposal must never include them: f+1 votes needed);
 * - `query-withhold`: never answers a query (nor a fetch);
 * - `fetch-bad-supplier`: answers fetches with transactions nobody asked for, or with asked ones
 *   carrying forged certificates (a real committed transaction as the "conflict" proving an abort,
 *   another transaction's commit certificate), or not at all; it also names every transaction it
 *   knows in its snapshot votes, so that it is asked;
 * - `query-liar`: per message, one of the above at random (or the truth).
 *
 * Negative controls (more than f of them in a shard defeat any BFT protocol; the checker must then
 * report what they caused): `collude-wrong-result` changes every result the same deterministic way
 * (the first cell of the last row moves by one), so colluders agree with each other;
 * `collude-no-predicates` drops every predicate (nothing protects the scans from phantoms).
 *
 * The lies are deterministic functions of the message and the seeded stream, so runs replay.
 */
import { provesConflict } from '../protocol/certificate.ts';
import { digestKey, type DigestKey, type TxnDigest } from '../protocol/ids.ts';
import { certificateOutcome, type FetchReply, type Message, type QueryReply, type ReadEntry, type Txn, type Writeback } from '../protocol/messages.ts';
import { tsLess, type Timestamp } from '../protocol/timestamp.ts';
import type { SqlValue } from '../sql/types.ts';
import { decodeOutcome, encodeOutcome } from '../sql/wire-values.ts';
import type { NodeId } from './network.ts';
import type { ByzantineTools, ReplicaBehavior } from './sim-replica.ts';

type QueryLie = 'wrong-result' | 'wrong-reads' | 'omit-predicates' | 'inflate-versions' | 'fake-snapshot' | 'withhold';
type FetchLie = 'wrong-txn' | 'forged-decided' | 'withhold';

const QUERY_LIES: readonly QueryLie[] = ['wrong-result', 'wrong-reads', 'omit-predicates', 'inflate-versions', 'fake-snapshot', 'withhold'];
const FETCH_LIES: readonly FetchLie[] = ['wrong-txn', 'forged-decided', 'withhold'];

/** Another value of the same kind (numbers move by one, strings gain a character). */
function other(v: SqlValue): SqlValue {
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'bigint') return v + 1n;
  if (typeof v === 'string') return v + 'x';
  if (typeof v === 'boolean') return !v;
  return v === null ? 0 : null;
}

function wrongResult(r: QueryReply, t: ByzantineTools): QueryReply {
  let bytes: Uint8Array;
  try {
    const o = decodeOutcome(r.result);
    if (!o.ok || o.rows.length === 0 || o.columns.length === 0 || t.prng.chance(0.2)) {
      bytes = encodeOutcome({ ok: false, code: '40001', message: 'made up by a Byzantine replica', detail: undefined });
    } else if (o.rows.length > 1 && t.prng.chance(0.3)) {
      const drop = t.prng.int(o.rows.length);
      bytes = encodeOutcome({ ...o, rows: o.rows.filter((_, i) => i !== drop) });
    } else {
      const ri = t.prng.int(o.rows.length);
      const ci = t.prng.int(o.columns.length);
      const rows = o.rows.map((row, i) => (i === ri ? row.map((v, j) => (j === ci ? other(v) : v)) : row));
      try {
        bytes = encodeOutcome({ ...o, rows });
      } catch {
        bytes = encodeOutcome({ ...o, rows: [] });
      }
    }
  } catch {
    bytes = t.prng.bytes(16);
  }
  return { ...r, result: bytes };
}

function wrongReads(r: QueryReply, t: ByzantineTools, at: Timestamp | undefined): QueryReply {
  if (r.reads.length === 0) return { ...r, reads: [{ key: '\x00\x00\x00\x01\xff', version: { micros: 1, clientId: 1 } }] };
  const i = t.prng.int(r.reads.length);
  if (t.prng.chance(0.5)) return { ...r, reads: r.reads.filter((_, j) => j !== i) };
  const e = r.reads[i]!;
  // Another version, still below T (else the client drops the reply as malformed).
  let version: Timestamp = { micros: Math.max(1, e.version.micros - 1 - t.prng.int(1000)), clientId: e.version.clientId };
  if (at !== undefined && e.version.micros + 1 < at.micros && t.prng.chance(0.5)) version = { micros: e.version.micros + 1, clientId: e.version.clientId };
  const reads: ReadEntry[] = r.reads.map((x, j) => (j === i ? { key: x.key, version } : x));
  return { ...r, reads };
}

function inflateVersions(r: QueryReply, at: Timestamp | undefined): QueryReply {
  if (at === undefined || r.predicates.length === 0) return r;
  const high: Timestamp = { micros: at.micros - 1, clientId: at.clientId };
  return { ...r, predicates: r.predicates.map((p) => (tsLess(p.tableVersion, high) ? { ...p, tableVersion: high } : p)) };
}

/** Made-up digests, and transactions this replica knows were aborted. */
function fakeVotes(t: ByzantineTools): TxnDigest[] {
  const out: TxnDigest[] = [t.prng.bytes(32) as TxnDigest];
  for (const txn of t.recentTxns()) if (t.txnState(txn.key) === 'aborted') out.push(txn.digest);
  return out;
}

function withFakeSnapshot(r: QueryReply, t: ByzantineTools, all: boolean): QueryReply {
  const fake = fakeVotes(t);
  // A fetch-bad-supplier names every transaction it knows, so sync rounds ask it for them.
  if (all) for (const txn of t.recentTxns()) fake.push(txn.digest);
  const uniq = (xs: readonly TxnDigest[]): TxnDigest[] => {
    const seen = new Set<DigestKey>();
    return xs.filter((d) => !seen.has(digestKey(d)) && (seen.add(digestKey(d)), true));
  };
  return { ...r, snapshotCommitted: uniq([...r.snapshotCommitted, ...fake.slice(0, Math.ceil(fake.length / 2))]), snapshotPrepared: uniq([...r.snapshotPrepared, ...fake.slice(Math.ceil(fake.length / 2))]) };
}

function lieQuery(r: QueryReply, lie: QueryLie, to: NodeId, t: ByzantineTools): Message[] {
  t.count(`query-${lie}`);
  const at = t.queryTs(to, r.req);
  switch (lie) {
    case 'wrong-result':
      return [wrongResult(r, t)];
    case 'wrong-reads':
      return [wrongReads(r, t, at)];
    case 'omit-predicates':
      return [{ ...r, predicates: [] }];
    case 'inflate-versions':
      return [inflateVersions(r, at)];
    case 'fake-snapshot':
      return [withFakeSnapshot(r, t, false)];
    case 'withhold':
      return [];
  }
}

/** A committed transaction this replica knows, with its certificate, that "proves" `body` conflicts (else any). */
function conflictFor(txn: Txn, t: ByzantineTools): Writeback | null {
  const committed = t.recentDecided().filter((wb) => wb.txn !== null && wb.cert.kind !== 'conflict' && certificateOutcome(wb.cert) === 'commit' && digestKey(wb.digest) !== txn.key);
  if (committed.length === 0) return null;
  return committed.find((wb) => provesConflict(txn.body, wb.txn!.body)) ?? t.prng.pick(committed);
}

function lieFetch(r: FetchReply, lie: FetchLie, t: ByzantineTools): Message[] {
  t.count(`fetch-${lie}`);
  switch (lie) {
    case 'withhold':
      return [];
    case 'wrong-txn': {
      // Transactions nobody asked for: another one it knows, as prepared or decided.
      const asked = new Set<DigestKey>([...r.decided.map((wb) => digestKey(wb.digest)), ...r.prepared.map((x) => x.key)]);
      const others = t.recentTxns().filter((x) => !asked.has(x.key));
      if (others.length === 0) return [{ ...r, prepared: [], decided: [] }];
      const pick = t.prng.pick(others);
      const decided = t.recentDecided().find((wb) => digestKey(wb.digest) === pick.key);
      return [decided !== undefined && t.prng.chance(0.5) ? { ...r, decided: [...r.decided, decided] } : { ...r, prepared: [...r.prepared, pick] }];
    }
    case 'forged-decided': {
      // Every supply claims a decision it has no honest certificate for.
      const decided: Writeback[] = [];
      for (const txn of [...r.prepared, ...r.decided.map((wb) => wb.txn!)]) {
        const c = conflictFor(txn, t);
        if (c === null) continue;
        const forged: Writeback =
          t.prng.chance(0.5)
            ? { kind: 'writeback', digest: txn.digest, txn, cert: { kind: 'conflict', conflict: { txn: c.txn!, cert: c.cert as Extract<Writeback['cert'], { kind: 'votes' | 'st2' }> } } }
            : { kind: 'writeback', digest: txn.digest, txn, cert: c.cert };
        decided.push(forged);
      }
      return decided.length === 0 ? [r] : [{ ...r, prepared: [], decided }];
    }
  }
}

function queryBehavior(name: string, lies: readonly QueryLie[], fetchLies: readonly FetchLie[], truthRate: number): ReplicaBehavior {
  return {
    name,
    alive: true,
    outgoing(m, to, t) {
      if (m.kind === 'queryReply') {
        if (lies.length === 0) return [withFakeSnapshot(m, t, true)];
        if (t.prng.chance(truthRate)) return [m];
        return lieQuery(m, t.prng.pick(lies), to, t);
      }
      if (m.kind === 'fetchReply' && fetchLies.length > 0) {
        if (t.prng.chance(truthRate)) return [m];
        return lieFetch(m, t.prng.pick(fetchLies), t);
      }
      return [m];
    },
  };
}

/** The same wrong result at every colluder: the first cell of the last row moves by one (or a made-up row). */
function colludedResult(r: QueryReply): QueryReply {
  try {
    const o = decodeOutcome(r.result);
    if (!o.ok || o.columns.length === 0) return r;
    const rows = o.rows.length === 0 ? [o.columns.map(() => null)] : o.rows.map((row, i) => (i === o.rows.length - 1 ? row.map((v, j) => (j === 0 ? other(v) : v)) : row));
    return { ...r, result: encodeOutcome({ ...o, rows }) };
  } catch {
    return r;
  }
}

/** Query behaviours by name (sim-replica.ts REPLICA_BEHAVIORS includes them). */
export const QUERY_BEHAVIORS = {
  'query-wrong-result': queryBehavior('query-wrong-result', ['wrong-result'], [], 0),
  'query-wrong-reads': queryBehavior('query-wrong-reads', ['wrong-reads'], [], 0),
  'query-omit-predicates': queryBehavior('query-omit-predicates', ['omit-predicates'], [], 0),
  'query-inflate-versions': queryBehavior('query-inflate-versions', ['inflate-versions'], [], 0),
  'query-fake-snapshot': queryBehavior('query-fake-snapshot', ['fake-snapshot'], [], 0),
  'query-withhold': queryBehavior('query-withhold', ['withhold'], ['withhold'], 0),
  'fetch-bad-supplier': queryBehavior('fetch-bad-supplier', [], ['wrong-txn', 'forged-decided'], 0),
  'query-liar': queryBehavior('query-liar', QUERY_LIES, FETCH_LIES, 0.2),
  'collude-wrong-result': { name: 'collude-wrong-result', alive: true, outgoing: (m) => [m.kind === 'queryReply' ? colludedResult(m) : m] },
  'collude-no-predicates': { name: 'collude-no-predicates', alive: true, outgoing: (m) => [m.kind === 'queryReply' ? { ...m, predicates: [] } : m] },
} as const satisfies Record<string, ReplicaBehavior>;
