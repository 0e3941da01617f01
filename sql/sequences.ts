// Sequences (CREATE SEQUENCE, SERIAL and identity columns): their definitions, options and arithmetic,
// as PostgreSQL 15 has them. A sequence's state (its last value and whether it was handed out) lives
// outside the catalog: in the single-node engine in memory, on the cluster in a counter row of its own
// that a client advances in a small transaction of its own (client/sql/sequence-values.ts), so values
// are not given back by a rollback and concurrent inserts do not conflict on the counter, as in
// PostgreSQL. Everything here is pure.

import type { Owned } from './privileges.ts';
import type { DefElem, Node } from 'libpg-query';
import { SqlError, SqlState } from './errors.ts';
import type { SqlType } from './types.ts';

export type SequenceType = 'int2' | 'int4' | 'int8';

/**
 * Where a sequence's state is kept: the counter `(table, column)` (client/sql/sequence-values.ts
 * counterKey). A SERIAL or identity column made with its table keeps the counter SERIAL columns always
 * had, `(the table's id then, the column's ordinal)`, so databases written before sequences existed read
 * the same values; any other sequence uses `(0, its id)`.
 */
export interface SequenceCounter {
  readonly table: number;
  readonly column: number;
}

export interface SequenceDef extends Owned {
  /** From the catalog's sequence counter (not the table-id counter: older catalogs replay to the same table ids). */
  readonly id: number;
  readonly name: string;
  readonly type: SequenceType;
  readonly start: bigint;
  readonly increment: bigint;
  readonly min: bigint;
  readonly max: bigint;
  readonly cache: bigint;
  readonly cycle: boolean;
  readonly counter: SequenceCounter;
  /** OWNED BY: the column whose table's DROP (or the column's) drops the sequence; null: none. */
  readonly ownedBy: { readonly table: string; readonly column: string } | null;
  /** COMMENT ON SEQUENCE; absent: none. */
  readonly comment?: string;
}

/** A sequence's state: the last value handed out (`called`) or the next one to hand out (not `called`). */
export interface SequenceState {
  readonly last: bigint;
  readonly called: boolean;
}

const RANGE: Record<SequenceType, { min: bigint; max: bigint; display: string }> = {
  int2: { min: -32768n, max: 32767n, display: 'smallint' },
  int4: { min: -2147483648n, max: 2147483647n, display: 'integer' },
  int8: { min: -9223372036854775808n, max: 9223372036854775807n, display: 'bigint' },
};

/** The state of a sequence nobody has taken a value from. */
export function initialState(seq: SequenceDef): SequenceState {
  return { last: seq.start, called: false };
}

/** A counter row's text: the last value, with ` f` when it was not handed out yet (absent row: initialState). */
export function encodeState(s: SequenceState): string {
  return s.called ? String(s.last) : `${s.last} f`;
}

export function decodeState(text: string): SequenceState {
  const m = /^(-?\d{1,19})( f)?$/.exec(text);
  if (m === null) throw new SqlError(SqlState.internalError, `a sequence counter holds an invalid value`);
  return { last: BigInt(m[1]!), called: m[2] === undefined };
}

/**
 * The next `n` values of `seq` from state `s`, and the state after them; 2200H when the sequence runs
 * out (PostgreSQL's words), cycling instead when it was made CYCLE.
 */
export function takeValues(seq: SequenceDef, s: SequenceState, n: number): { values: bigint[]; state: SequenceState } {
  const values: bigint[] = [];
  let last = s.last;
  let called = s.called;
  for (let i = 0; i < n; i++) {
    let next = last;
    if (called) {
      next = last + seq.increment;
      if (next > seq.max || next < seq.min) {
        const up = seq.increment > 0n;
        if (!seq.cycle) {
          throw new SqlError('2200H', `nextval: reached ${up ? 'maximum' : 'minimum'} value of sequence "${seq.name}" (${up ? seq.max : seq.min})`);
        }
        next = up ? seq.min : seq.max;
      }
    }
    values.push(next);
    last = next;
    called = true;
  }
  return { values, state: { last, called } };
}

/** setval's new state, checked against the sequence's bounds as PostgreSQL does (22003). */
export function setState(seq: SequenceDef, value: bigint, called: boolean): SequenceState {
  if (value < seq.min || value > seq.max) {
    throw new SqlError(SqlState.numericValueOutOfRange, `setval: value ${value} is out of bounds for sequence "${seq.name}" (${seq.min}..${seq.max})`);
  }
  return { last: value, called };
}

/** The options of CREATE/ALTER SEQUENCE (and an identity column's), as written. */
export interface SequenceOptions {
  type?: SequenceType;
  increment?: bigint;
  start?: bigint;
  /** null: NO MINVALUE / NO MAXVALUE (the type's default). */
  min?: bigint | null;
  max?: bigint | null;
  cache?: bigint;
  cycle?: boolean;
  /** RESTART [WITH n]: null for RESTART alone (from START). */
  restart?: bigint | null;
  /** OWNED BY table.column; null: OWNED BY NONE. */
  ownedBy?: { table: string; column: string } | null;
  /** An identity column's SEQUENCE NAME. */
  name?: string;
}

