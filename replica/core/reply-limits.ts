/**
 * What one message of the cluster can carry, as replicas check it before they answer (decisions 0009
 * and 0072): a range read's reply holds its result and its read set, and the read set must also fit the
 * reader's transaction; a fetch reply holds as many transactions as fit. Past a limit a range read fails
 * with 54000 the same way at every correct replica, instead of a reply the transport drops or the
 * client's decoder refuses.
 */
import { TXN_ENVELOPE_BYTES, type LimitsConfig } from '../../protocol/limits.ts';
import { readEntryBytesMax } from '../../protocol/codec-fast-txn.ts';
import type { ReadEntry, Txn } from '../../protocol/messages.ts';

/** Room a query reply keeps beside its result and read set: predicates, votes, framing. */
const REPLY_ENVELOPE_BYTES = 64 << 10;

/** Why a range read's reply of `resultBytes` and `reads` must not be sent (message and hint), or null. */
export function replyOverLimits(reads: readonly ReadEntry[], predicates: number, resultBytes: number, limits: Pick<LimitsConfig, 'txnKeysMax' | 'messageBytesMax'>): { message: string; hint: string } | null {
  const { txnKeysMax, messageBytesMax } = limits;
  if (reads.length > txnKeysMax || predicates > txnKeysMax) {
    return { message: `query reads ${reads.length} rows; a transaction reads at most ${txnKeysMax} (limits.txnKeysMax)`, hint: 'Narrow the query (a smaller range or a more selective filter on the primary key).' };
  }
  if (resultBytes > messageBytesMax >> 1) {
    return { message: `query result of ${resultBytes} bytes exceeds half the cluster's message limit (limits.messageBytesMax ${messageBytesMax})`, hint: 'Select fewer rows or columns.' };
  }
  // The reply carries both, its read set entry by entry as a transaction body does.
  let replyBytes = resultBytes + REPLY_ENVELOPE_BYTES;
  for (let i = 0; i < reads.length; i++) replyBytes += readEntryBytesMax(reads[i]!);
  if (replyBytes > messageBytesMax) {
    return { message: `query result and read set of about ${Math.ceil(replyBytes / 1024)} KiB exceed the cluster's message limit (limits.messageBytesMax ${messageBytesMax})`, hint: 'Select fewer rows or columns.' };
  }
  return null;
}

/** The bytes a fetch reply counts for `txn` against one message: its body and what travels beside it (a certificate). */
export function fetchedBytes(txn: Txn): number {
  return txn.bytes.length + TXN_ENVELOPE_BYTES;
}
