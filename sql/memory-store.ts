// The in-memory single-node store: one sorted key array plus a row map per table, and one sorted entry
// array per secondary index (entry = the row's index key's encoding followed by the primary-key encoding;
// a partial index has entries only for the rows its predicate holds for: index-keys.ts). It is
// the reference `RowSource` for tests and the single-node engine. Versions are a commit counter: every
// applied write set gets the next number. Uniqueness is checked by the executor before writes reach the
// store (through the overlay, which sees the transaction's own writes); `apply` only installs them.

import { refreshEnumValue } from './enum-types.ts';
import { initialState, type SequenceDef, type SequenceState } from './sequences.ts';
import { encodeKey } from './key-encoding.ts';
import { SortedKeys } from './sorted-keys.ts';
import { SqlError, SqlState } from './errors.ts';
import type { ForeignKeyDef, IndexDef, TableDef } from './catalog.ts';
import { orphanOf } from './foreign-keys.ts';
import { indexKeyList, indexKeyValues } from './index-keys.ts';
import type { RowSource, ScanRequest, ScannedRow } from './row-source.ts';
import type { Row } from './types.ts';
import { formatText } from './value-text.ts';
import type { WriteBuffer } from './write-buffer.ts';

interface IndexData {
  def: IndexDef;
  readonly entries: SortedKeys;
  /** Entry key -> primary key. */
  readonly pkOf: Map<string, string>;
}

interface TableData {
  def: TableDef;
  readonly keys: SortedKeys;
  readonly rows: Map<string, ScannedRow>;
  readonly indexes: Map<number, IndexData>;
}

/** A row's key in unique index `index` as its entry's prefix; null when the row has no entry or a NULL key (NULLs never conflict). */
export function uniqueEntryPrefix(index: IndexDef, row: Row): string | null {
  const vals = indexKeyValues(index, row);
  return vals === null || vals.includes(null) ? null : encodeKey(vals, index.types);
}

/** A row's entry in `index` before its primary key: the key's encoding; null for a row a partial index leaves out. */
export function indexEntryPrefix(index: IndexDef, row: Row): string | null {
  const vals = indexKeyValues(index, row);
  return vals === null ? null : encodeKey(vals, index.types);
}

export function primaryKeyOf(table: TableDef, row: Row): string {
  const pk = table.pk;
  if (pk.length === 1) return encodeKey([row[pk[0] as number] ?? null], table.pkTypes);
  return encodeKey(pk.map((c) => row[c] ?? null), table.pkTypes);
}

/**
 * 23505 for a unique index (null: the primary key) built over rows that repeat a key; `row`: one of
 * them, whose key the DETAIL shows as PostgreSQL's does (`Key (lower(a), b)=(x, 1) is duplicated.`).
 */
export function uniqueIndexDuplicated(def: TableDef, idx: IndexDef | null, row?: Row): SqlError {
  const name = idx === null ? `${def.name}_pkey` : idx.name;
  const keys = idx === null ? def.pk.map((c) => def.columns[c]?.name).join(', ') : indexKeyList(def, idx, true);
  const vals = row === undefined ? null : idx === null ? def.pk.map((c) => row[c] ?? null) : indexKeyValues(idx, row);
  const types = idx === null ? def.pkTypes : idx.types;
  const shown = vals === null ? '' : `=(${vals.map((v, j) => (v === null ? 'null' : formatText(v, types[j] ?? 'text'))).join(', ')})`;
  return new SqlError(SqlState.uniqueViolation, `could not create unique index "${name}"`, `Key (${keys ?? '?'})${shown} is duplicated.`);
}

/** A store's rows at one moment (MemoryStore.snapshot), to go back to with `restore`. */
export interface StoreSnapshot {
  readonly tables: ReadonlyMap<number, TableData>;
}

function copyTables(from: ReadonlyMap<number, TableData>): Map<number, TableData> {
  const out = new Map<number, TableData>();
  for (const [id, t] of from) {
    const indexes = new Map<number, IndexData>();
    for (const [i, d] of t.indexes) indexes.set(i, { def: d.def, entries: d.entries.clone(), pkOf: new Map(d.pkOf) });
    out.set(id, { def: t.def, keys: t.keys.clone(), rows: new Map(t.rows), indexes });
  }
  return out;
}

export class MemoryStore implements RowSource {
  private tables = new Map<number, TableData>();
  /** Version of the last applied write set. */
  commitVersion = 0;