function optionInt(d: DefElem): bigint {
  const a = d.arg as Node | undefined;
  if (a !== undefined && 'Integer' in a) return BigInt(a.Integer.ival ?? 0);
  if (a !== undefined && 'Float' in a && /^-?\d+$/.test(a.Float.fval ?? '')) return BigInt(a.Float.fval!);
  throw new SqlError(SqlState.syntaxError, `${d.defname} requires an integer value`);
}

function names(d: DefElem): string[] {
  const a = d.arg as Node | undefined;
  const items = a !== undefined && 'List' in a ? (a.List.items ?? []) : [];
  return items.map((i) => ('String' in i ? (i.String.sval ?? '') : ''));
}

/** Reads the DefElem options of CREATE/ALTER SEQUENCE or an identity column; `resolveType` maps AS's type name. */
export function readOptions(options: readonly Node[] | undefined, resolveType: (n: Node) => SqlType): SequenceOptions {
  const o: SequenceOptions = {};
  const seen = new Set<string>();
  for (const n of options ?? []) {
    if (!('DefElem' in n)) continue;
    const d = n.DefElem;
    const name = d.defname ?? '';
    if (seen.has(name)) throw new SqlError(SqlState.syntaxError, 'conflicting or redundant options');
    seen.add(name);
    switch (name) {
      case 'as': {
        const t = resolveType(d.arg as Node);
        if (t !== 'int2' && t !== 'int4' && t !== 'int8') throw new SqlError(SqlState.invalidParameterValue, 'sequence type must be smallint, integer, or bigint');
        o.type = t;
        break;
      }
      case 'increment': o.increment = optionInt(d); break;
      case 'start': o.start = optionInt(d); break;
      case 'minvalue': o.min = d.arg === undefined ? null : optionInt(d); break;
      case 'maxvalue': o.max = d.arg === undefined ? null : optionInt(d); break;
      case 'cache': o.cache = optionInt(d); break;
      case 'cycle': o.cycle = d.arg !== undefined && 'Boolean' in d.arg ? d.arg.Boolean.boolval === true : true; break;
      case 'restart': o.restart = d.arg === undefined ? null : optionInt(d); break;
      case 'owned_by': {
        const parts = names(d);
        if (parts.length === 1 && parts[0] === 'none') o.ownedBy = null;
        else if (parts.length < 2) throw new SqlError(SqlState.invalidParameterValue, 'invalid OWNED BY option');
        else o.ownedBy = { table: parts[parts.length - 2]!, column: parts[parts.length - 1]! };
        break;
      }
      case 'sequence_name': o.name = names(d).at(-1) ?? ''; break;
      default: throw new SqlError(SqlState.syntaxError, `option "${name}" not recognized`);
    }
  }
  return o;
}

/**
 * A sequence's definition from `o` over `base` (ALTER) or the defaults (CREATE), checked as PostgreSQL's
 * init_params checks it.
 */
export function sequenceDef(base: Omit<SequenceDef, 'type' | 'start' | 'increment' | 'min' | 'max' | 'cache' | 'cycle'> & Partial<SequenceDef>, o: SequenceOptions): SequenceDef {
  const type = o.type ?? base.type ?? 'int8';
  const range = RANGE[type];
  const increment = o.increment ?? base.increment ?? 1n;
  if (increment === 0n) throw new SqlError(SqlState.invalidParameterValue, 'INCREMENT must not be zero');
  const old = base.type === undefined ? undefined : RANGE[base.type];
  // Given (NO MINVALUE/MAXVALUE: the default), else kept, except that a bound at its old type's limit
  // follows a change of AS type, as in PostgreSQL.
  const bound = (given: bigint | null | undefined, was: bigint | undefined, oldLimit: bigint | undefined, def: bigint): bigint =>
    given !== undefined ? (given ?? def) : was === undefined || (o.type !== undefined && was === oldLimit) ? def : was;
  const max = bound(o.max, base.max, old?.max, increment > 0n ? range.max : -1n);
  const min = bound(o.min, base.min, old?.min, increment > 0n ? 1n : range.min);
  if (max < range.min || max > range.max) throw new SqlError(SqlState.invalidParameterValue, `MAXVALUE (${max}) is out of range for sequence data type ${range.display}`);
  if (min < range.min || min > range.max) throw new SqlError(SqlState.invalidParameterValue, `MINVALUE (${min}) is out of range for sequence data type ${range.display}`);
  if (min >= max) throw new SqlError(SqlState.invalidParameterValue, `MINVALUE (${min}) must be less than MAXVALUE (${max})`);
  const start = o.start ?? base.start ?? (increment > 0n ? min : max);
  if (start < min) throw new SqlError(SqlState.invalidParameterValue, `START value (${start}) cannot be less than MINVALUE (${min})`);
  if (start > max) throw new SqlError(SqlState.invalidParameterValue, `START value (${start}) cannot be greater than MAXVALUE (${max})`);
  const cache = o.cache ?? base.cache ?? 1n;
  if (cache <= 0n) throw new SqlError(SqlState.invalidParameterValue, `CACHE (${cache}) must be greater than zero`);
  return {
    id: base.id, name: base.name, counter: base.counter, ownedBy: base.ownedBy,
    type, start, increment, min, max, cache, cycle: o.cycle ?? base.cycle ?? false,
    ...(base.owner !== undefined ? { owner: base.owner } : {}), ...(base.acl !== undefined ? { acl: base.acl } : {}),
    ...(base.comment !== undefined ? { comment: base.comment } : {}),
  };
}

