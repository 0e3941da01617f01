/**
 * The bytes of a scan predicate inside a transaction (`Predicate.expr`, PROTOCOL §4.3): the scanned key
 * range and the bound filter of one scan, as UTF-8 JSON
 *
 *     { "i": index id or null (primary key), "lo": range start, "hi": range end or null, "f": filter or null,
 *       "kx": [primary keys of the table the query read, in lowercase hex] }
 *
 * with the filter in the JSON form of sql/expr.ts (`exprToJson`) and `lo`/`hi` the key encodings as
 * latin1 strings (JSON escapes any byte). The keys were latin1 strings too (`"k"`, still decoded, e.g.
 * from an older log); JSON escapes most key bytes as six characters, so 10,000 keys took 474 KB and
 * 11 ms to encode, in every reply and again in the transaction (decision 0015). Replicas send predicates
 * without keys and the client adds them from the matched read set (`excusedKeys`, `withExcusedKeys`,
 * decision 0019): 210 KB less in each of a 10,000-row read's replies. Replicas produce the bytes from identical scans identically,
 * so 3f+1 matching replies carry identical predicate bytes; the table and table version travel beside
 * them in the `Predicate` message. Bytes from a transaction are untrusted (a Byzantine client wrote
 * them): `decodePredicate` returns null for anything malformed, and evaluation must still catch
 * errors from a well-formed but nonsensical filter.
 */
import type { IndexDef, TableDef } from './catalog.ts';
import { evalPredicate } from './eval.ts';
import { exprFromJson, exprToJson, type Expr } from './expr.ts';
import { isImmutable } from './immutability.ts';
import { indexEntryPrefix } from './memory-store.ts';
import { decodeRow } from './row-codec.ts';
import { TABLE_PREFIX_BYTES, tableIdOfKey } from './row-key.ts';

