/**
 * Transaction timestamps: `(micros, clientId)` ordered lexicographically (PROTOCOL §3).
 * Kept as two JS numbers (micros since the epoch stay below 2^53), never BigInt on hot paths.
 * Invariant: `micros` and `clientId` are non-negative safe integers. `ZERO` is "read nothing".
 */
export interface Timestamp {
  readonly micros: number;
  readonly clientId: number;
}

export const ZERO_TS: Timestamp = Object.freeze({ micros: 0, clientId: 0 });

export function ts(micros: number, clientId: number): Timestamp {
  return { micros, clientId };
}

export function isValidTimestamp(t: Timestamp): boolean {
  return Number.isSafeInteger(t.micros) && t.micros >= 0 && Number.isSafeInteger(t.clientId) && t.clientId >= 0;
}

/** Negative if a < b, 0 if equal, positive if a > b. */
export function compareTs(a: Timestamp, b: Timestamp): number {
  return a.micros !== b.micros ? a.micros - b.micros : a.clientId - b.clientId;
}

export function tsEquals(a: Timestamp, b: Timestamp): boolean {
  return a.micros === b.micros && a.clientId === b.clientId;
}

export function tsLess(a: Timestamp, b: Timestamp): boolean {
  return a.micros < b.micros || (a.micros === b.micros && a.clientId < b.clientId);
}

export function isZeroTs(t: Timestamp): boolean {
  return t.micros === 0 && t.clientId === 0;
}

export function maxTs(a: Timestamp, b: Timestamp): Timestamp {
  return tsLess(a, b) ? b : a;
}

export function formatTs(t: Timestamp): string {
  return `${t.micros}.${t.clientId}`;
}

/**
 * Hands out strictly increasing timestamps for one client id, from a clock the caller injects.
 * Several sessions of one client process share it, so their timestamps never collide.
 */
export class TimestampAllocator {
  #last = 0;
  constructor(readonly clientId: number) {}

  next(nowMicros: number): Timestamp {
    const micros = nowMicros > this.#last ? nowMicros : this.#last + 1;
    this.#last = micros;
    return { micros, clientId: this.clientId };
  }
}
