/**
 * A range read's result decoded ahead (decision 0052). The client core hands the first full reply's
 * result to the caller while it waits for 3f+1 replicas to agree (QuerySpec.early); decoding it then
 * overlaps the other replicas' work instead of following the last reply. Only the agreed result counts:
 * the early decoding is used when the agreed result is the very same bytes, otherwise the agreed bytes are
 * decoded as before (a Byzantine replica's early reply costs one wasted decoding, never a wrong row).
 */
import { bulkEqual } from '../../protocol/codec-fast-wire.ts';
import { decodeOutcome, type StatementOutcome } from '../../sql/wire-values.ts';

export class EarlyOutcome {
  #bytes: Uint8Array | null = null;
  #outcome: StatementOutcome | null = null;

  /** One replica's result, before agreement: decoded now; bytes that do not decode are dropped. */
  readonly offer = (bytes: Uint8Array): void => {
    try {
      this.#outcome = decodeOutcome(bytes);
      this.#bytes = bytes;
    } catch {
      this.#outcome = null;
      this.#bytes = null;
    }
  };

  /** The outcome of the agreed result bytes: the early decoding when they are the same bytes. */
  outcome(agreed: Uint8Array): StatementOutcome {
    const early = this.#bytes;
    const outcome = this.#outcome;
    this.#bytes = null;
    this.#outcome = null;
    if (early !== null && outcome !== null && bulkEqual(early, agreed)) return outcome;
    return decodeOutcome(agreed);
  }
}