/** RESTART's new state, checked against the bounds (PostgreSQL's words). */
export function restartState(seq: SequenceDef, restart: bigint | null): SequenceState {
  const v = restart ?? seq.start;
  if (v < seq.min) throw new SqlError(SqlState.invalidParameterValue, `RESTART value (${v}) cannot be less than MINVALUE (${seq.min})`);
  if (v > seq.max) throw new SqlError(SqlState.invalidParameterValue, `RESTART value (${v}) cannot be greater than MAXVALUE (${seq.max})`);
  return { last: v, called: false };
}

/**
 * What the sequence functions need at execution (sql/exec-context.ts), each sequence named by its id in
 * the statement's catalog; the session keeps currval and lastval.
 */
export interface SequenceAccess {
  /** The sequence's shared state, as `SELECT last_value, is_called FROM seq` reads it (not the session's). */
  state(id: number): SequenceState;
  nextval(id: number): bigint;
  currval(id: number): bigint;
  lastval(): bigint;
  setval(id: number, value: bigint, called: boolean): bigint;
}

/** PostgreSQL's errors for currval and lastval before any nextval in the session (55000). */
export function notYetDefined(seq: SequenceDef | null): SqlError {
  return new SqlError('55000', seq === null ? 'lastval is not yet defined in this session' : `currval of sequence "${seq.name}" is not yet defined in this session`);
}

/** A session's currval of each sequence and the sequence lastval reads (PostgreSQL keeps both per session). */
export class SequenceSession {
  readonly #current = new Map<number, bigint>();
  #last: number | null = null;

  /** nextval handed `value` out of sequence `id` (`used`: lastval follows it; setval sets only currval). */
  note(id: number, value: bigint, used = true): void {
    this.#current.set(id, value);
    if (used) this.#last = id;
  }

  currval(seq: SequenceDef): bigint {
    const v = this.#current.get(seq.id);
    if (v === undefined) throw notYetDefined(seq);
    return v;
  }

  lastval(): bigint {
    const v = this.#last === null ? undefined : this.#current.get(this.#last);
    if (v === undefined) throw notYetDefined(null);
    return v;
  }
}

/** Where a sequence's state is kept and changed at once (the single-node engine's store). */
export interface SequenceStates {
  sequenceState(seq: SequenceDef): SequenceState;
  setSequence(seq: SequenceDef, state: SequenceState): void;
}

/** The sequence of id `id` in `catalog`: gone (dropped since the statement was bound) is 42P01. */
export function sequenceOfId(catalog: { sequenceById(id: number): SequenceDef | undefined }, id: number): SequenceDef {
  const seq = catalog.sequenceById(id);
  if (seq === undefined) throw new SqlError(SqlState.undefinedTable, `could not open relation with OID ${id}`);
  return seq;
}

/** SequenceAccess over states changed in place (the single-node engine). */
export class LocalSequences implements SequenceAccess {
  constructor(
    private readonly catalog: () => { sequenceById(id: number): SequenceDef | undefined },
    private readonly states: SequenceStates,
    private readonly session: SequenceSession,
  ) {}

  state(id: number): SequenceState {
    return this.states.sequenceState(sequenceOfId(this.catalog(), id));
  }

  nextval(id: number): bigint {
    const seq = sequenceOfId(this.catalog(), id);
    const { values, state } = takeValues(seq, this.states.sequenceState(seq), 1);
    this.states.setSequence(seq, state);
    this.session.note(id, values[0]!);
    return values[0]!;
  }

  currval(id: number): bigint {
    return this.session.currval(sequenceOfId(this.catalog(), id));
  }

  lastval(): bigint {
    return this.session.lastval();
  }

  setval(id: number, value: bigint, called: boolean): bigint {
    const seq = sequenceOfId(this.catalog(), id);
    this.states.setSequence(seq, setState(seq, value, called));
    if (called) this.session.note(id, value, false);
    return value;
  }
}
