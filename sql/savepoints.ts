// A transaction's savepoints (SAVEPOINT, RELEASE, ROLLBACK TO), as PostgreSQL keeps them: a stack,
// innermost last, where a name may repeat (the innermost of that name counts), each with the state a
// ROLLBACK TO restores. The single-node engine keeps its buffered writes there (engine.ts); the cluster's
// SQL session its writes and catalog (client/sql/sql-txn.ts).

import { SqlError, SqlState } from './errors.ts';
import type { SavepointOp } from './lower-statement.ts';

export class Savepoints<S> {
  readonly #stack: { readonly name: string; readonly state: S }[] = [];

  take(name: string, state: S): void {
    this.#stack.push({ name, state });
  }

  /** The state savepoint `name` holds (3B001 when there is none), changing nothing. */
  state(name: string): S {
    return this.#stack[this.#index(name)]!.state;
  }

  /** RELEASE: forgets the savepoint and every later one. */
  release(name: string): void {
    this.#stack.length = this.#index(name);
  }

  /** ROLLBACK TO: forgets the later savepoints (this one stays) and returns the state to restore. */
  rollbackTo(name: string): S {
    const i = this.#index(name);
    this.#stack.length = i + 1;
    return this.#stack[i]!.state;
  }

  #index(name: string): number {
    for (let i = this.#stack.length - 1; i >= 0; i--) if (this.#stack[i]!.name === name) return i;
    throw new SqlError('3B001', `savepoint "${name}" does not exist`);
  }
}

/** The command tag of a savepoint statement (ROLLBACK TO's is ROLLBACK). */
export function savepointTag(op: SavepointOp): string {
  return op === 'savepoint' ? 'SAVEPOINT' : op === 'release' ? 'RELEASE' : 'ROLLBACK';
}

/** A savepoint statement outside a transaction block (25P01, PostgreSQL's words). */
export function savepointOutsideBlock(op: SavepointOp): SqlError {
  const what = op === 'savepoint' ? 'SAVEPOINT' : op === 'release' ? 'RELEASE SAVEPOINT' : 'ROLLBACK TO SAVEPOINT';
  return new SqlError(SqlState.noActiveSqlTransaction, `${what} can only be used in transaction blocks`);
}