  private data(def: TableDef): TableData {
    let t = this.tables.get(def.id);
    if (!t) {
      t = { def, keys: new SortedKeys(), rows: new Map(), indexes: new Map() };
      this.tables.set(def.id, t);
      this.syncIndexes(t, def);
    }
    if (t.def !== def) this.syncIndexes(t, def);
    return t;
  }

  /** Creates the table's storage (idempotent); builds any new indexes of `def`. */
  ensureTable(def: TableDef): void {
    this.data(def);
  }

  private syncIndexes(t: TableData, def: TableDef): void {
    t.def = def;
    for (const id of [...t.indexes.keys()]) if (!def.indexes.some((i) => i.id === id)) t.indexes.delete(id);
    for (const idx of def.indexes) {
      const existing = t.indexes.get(idx.id);
      if (existing) {
        existing.def = idx;
        continue;
      }
      const d: IndexData = { def: idx, entries: new SortedKeys(), pkOf: new Map() };
      const seen = new Map<string, string>();
      for (const key of t.keys.all()) {
        const r = t.rows.get(key);
        if (!r) continue;
        const vals = indexKeyValues(idx, r.row);
        if (vals === null) continue;
        const prefix = encodeKey(vals, idx.types);
        if (idx.unique && !vals.includes(null)) {
          if (seen.has(prefix)) throw uniqueIndexDuplicated(def, idx, r.row);
          seen.set(prefix, key);
        }
        const entry = prefix + key;
        d.entries.insert(entry);
        d.pkOf.set(entry, key);
      }
      t.indexes.set(idx.id, d);
    }
  }

  dropTable(id: number): void {
    this.tables.delete(id);
  }

  /** A copy of every table's rows and indexes (rows themselves are immutable and shared). */
  snapshot(): StoreSnapshot {
    return { tables: copyTables(this.tables) };
  }

  /** Goes back to `s` (which stays usable: it is copied again). Versions keep counting up. */
  restore(s: StoreSnapshot): void {
    this.tables = copyTables(s.tables);
  }

  /** Re-keys a table after its primary key changed (ALTER TABLE ... ADD PRIMARY KEY). */
  rekeyTable(def: TableDef, transform: (row: Row) => Row = (r) => r): void {
    const old = this.tables.get(def.id);
    const t: TableData = { def: { ...def, indexes: [] }, keys: new SortedKeys(), rows: new Map(), indexes: new Map() };
    if (old) {
      // In key order: a rewrite that numbers rows (ADD COLUMN ... SERIAL) numbers them as the cluster's does.
      for (const k of old.keys.all()) {
        const r0 = old.rows.get(k)!;
        const row = transform(r0.row);
        const key = primaryKeyOf(def, row);
        if (t.rows.has(key)) throw uniqueIndexDuplicated(def, null, row);
        t.rows.set(key, { tableId: def.id, key, row, version: r0.version, own: false });
        t.keys.insert(key);
      }
    }
    this.syncIndexes(t, def);
    this.tables.set(def.id, t);
  }

  relabel(def: TableDef): void {
    const t = this.tables.get(def.id);
    if (t === undefined) return;
    const relabelled = (row: Row): Row => row.map((v, i) => {
      const type = def.columns[i]?.enumType;
      return type !== undefined ? refreshEnumValue(type, v) : v;
    });
    for (const [k, r] of t.rows) t.rows.set(k, { ...r, row: relabelled(r.row) });
  }

  truncate(def: TableDef): void {
    const t = this.data(def);
    t.keys.clear();
    t.rows.clear();
    for (const i of t.indexes.values()) {
      i.entries.clear();
      i.pkOf.clear();
    }
  }

  rowCount(def: TableDef): number {
    return this.tables.get(def.id)?.rows.size ?? 0;
  }

  validateRows(def: TableDef, test: (row: Row) => void): void {
    for (const r of this.tables.get(def.id)?.rows.values() ?? []) test(r.row);
  }

  validateForeignKey(child: TableDef, parent: TableDef, fk: ForeignKeyDef): void {
    const rows = (t: TableDef): Row[] => [...(this.tables.get(t.id)?.rows.values() ?? [])].map((r) => r.row);
    const e = orphanOf(child, parent, fk, rows(child), rows(parent));
    if (e !== null) throw e;
  }

  /**
   * Sequence states by counter (sql/sequences.ts), outside the snapshots: nextval is not undone by a
   * rollback, as in PostgreSQL (nor, here, an ALTER SEQUENCE ... RESTART rolled back with its block).
   */
  readonly sequences = new Map<string, SequenceState>();

