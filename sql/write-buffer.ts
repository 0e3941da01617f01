// A transaction's buffered writes: per table, the full new row (or a deletion) by encoded primary key.
// The client ships exactly this at commit (PROTOCOL §3); the single-node engine applies it to its store.
// Later statements of the same transaction read through `OverlaySource` (overlay-source.ts).

import type { TableDef } from './catalog.ts';
import type { WriteSink } from './row-source.ts';
import type { Row } from './types.ts';

export class WriteBuffer implements WriteSink {
  private readonly byTable = new Map<number, { table: TableDef; rows: Map<string, Row | null> }>();

  put(table: TableDef, key: string, row: Row): void {
    this.entry(table).set(key, row);
  }

  delete(table: TableDef, key: string): void {
    this.entry(table).set(key, null);
  }

  private entry(table: TableDef): Map<string, Row | null> {
    let e = this.byTable.get(table.id);
    if (!e) {
      e = { table, rows: new Map() };
      this.byTable.set(table.id, e);
    } else {
      e.table = table;
    }
    return e.rows;
  }

  /** The buffered row for a key: a Row, null for a deletion, undefined when untouched. */
  lookup(tableId: number, key: string): Row | null | undefined {
    return this.byTable.get(tableId)?.rows.get(key);
  }

  rowsOf(tableId: number): Map<string, Row | null> | undefined {
    return this.byTable.get(tableId)?.rows;
  }

  *tables(): Generator<[TableDef, Map<string, Row | null>]> {
    for (const e of this.byTable.values()) yield [e.table, e.rows];
  }

  /** Moves another buffer's writes on top of this one (statement writes into the transaction). */
  absorb(other: WriteBuffer): void {
    for (const [t, rows] of other.tables()) {
      const mine = this.entry(t);
      for (const [k, r] of rows) mine.set(k, r);
    }
  }

  /** An independent copy (a savepoint). */
  clone(): WriteBuffer {
    const c = new WriteBuffer();
    c.absorb(this);
    return c;
  }

  /** Replaces this buffer's contents with another's (rolling back to a savepoint). */
  restore(from: WriteBuffer): void {
    this.byTable.clear();
    this.absorb(from);
  }

  dropTable(tableId: number): void {
    this.byTable.delete(tableId);
  }

  get isEmpty(): boolean {
    for (const e of this.byTable.values()) if (e.rows.size > 0) return false;
    return true;
  }
}
