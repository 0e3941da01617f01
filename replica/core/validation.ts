/**
 * Validation at prepare (PROTOCOL §5), the replica's half of MVTSO and SemanticCC. Pure: it reads the
 * store and the transaction registry and returns a verdict; the caller applies it. Steps, in the
 * protocol's order: 1 (clock bound, low watermark, read versions below T), 2 (write monotonicity:
 * ABSTAIN for a late writer; semantic-cc.ts), 3 (reads vs committed writes: ABORT with proof),
 * 4 (reads vs prepared writes: ABSTAIN), 5 (writes vs committed reads: ABORT with proof; vs prepared
 * reads: ABSTAIN), 6 (dependencies present), 7 and 8 (SemanticCC reader and writer sides: ABSTAIN;
 * semantic-cc.ts). A proven ABORT wins over an ABSTAIN found by an earlier step. An `ok` verdict carries
 * the transaction's decoded predicates and the key states it looked up (store.ts TxnKeyStates) for step 9.
 *
 * Only keys this shard owns are checked (`owns`), while the transaction travels whole.
 */
import type { DigestKey } from '../../protocol/ids.ts';
import { onEveryShard } from '../../protocol/sharding.ts';
import type { CommittedTxn, Key, TxnBody } from '../../protocol/messages.ts';
import { tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import { checkPredicates, checkWrites, isLateWriteSet, resolvePredicates, SEMANTIC_ABSTAIN_REASONS, type ResolvedPredicate, type SemanticContext } from './semantic-cc.ts';
import { isBulkReadSet } from './bulk-reads.ts';
import { newestBelow, type KeyState, type TxnKeyStates } from './store.ts';

export const ABSTAIN_REASONS = [
  'clock-ahead',
  'too-old',
  'read-version-not-below-ts',
  'read-prepared-conflict',
  'write-prepared-read-conflict',
  'dependency-missing',
  'dependency-aborted',
  'dependency-late',
  'system-write-not-on-every-shard',
  ...SEMANTIC_ABSTAIN_REASONS,
] as const;
export type AbstainReason = (typeof ABSTAIN_REASONS)[number];

export const ABORT_REASONS = ['read-committed-conflict', 'write-committed-read-conflict'] as const;
export type AbortReason = (typeof ABORT_REASONS)[number];

export type Verdict =
  /**
   * `predicates`: the transaction's predicates on tables of this shard, decoded (absent when none);
   * `states`: the owned keys' states as validation found them.
   */
  | { readonly kind: 'ok'; readonly predicates?: readonly ResolvedPredicate[]; readonly states: TxnKeyStates }
  /** `prepared`: the undecided prepared transaction that conflicted, when there is one. */
  | { readonly kind: 'abstain'; readonly reason: AbstainReason; readonly prepared?: DigestKey }
  /** A committed transaction (`conflict`) proves this one can never commit. */
  | { readonly kind: 'abort'; readonly reason: AbortReason; readonly conflict: CommittedTxn };

export interface ValidationContext extends SemanticContext {
  readonly owns: (key: Key) => boolean;
  readonly shard: number;
  /** Shards of the cluster: a write of a key every shard stores must list them all. */
  readonly shardCount: number;
  /** State of a dependency's transaction here. */
  readonly txnStatus: (txn: DigestKey) => 'prepared' | 'committed' | 'aborted' | 'unknown';
  readonly nowMicros: number;
  readonly clockSkewMaxMicros: number;
  readonly lowWatermark: Timestamp;
  /** The transaction's own key (its writes are never its own conflicts). */
  readonly self?: DigestKey;
}

/**
 * Step 5 against the readers of large read sets (bulk-reads.ts, decision 0028): what the per-key records
 * would say, a committed reader's proof first, else the first prepared reader. null: no conflict.
 */
function bulkReadVerdict(ctx: ValidationContext, body: TxnBody): Extract<Verdict, { kind: 'abort' }> | { readonly kind: 'abstain'; readonly reason: AbstainReason; readonly prepared: DigestKey } | null {
  const bulk = ctx.store.bulkReads;
  let prepared: DigestKey | null = null;
  for (const w of body.writes) {
    if (!ctx.owns(w.key)) continue;
    const c = bulk.conflict(w.key, body.ts);
    if (c === null) continue;
    if ('committed' in c) return { kind: 'abort', reason: 'write-committed-read-conflict', conflict: c.committed };
    prepared ??= c.prepared;
  }
  return prepared === null ? null : { kind: 'abstain', reason: 'write-prepared-read-conflict', prepared };
}

export function validate(ctx: ValidationContext, body: TxnBody, depKeys: readonly DigestKey[]): Verdict {
  const t = body.ts;
  // Step 1: timestamp bound, and the Basil rule that every read version is below T.
  if (t.micros > ctx.nowMicros + ctx.clockSkewMaxMicros) return { kind: 'abstain', reason: 'clock-ahead' };
  if (tsLess(t, ctx.lowWatermark)) return { kind: 'abstain', reason: 'too-old' };
  // A write of a key every shard stores (the catalog) that left a shard out would split the catalog.
  if (body.shards.length < ctx.shardCount && body.writes.some((w) => onEveryShard(w.key))) return { kind: 'abstain', reason: 'system-write-not-on-every-shard' };
  const { store, owns } = ctx;
  let abstain: AbstainReason | null = null;
  let blocker: DigestKey | undefined;
  // Step 2: write monotonicity (a proven abort below still wins).
  if (isLateWriteSet(ctx, body)) abstain = 'late-writer';
  const reads = body.reads;
  // A large read set is recorded once per transaction (bulk-reads.ts): its keys' states are not kept.
  const readStates = isBulkReadSet(body) ? null : new Array<KeyState | undefined>(reads.length);
  for (let i = 0; i < reads.length; i++) {
    const r = reads[i]!;
    if (!tsLess(r.version, t)) return { kind: 'abstain', reason: 'read-version-not-below-ts' };
    if (!owns(r.key)) continue;
    const ks = store.get(r.key);
    if (ks === undefined) continue;
    if (readStates !== null) readStates[i] = ks;
    // Step 3: a committed write between the version read and T proves a conflict.
    const w = newestBelow(ks.committed, t);
    if (w !== undefined && w.proof !== null && tsLess(r.version, w.ts)) return { kind: 'abort', reason: 'read-committed-conflict', conflict: w.proof };
    // Step 4: a prepared one only suggests it.
    const p = newestBelow(ks.prepared, t);
    if (p !== undefined && tsLess(r.version, p.ts) && abstain === null) {
      abstain = 'read-prepared-conflict';
      blocker = p.txn;
    }
  }
  const writes = body.writes;
  const writeStates = new Array<KeyState | undefined>(writes.length);
  for (let i = 0; i < writes.length; i++) {
    const w = writes[i]!;
    if (!owns(w.key)) continue;
    const ks = store.get(w.key);
    if (ks === undefined) continue;
    writeStates[i] = ks;
    // Step 5: a later reader that read below T would miss this write.
    for (const cr of ks.committedReads) {
      if (cr.proof !== null && tsLess(t, cr.readerTs) && tsLess(cr.version, t)) return { kind: 'abort', reason: 'write-committed-read-conflict', conflict: cr.proof };
    }
    if (abstain === null) {
      for (const pr of ks.preparedReads) {
        if (tsLess(t, pr.readerTs) && tsLess(pr.version, t)) {
          abstain = 'write-prepared-read-conflict';
          blocker = pr.txn;
          break;
        }
      }
    }
  }
  // Step 5 for readers recorded once per transaction (large read sets, bulk-reads.ts).
  const bulk = bulkReadVerdict(ctx, body);
  if (bulk !== null) {
    if (bulk.kind === 'abort') return bulk;
    if (abstain === null) {
      abstain = bulk.reason;
      blocker = bulk.prepared;
    }
  }
  if (abstain !== null) return blocker === undefined ? { kind: 'abstain', reason: abstain } : { kind: 'abstain', reason: abstain, prepared: blocker };
  // Step 6: dependencies of this shard must be prepared or committed here.
  for (let i = 0; i < body.deps.length; i++) {
    const d = body.deps[i]!;
    if (d.shard !== ctx.shard) continue;
    if (!tsLess(d.ts, t)) return { kind: 'abstain', reason: 'dependency-late' };
    const s = ctx.txnStatus(depKeys[i]!);
    // Known here but not prepared (this replica voted against it, or has not validated it): name it, so
    // the client finishes it (PROTOCOL §7); otherwise a dependency whose own client is gone blocks every
    // reader of its writes for ever.
    if (s === 'unknown') return { kind: 'abstain', reason: 'dependency-missing', prepared: depKeys[i]! };
    if (s === 'aborted') return { kind: 'abstain', reason: 'dependency-aborted' };
  }
  // Steps 7 and 8: SemanticCC.
  const resolved = resolvePredicates(ctx, body);
  if (!resolved.ok) return { kind: 'abstain', reason: resolved.reason };
  const self = ctx.self ?? null;
  const conflict = checkPredicates(ctx, body, resolved.preds, self) ?? checkWrites(ctx, body, self);
  if (conflict !== null) return conflict.prepared === undefined ? { kind: 'abstain', reason: conflict.reason } : { kind: 'abstain', reason: conflict.reason, prepared: conflict.prepared };
  const states: TxnKeyStates = { reads: readStates, writes: writeStates };
  return resolved.preds.length === 0 ? { kind: 'ok', states } : { kind: 'ok', predicates: resolved.preds, states };
}