  sequenceState(seq: SequenceDef): SequenceState {
    return this.sequences.get(`${seq.counter.table}:${seq.counter.column}`) ?? initialState(seq);
  }

  setSequence(seq: SequenceDef, state: SequenceState): void {
    this.sequences.set(`${seq.counter.table}:${seq.counter.column}`, state);
  }

  get(table: TableDef, key: string): ScannedRow | null {
    return this.tables.get(table.id)?.rows.get(key) ?? null;
  }

  scan(req: ScanRequest): Iterable<ScannedRow> {
    const t = this.tables.get(req.table.id);
    if (!t) return [];
    if (req.index === null) return scanKeys(t.keys, req, (k) => t.rows.get(k));
    const idx = t.indexes.get(req.index.id);
    if (!idx) return [];
    return scanKeys(idx.entries, req, (e) => {
      const pk = idx.pkOf.get(e);
      return pk === undefined ? undefined : t.rows.get(pk);
    });
  }

  /** Installs a transaction's writes as one new version. */
  apply(writes: WriteBuffer): void {
    const version = ++this.commitVersion;
    for (const [tableDef, rows] of writes.tables()) {
      const t = this.data(tableDef);
      for (const [key, row] of rows) {
        const old = t.rows.get(key);
        if (old) {
          for (const idx of t.indexes.values()) {
            const prefix = indexEntryPrefix(idx.def, old.row);
            if (prefix === null) continue;
            const entry = prefix + key;
            idx.entries.remove(entry);
            idx.pkOf.delete(entry);
          }
        }
        if (row === null) {
          if (old) {
            t.rows.delete(key);
            t.keys.remove(key);
          }
          continue;
        }
        t.rows.set(key, { tableId: t.def.id, key, row, version, own: false });
        if (!old) t.keys.insert(key);
        for (const idx of t.indexes.values()) {
          const prefix = indexEntryPrefix(idx.def, row);
          if (prefix === null) continue;
          const entry = prefix + key;
          idx.entries.insert(entry);
          idx.pkOf.set(entry, key);
        }
      }
    }
  }
}

/** Walks a key range without generators (the scan hot path). */
class RangeIterator implements Iterator<ScannedRow>, Iterable<ScannedRow> {
  private ci: number;
  private i: number;
  private readonly chunks: readonly (readonly string[])[];
  constructor(
    keys: SortedKeys,
    private readonly lo: string,
    private readonly hi: string | null,
    private readonly reverse: boolean,
    private readonly rowOf: (k: string) => ScannedRow | undefined,
  ) {
    this.chunks = keys.chunkList;
    if (!reverse) {
      [this.ci, this.i] = keys.seek(lo);
    } else if (hi === null) {
      this.ci = this.chunks.length - 1;
      this.i = (this.chunks[this.ci]?.length ?? 0) - 1;
    } else {
      const [ci, i] = keys.seek(hi);
      if (ci >= this.chunks.length) {
        this.ci = this.chunks.length - 1;
        this.i = (this.chunks[this.ci]?.length ?? 0) - 1;
      } else {
        this.ci = ci;
        this.i = i - 1;
      }
    }
  }

  [Symbol.iterator](): Iterator<ScannedRow> {
    return this;
  }

  next(): IteratorResult<ScannedRow> {
    const chunks = this.chunks;
    for (;;) {
      const ch = chunks[this.ci];
      if (ch === undefined) return { done: true, value: undefined };
      if (!this.reverse) {
        if (this.i >= ch.length) {
          this.ci++;
          this.i = 0;
          continue;
        }
        const k = ch[this.i++] as string;
        if (this.hi !== null && k >= this.hi) {
          this.ci = chunks.length;
          return { done: true, value: undefined };
        }
        const r = this.rowOf(k);
        if (r !== undefined) return { done: false, value: r };
      } else {
        if (this.i < 0) {
          this.ci--;
          this.i = (chunks[this.ci]?.length ?? 0) - 1;
          continue;
        }
        const k = ch[this.i--] as string;
        if (k < this.lo) {
          this.ci = -1;
          return { done: true, value: undefined };
        }
        const r = this.rowOf(k);
        if (r !== undefined) return { done: false, value: r };
      }
    }
  }
}

function scanKeys(keys: SortedKeys, req: ScanRequest, rowOf: (k: string) => ScannedRow | undefined): Iterable<ScannedRow> {
  return new RangeIterator(keys, req.lo, req.hi, req.reverse, rowOf);
}