export interface ScanPredicate {
  /** null: a primary-key range; otherwise the secondary index id. */
  readonly indexId: number | null;
  /** The scanned range `[lo, hi)` over the key's encoding (without the table prefix; hi null = end). */
  readonly lo: string;
  readonly hi: string | null;
  /** Bound filter over table rows; null = every row in the range. */
  readonly filter: Expr | null;
  /**
   * The rows of the table the query that ran this scan read (primary-key encodings, sorted): what its
   * read set holds because of the scan. SemanticCC skips only these read-set rows for this predicate;
   * a row a later read of the transaction added is no excuse for a phantom. null: not given (every
   * read-set row is skipped).
   */
  readonly keys: ReadonlySet<string> | null;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The filter a scan's predicate carries for a query run in session zone `timeZone` (absent: UTC): its
 * own, or none (every row of the scanned range) when the filter is not immutable and the zone is not
 * UTC. SemanticCC evaluates stored predicates outside any session, in UTC, where a filter the session's
 * zone decides (`at::date = '2026-03-29'` in Europe/Berlin) would match other rows than it did in the
 * query and could miss a phantom; the whole range conflicts more often but never misses one.
 */
export function zoneSafeFilter(filter: Expr | null, timeZone: string | undefined): Expr | null {
  return filter === null || timeZone === undefined || isImmutable(filter) ? filter : null;
}

export function encodePredicate(p: Omit<ScanPredicate, 'keys'> & { readonly keys: readonly string[] | null }): Uint8Array {
  const j: Record<string, unknown> = { i: p.indexId, lo: p.lo, hi: p.hi, f: p.filter === null ? null : exprToJson(p.filter) };
  if (p.keys !== null) j['kx'] = p.keys.map(hexOf);
  return utf8.encode(JSON.stringify(j));
}

/**
 * The rows each table's predicates excuse, by table id: the primary keys of that table among a query's
 * reads and among the transaction's own writes shipped with it (the query saw the transaction's own
 * version of those rows, decision 0013), sorted and distinct. Replicas send predicates without keys;
 * the client names them from the matched read set (decision 0019), as every correct replica would.
 */
export function excusedKeys(tables: ReadonlySet<number>, reads: Iterable<{ readonly key: string }>, ownWrites: Iterable<{ readonly key: string }>): Map<number, string[]> {
  const byTable = new Map<number, string[]>();
  let own = false;
  const add = (key: string): void => {
    if (key.length < TABLE_PREFIX_BYTES) return;
    const list = byTable.get(tableIdOfKey(key)!);
    if (list !== undefined) list.push(key.slice(TABLE_PREFIX_BYTES));
  };
  for (const t of tables) byTable.set(t, []);
  for (const r of reads) add(r.key);
  for (const w of ownWrites) {
    own = true;
    add(w.key);
  }
  // Reads come sorted by key and distinct; own writes may repeat them.
  if (own) for (const [t, list] of byTable) byTable.set(t, [...new Set(list)].sort());
  return byTable;
}

/** A predicate as replicas send it, naming `keys` as the rows its query read (`"kx"`); unchanged when malformed. */
export function withExcusedKeys(bytes: Uint8Array, keys: readonly string[]): Uint8Array {
  return rewritten(bytes, (j) => {
    delete j['k'];
    j['kx'] = keys.map(hexOf);
    return true;
  });
}

/**
 * A predicate without a list of excused rows, the form replicas send (excusing every read-set row of its
 * table, decision 0028); unchanged when malformed or already without one.
 */
export function withoutExcusedKeys(bytes: Uint8Array): Uint8Array {
  return rewritten(bytes, (j) => {
    if (!('k' in j) && !('kx' in j)) return false;
    delete j['k'];
    delete j['kx'];
    return true;
  });
}

/** The predicate's JSON object changed by `edit` and encoded again; the same bytes when malformed or `edit` returns false. */
function rewritten(bytes: Uint8Array, edit: (j: Record<string, unknown>) => boolean): Uint8Array {
  let o: unknown;
  try {
    o = JSON.parse(fromUtf8.decode(bytes));
  } catch {
    return bytes;
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return bytes;
  const j = o as Record<string, unknown>;
  if (edit(j) === false) return bytes;
  return utf8.encode(JSON.stringify(j));
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A latin1 key as lowercase hex. */
function hexOf(key: string): string {
  let s = '';
  for (let i = 0; i < key.length; i++) s += HEX[key.charCodeAt(i)]!;
  return s;
}

/** Lowercase hex back to a latin1 key; null unless canonical (even length, lowercase digits). */
function keyOfHex(hex: string): string | null {
  if (hex.length % 2 !== 0) return null;
  let s = '';
  for (let i = 0; i < hex.length; i += 2) {
    const hi = hexDigit(hex.charCodeAt(i));
    const lo = hexDigit(hex.charCodeAt(i + 1));
    if (hi < 0 || lo < 0) return null;
    s += String.fromCharCode(hi * 16 + lo);
  }
  return s;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** Canonical lowercase hex of a key (even length, lowercase digits): what `hexOf` writes. */
const CANONICAL_HEX = /^(?:[0-9a-f]{2})*$/;

/**
 * The excused keys of a decoded predicate, as a function that builds their set on first use: `"kx"`
 * (hex) or the older `"k"` (latin1), not both; null when not given; undefined when malformed. The form
 * of every key is checked here, so a malformed list still makes the predicate malformed; building the
 * set (10,000 keys: ~10 ms) waits until SemanticCC asks whether a read-set row is excused, which a
 * validation meets only when a write lands inside the predicate's window (decision 0028).
 */
function keysOf(o: Record<string, unknown>): (() => ReadonlySet<string>) | null | undefined {
  const k = o['k'];
  const kx = o['kx'];
  if (k !== undefined && kx !== undefined) return undefined;
  if (kx !== undefined) {
    if (!Array.isArray(kx)) return undefined;
    for (const x of kx) if (typeof x !== 'string' || !CANONICAL_HEX.test(x)) return undefined;
    return () => {
      const keys = new Set<string>();
      for (const x of kx as string[]) keys.add(keyOfHex(x)!);
      return keys;
    };
  }
  if (k === undefined) return null;
  if (!(Array.isArray(k) && k.every((x) => typeof x === 'string'))) return undefined;
  return () => new Set(k as string[]);
}

export function decodePredicate(bytes: Uint8Array): ScanPredicate | null {
  try {
    const j = JSON.parse(fromUtf8.decode(bytes)) as unknown;
    if (typeof j !== 'object' || j === null || Array.isArray(j)) return null;
    const o = j as Record<string, unknown>;
    const i = o['i'];
    const lo = o['lo'];
    const hi = o['hi'];
    const f = o['f'];
    if (!(i === null || (typeof i === 'number' && Number.isInteger(i) && i >= 0))) return null;
    if (typeof lo !== 'string' || !(hi === null || typeof hi === 'string')) return null;
    if (!(f === null || (typeof f === 'object' && !Array.isArray(f)))) return null;
    const build = keysOf(o);
    if (build === undefined) return null;
    const filter = f === null ? null : exprFromJson(f);
    if (build === null) return { indexId: i, lo, hi, filter, keys: null };
    let keys: ReadonlySet<string> | undefined;
    return {
      indexId: i,
      lo,
      hi,
      filter,
      get keys(): ReadonlySet<string> {
        keys ??= build();
        return keys;
      },
    };
  } catch {
    return null;
  }
}

export type RowMatch = 'yes' | 'no' | 'error';

/**
 * Whether the row stored under `key` (a row key of the scan's table; `value` its encoded row, null a
 * deletion) lies in the scan's range and satisfies its filter, evaluated by the SQL evaluator itself.
 * An unresolved scan or table matches every row; a row or filter that cannot be evaluated is 'error'
 * (a row in a primary-key range without a filter matches without being decoded).
 */
export function scanMatchesRow(scan: ScanPredicate | null, def: TableDef | null, index: IndexDef | null, key: string, value: Uint8Array | null): RowMatch {
  if (value === null) return 'no';
  if (scan === null || def === null) return 'yes';
  const pk = key.slice(TABLE_PREFIX_BYTES);
  if (index === null && !inRange(pk, scan)) return 'no';
  // A primary-key range without a residual filter (the common range read) matches every row in it: no
  // row to decode.
  if (index === null && scan.filter === null) return 'yes';
  try {
    const row = decodeRow(def, value);
    if (index !== null) {
      const prefix = indexEntryPrefix(index, row);
      if (prefix === null || !inRange(prefix + pk, scan)) return 'no';
    }
    return evalPredicate(scan.filter, row) ? 'yes' : 'no';
  } catch {
    return 'error';
  }
}

function inRange(k: string, scan: ScanPredicate): boolean {
  return k >= scan.lo && (scan.hi === null || k < scan.hi);
}

