// PostgreSQL text input and output of values: `formatText` prints exactly what PostgreSQL's output
// functions print (numeric with its display scale, floats as the shortest round-trip decimal like
// PostgreSQL 12+, booleans as t/f, ISO dates), and `parseText` reads what its input functions accept,
// failing with the same SQLSTATEs (22P02 malformed, 22003 out of range, 22007/22008 bad dates; bytea's
// in bytea.ts).

import { SqlError, SqlState } from './errors.ts';
import { Numeric } from './numeric.ts';
import { SqlDate, SqlTimestamp, formatDate, formatTimestamp, formatTimestampTz, timestampToDate } from './datetime.ts';
import { applyTypmod } from './typmod.ts';
import { formatBytea, parseBytea } from './bytea.ts';
import { SqlInterval, formatInterval, parseInterval } from './interval.ts';
import { SqlTime, formatTime, roundTime } from './time.ts';
import { parseDate, parseTime, parseTimeTz, parseTimestamp, parseTimestampTz } from './datetime-input.ts';
import { SqlTimeTz, formatTimeTz, roundTimeTz } from './timetz.ts';
import { SqlJson, SqlJsonb, parseJson, parseJsonb } from './json.ts';
import { arrayElementType, truncateName, type SqlType, type SqlValue } from './types.ts';
import { SqlArray } from './sql-array.ts';
import { formatArrayText, formatVectorText, parseArrayText, parseVectorText } from './array-format.ts';
import { SqlRecord, anonymousRecordInput, formatRecordText } from './record.ts';

/** Shortest round-trip decimal in PostgreSQL's layout (exponent form below 1e-4 and from 1e15, 1e6 for real). */
export function formatFloat(x: number, float4 = false): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  let e: string;
  if (float4) {
    let p = 1;
    while (p < 9 && Math.fround(Number(x.toPrecision(p))) !== x) p++;
    e = x.toExponential(p - 1);
  } else {
    e = x.toExponential();
  }
  const neg = e.startsWith('-');
  const body = neg ? e.slice(1) : e;
  const ePos = body.indexOf('e');
  const mant = body.slice(0, ePos);
  const exp = Number(body.slice(ePos + 1));
  const digits = mant.replace('.', '');
  let out: string;
  if (exp < -4 || exp >= (float4 ? 6 : 15)) {
    const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    const ae = Math.abs(exp);
    out = `${m}e${exp < 0 ? '-' : '+'}${ae < 10 ? '0' + String(ae) : String(ae)}`;
  } else if (exp < 0) {
    out = '0.' + '0'.repeat(-exp - 1) + digits;
  } else if (digits.length <= exp + 1) {
    out = digits + '0'.repeat(exp + 1 - digits.length);
  } else {
    out = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  }
  return neg ? '-' + out : out;
}

/**
 * PostgreSQL's text output of a non-null value of the given type. NULL has no text form (the wire
 * protocol sends length -1); for convenience it prints as 'NULL'.
 */
export function formatText(value: SqlValue, type: SqlType): string {
  if (value === null) return 'NULL';
  switch (typeof value) {
    case 'boolean':
      return value ? 't' : 'f';
    case 'bigint':
      return value.toString();
    case 'string':
      return value;
    case 'number':
      if (type === 'float8' || type === 'unknown') return formatFloat(value);
      if (type === 'float4') return formatFloat(value, true);
      if (type === 'numeric') return Numeric.fromFloat(value)?.toString() ?? formatFloat(value);
      return Number.isInteger(value) ? String(value) : formatFloat(value);
    case 'object':
      if (value instanceof Numeric) return value.toString();
      if (value instanceof Uint8Array) return formatBytea(value);
      if (value instanceof SqlArray) return type === 'int2vector' || type === 'oidvector' ? formatVectorText(value) : formatArrayText(value);
      if (value instanceof SqlInterval) return formatInterval(value);
      if (value instanceof SqlTime) return formatTime(value.micros);
      if (value instanceof SqlTimeTz) return formatTimeTz(value);
      if (value instanceof SqlRecord) return formatRecordText(value.items.map((v, i) => (v === null ? null : formatText(v, value.types[i] ?? 'unknown'))));
      if (value instanceof SqlJson || value instanceof SqlJsonb) return value.toString();
      if (value instanceof SqlDate) return formatDate(value.days);
      if (value instanceof SqlTimestamp) {
        if (type === 'date') return formatDate(timestampToDate(value).days);
        return type === 'timestamptz' ? formatTimestampTz(value.micros) : formatTimestamp(value.micros);
      }
      return String(value);
    default:
      return String(value);
  }
}

const intRe = /^\s*[+-]?\d+\s*$/;
const floatRe = /^\s*[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)\s*$/;
const intNames = { int2: 'smallint', int4: 'integer', int8: 'bigint' } as const;
const intBounds = { int2: [-32768, 32767], int4: [-2147483648, 2147483647] } as const;

function invalid(typeName: string, text: string): SqlError {
  return new SqlError(SqlState.invalidTextRepresentation, `invalid input syntax for type ${typeName}: "${text}"`);
}
function outOfRange(typeName: string, text: string): SqlError {
  return new SqlError(SqlState.numericValueOutOfRange, `value "${text}" is out of range for type ${typeName}`);
}

