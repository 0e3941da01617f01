/**
 * Error kinds shared by every module (STYLE.md "Errors"):
 * - expected outcomes are return values (`Result` with a closed `reason`), never exceptions;
 * - a broken invariant throws `InvariantError` (the simulator stops and prints its seed);
 * - operational failures at the edges are classes with stable names, defined where they occur.
 */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

/** Throws `InvariantError` unless `cond` holds. */
export function invariant(cond: unknown, message: string): asserts cond {
  if (!cond) throw new InvariantError(message);
}

/** Exhaustiveness guard for `switch` statements over discriminated unions. */
export function assertNever(x: never, what = 'value'): never {
  throw new InvariantError(`unexpected ${what}: ${JSON.stringify(x)}`);
}

export type Result<T, R extends string> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: R; readonly detail?: string };

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function fail<R extends string>(reason: R, detail?: string): { readonly ok: false; readonly reason: R; readonly detail?: string } {
  return detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };
}
