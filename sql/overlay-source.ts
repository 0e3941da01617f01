// A row source that shows a transaction its own buffered writes on top of a base source: buffered rows
// replace or hide base rows with the same primary key and appear in scans in key order. Overlay rows are
// marked `own` so the executor leaves them out of the read set (PROTOCOL §3: replicas execute over a
// client's writes without recording them).

import { indexEntryPrefix } from './memory-store.ts';
import type { RowSource, ScanRequest, ScannedRow } from './row-source.ts';
import type { TableDef } from './catalog.ts';
import type { WriteBuffer } from './write-buffer.ts';

export class OverlaySource implements RowSource {
  constructor(
    private readonly base: RowSource,
    private readonly buffers: readonly WriteBuffer[],
  ) {}

  private lookup(tableId: number, key: string): ScannedRow | null | undefined {
    for (let i = this.buffers.length - 1; i >= 0; i--) {
      const r = this.buffers[i]?.lookup(tableId, key);
      if (r !== undefined) return r === null ? null : { tableId, key, row: r, version: null, own: true };
    }
    return undefined;
  }

  ownWrite(table: TableDef, key: string): boolean {
    return this.lookup(table.id, key) !== undefined;
  }

  get(table: TableDef, key: string): ScannedRow | null {
    const o = this.lookup(table.id, key);
    if (o !== undefined) return o;
    return this.base.get(table, key);
  }

  scan(req: ScanRequest): Iterable<ScannedRow> {
    const touched = new Map<string, ScannedRow | null>();
    for (const b of this.buffers) {
      const rows = b.rowsOf(req.table.id);
      if (!rows) continue;
      for (const [key, row] of rows) touched.set(key, row === null ? null : { tableId: req.table.id, key, row, version: null, own: true });
    }
    if (touched.size === 0) return this.base.scan(req);
    // A row's place in the scan's order; null for an own row a partial index leaves out.
    const sortKey = (r: ScannedRow): string | null => {
      if (req.index === null) return r.key;
      const prefix = indexEntryPrefix(req.index, r.row);
      return prefix === null ? null : prefix + r.key;
    };
    const out: { s: string; r: ScannedRow }[] = [];
    for (const r of this.base.scan({ ...req, reverse: false })) {
      if (!touched.has(r.key)) out.push({ s: sortKey(r) ?? '', r });
    }
    for (const r of touched.values()) {
      if (r === null) continue;
      const s = sortKey(r);
      if (s !== null && s >= req.lo && (req.hi === null || s < req.hi)) out.push({ s, r });
    }
    out.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
    if (req.reverse) out.reverse();
    return out.map((x) => x.r);
  }
}