export function parseInt8Text(text: string): number | bigint {
  if (!intRe.test(text)) throw invalid('bigint', text);
  const n = Number(text);
  if (Number.isSafeInteger(n)) return n;
  const b = BigInt(text.trim());
  if (b < -(2n ** 63n) || b > 2n ** 63n - 1n) throw outOfRange('bigint', text);
  return b;
}

export function parseBoolText(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (t.length > 0) {
    if ('true'.startsWith(t) || 'yes'.startsWith(t) || t === 'on' || t === '1') return true;
    if ('false'.startsWith(t) || 'no'.startsWith(t) || t === 'off' || t === '0' || t === 'of') {
      if (t !== 'o') return false;
    }
  }
  throw invalid('boolean', text);
}

export function parseFloatText(text: string, float4: boolean): number {
  const name = float4 ? 'real' : 'double precision';
  const t = text.trim().toLowerCase();
  let v: number;
  if (t === 'nan') v = NaN;
  else if (t === 'infinity' || t === '+infinity' || t === 'inf' || t === '+inf') v = Infinity;
  else if (t === '-infinity' || t === '-inf') v = -Infinity;
  else {
    if (!floatRe.test(text)) throw invalid(name, text);
    v = Number(t);
    if (!Number.isFinite(v)) throw outOfRange(name, text);
    if (float4) {
      const f = Math.fround(v);
      if (!Number.isFinite(f)) throw outOfRange(name, text);
      return f;
    }
  }
  return float4 ? Math.fround(v) : v;
}

/**
 * Parses PostgreSQL text input for a type (parameters, string literals, casts from text). `now`, the
 * transaction's timestamp, is what date/time input's 'now', 'today' and the like read (null: unknown here).
 */
export function parseText(text: string, type: SqlType, typmod = -1, now: SqlTimestamp | null = null): SqlValue {
  switch (type) {
    case 'int2':
    case 'int4': {
      if (!intRe.test(text)) throw invalid(intNames[type], text);
      const n = Number(text);
      const [lo, hi] = intBounds[type];
      if (n < lo || n > hi) throw outOfRange(intNames[type], text);
      return n;
    }
    case 'int8':
      return parseInt8Text(text);
    case 'numeric': {
      const n = Numeric.parse(text);
      if (n === null) throw invalid('numeric', text);
      return typmod >= 0 ? applyTypmod(n, 'numeric', typmod, false) : n;
    }
    case 'float4':
      return parseFloatText(text, true);
    case 'float8':
      return parseFloatText(text, false);
    case 'bool':
      return parseBoolText(text);
    case 'text':
    case 'unknown':
      return text;
    case 'name':
      return truncateName(text);
    case 'varchar':
    case 'bpchar':
      return typmod >= 0 ? applyTypmod(text, type, typmod, false) : text;
    case 'date':
      return parseDate(text, { now });
    case 'timestamp':
      return typmod >= 0 ? applyTypmod(parseTimestamp(text, { now }), type, typmod, false) : parseTimestamp(text, { now });
    case 'timestamptz':
      return typmod >= 0 ? applyTypmod(parseTimestampTz(text, { now }), type, typmod, false) : parseTimestampTz(text, { now });
    case 'uuid':
      return parseUuid(text);
    case 'bytea':
      return parseBytea(text);
    case 'interval':
      return parseInterval(text);
    case 'time':
      return typmod >= 0 ? roundTime(parseTime(text, { now }), typmod) : parseTime(text, { now });
    case 'timetz':
      return typmod >= 0 ? roundTimeTz(parseTimeTz(text, { now }), typmod) : parseTimeTz(text, { now });
    case 'json':
      return parseJson(text);
    case 'jsonb':
      return parseJsonb(text);
    case 'int2vector':
      return parseVectorText(text, 'int2');
    case 'oidvector':
      return parseVectorText(text, 'int4');
    case 'enum':
      // A label not yet resolved against its type: the statement's parameter or column resolves it (enum-types.ts).
      return text;
    case 'record':
      throw anonymousRecordInput();
    case 'void':
      // void_in: any text is the one value.
      return '';
    default:
      // An array: only casts give one a typmod, and they apply it to each element as an explicit cast
      // (varchar(1)[] truncates).
      return parseArrayText(text, arrayElementType(type), typmod);
  }
}

/**
 * uuid input as PostgreSQL takes it: 32 hex digits, optionally in braces, with a hyphen after any group
 * of four; the canonical text back.
 */
export function parseUuid(text: string): string {
  const m = /^\s*(\{)?((?:[0-9a-fA-F]{4}-?){7}[0-9a-fA-F]{4})(\})?\s*$/.exec(text);
  if (m === null || (m[1] === undefined) !== (m[3] === undefined)) throw invalid('uuid', text);
  return uuidOfHex(m[2]!.replace(/-/g, '').toLowerCase());
}

/** The canonical text of a uuid from its 32 lower-case hex digits: 8-4-4-4-12. */
export function uuidOfHex(h: string): string {
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
