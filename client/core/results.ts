/** Results the client core hands to its caller, one per operation. */
import type { Outcome } from '../../protocol/messages.ts';
import type { Timestamp } from '../../protocol/timestamp.ts';

export type CommitPath = 'fast' | 'slow' | 'local';

export const ABORT_CAUSES = ['conflict', 'abstained', 'read-failed', 'aborted-by-user', 'dependency-aborted', 'timeout'] as const;
export type AbortCause = (typeof ABORT_CAUSES)[number];

export type OpResult =
  | { readonly kind: 'read'; readonly value: Uint8Array | null; readonly version: Timestamp }
  /** A range read's agreed result (sql/wire-values.ts outcome bytes). */
  | { readonly kind: 'query'; readonly result: Uint8Array; readonly syncRounds: number }
  | { readonly kind: 'commit'; readonly outcome: 'commit'; readonly path: CommitPath }
  | { readonly kind: 'commit'; readonly outcome: 'abort'; readonly path: CommitPath; readonly cause: AbortCause }
  /** `detail`: for 'too-large', what exceeds which limit. */
  | { readonly kind: 'failed'; readonly reason: string; readonly detail?: string };

export type CommitResult = Extract<OpResult, { kind: 'commit' }>;

export function isCommitted(r: OpResult): boolean {
  return r.kind === 'commit' && r.outcome === ('commit' satisfies Outcome);
}
