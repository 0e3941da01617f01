/**
 * The bytes of a scan predicate inside a transaction (`Predicate.expr`, PROTOCOL §4.3): the scanned key
 * range and the bound filter of one scan, as UTF-8 JSON
 *
 *     { "i": index id or null (primary key), "lo": range start, "hi": range end or null, "f": filter or null }
 *
 * with the filter in the JSON form of sql/expr.ts (`exprToJson`) and `lo`/`hi` the key encodings as
 * latin1 strings (JSON escapes any byte). Replicas produce the bytes from identical scans identically,
 * so 3f+1 matching replies carry identical predicate bytes; the table and table version travel beside
 * them in the `Predicate` message. Bytes from a transaction are untrusted (a Byzantine client wrote
 * them): `decodePredicate` returns null for anything malformed, and evaluation must still catch
 * errors from a well-formed but nonsensical filter.
 */
import { exprFromJson, exprToJson, type Expr } from './expr.ts';

export interface ScanPredicate {
  /** null: a primary-key range; otherwise the secondary index id. */
  readonly indexId: number | null;
  /** The scanned range `[lo, hi)` over the key's encoding (without the table prefix; hi null = end). */
  readonly lo: string;
  readonly hi: string | null;
  /** Bound filter over table rows; null = every row in the range. */
  readonly filter: Expr | null;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

export function encodePredicate(p: ScanPredicate): Uint8Array {
  return utf8.encode(JSON.stringify({ i: p.indexId, lo: p.lo, hi: p.hi, f: p.filter === null ? null : exprToJson(p.filter) }));
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
    return { indexId: i, lo, hi, filter: f === null ? null : exprFromJson(f) };
  } catch {
    return null;
  }
}
