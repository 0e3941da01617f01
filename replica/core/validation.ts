/**
 * Validation at prepare (PROTOCOL §5), the replica's half of MVTSO. Pure: it reads the store and the
 * transaction registry and returns a verdict; the caller applies it. Steps implemented here, in the
 * protocol's order: 1 (clock bound, low watermark, read versions below T), 3 (reads vs committed
 * writes: ABORT with proof), 4 (reads vs prepared writes: ABSTAIN), 5 (writes vs committed reads:
 * ABORT with proof; vs prepared reads: ABSTAIN) and 6 (dependencies present). The SQL-specific
 * steps (2 write monotonicity, 7-8 SemanticCC) arrive with queries.
 *
 * Only keys this shard owns are checked (`owns`), while the transaction travels whole.
 */
import type { DigestKey } from '../../protocol/ids.ts';
import type { CommittedTxn, Key, TxnBody } from '../../protocol/messages.ts';
import { tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import { newestBelow, type Store } from './store.ts';

export const ABSTAIN_REASONS = [
  'clock-ahead',
  'too-old',
  'read-version-not-below-ts',
  'read-prepared-conflict',
  'write-prepared-read-conflict',
  'dependency-missing',
  'dependency-aborted',
  'dependency-late',
] as const;
export type AbstainReason = (typeof ABSTAIN_REASONS)[number];

export const ABORT_REASONS = ['read-committed-conflict', 'write-committed-read-conflict'] as const;
export type AbortReason = (typeof ABORT_REASONS)[number];

export type Verdict =
  | { readonly kind: 'ok' }
  /** `prepared`: the undecided prepared transaction that conflicted, when there is one. */
  | { readonly kind: 'abstain'; readonly reason: AbstainReason; readonly prepared?: DigestKey }
  /** A committed transaction (`conflict`) proves this one can never commit. */
  | { readonly kind: 'abort'; readonly reason: AbortReason; readonly conflict: CommittedTxn };

export interface ValidationContext {
  readonly store: Store;
  readonly owns: (key: Key) => boolean;
  readonly shard: number;
  /** State of a dependency's transaction here. */
  readonly txnStatus: (txn: DigestKey) => 'prepared' | 'committed' | 'aborted' | 'unknown';
  readonly nowMicros: number;
  readonly clockSkewMaxMicros: number;
  readonly lowWatermark: Timestamp;
}

const OK: Verdict = { kind: 'ok' };

export function validate(ctx: ValidationContext, body: TxnBody, depKeys: readonly DigestKey[]): Verdict {
  const t = body.ts;
  // Step 1: timestamp bound, and the Basil rule that every read version is below T.
  if (t.micros > ctx.nowMicros + ctx.clockSkewMaxMicros) return { kind: 'abstain', reason: 'clock-ahead' };
  if (tsLess(t, ctx.lowWatermark)) return { kind: 'abstain', reason: 'too-old' };
  const { store, owns } = ctx;
  let abstain: AbstainReason | null = null;
  let blocker: DigestKey | undefined;
  for (const r of body.reads) {
    if (!tsLess(r.version, t)) return { kind: 'abstain', reason: 'read-version-not-below-ts' };
    if (!owns(r.key)) continue;
    const ks = store.get(r.key);
    if (ks === undefined) continue;
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
  for (const w of body.writes) {
    if (!owns(w.key)) continue;
    const ks = store.get(w.key);
    if (ks === undefined) continue;
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
  if (abstain !== null) return blocker === undefined ? { kind: 'abstain', reason: abstain } : { kind: 'abstain', reason: abstain, prepared: blocker };
  // Step 6: dependencies of this shard must be prepared or committed here.
  for (let i = 0; i < body.deps.length; i++) {
    const d = body.deps[i]!;
    if (d.shard !== ctx.shard) continue;
    if (!tsLess(d.ts, t)) return { kind: 'abstain', reason: 'dependency-late' };
    const s = ctx.txnStatus(depKeys[i]!);
    if (s === 'unknown') return { kind: 'abstain', reason: 'dependency-missing' };
    if (s === 'aborted') return { kind: 'abstain', reason: 'dependency-aborted' };
  }
  return OK;
}
