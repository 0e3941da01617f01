// Scalar functions with PostgreSQL semantics (string functions count characters, substr clamps like
// PostgreSQL, round() on numeric rounds half away from zero and on float half to even, now() and
// CURRENT_DATE come from the execution context; bytea's in bytea.ts). Typing lives in lower-func.ts;
// this is evaluation only.

import { callAdvisory } from './advisory-locks.ts';
import { SqlRecord } from './record.ts';
import { SqlTimeTz, extractTimeTz, resolveZone, timeTzAtZone } from './timetz.ts';
import { instantOfWallClock, wallClockOf } from './time-zones.ts';
import { md5, md5Bytes } from './md5.ts';
import { nameBasedUuid, timeBasedUuid } from './extensions.ts';
import { quoteIdentifier, quoteLiteral } from './quote.ts';
import { SqlArray } from './sql-array.ts';
import type { Expr } from './expr.ts';
import { evalExpr, strictArgs, type Env } from './eval.ts';
import { formatTypeSpec, normInt8, typeDisplayName, typeFromOid, type Row, type SqlValue } from './types.ts';
import { Numeric, rint } from './numeric.ts';
import { numericExp, numericLn, numericLog, numericSqrt } from './numeric-math.ts';
import {
  SqlDate, SqlTimestamp, TIMESTAMP_INFINITY_MICROS, checkedDate, checkedTimestamp, civilFromDays, daysFromCivil, dateToTimestamp, instantOfLocal,
  isFiniteTimestamp, localOf, timestampOfEpochSeconds, timestampToDate,
} from './datetime.ts';
import { extractDate, extractTimestamp } from './datetime-extract.ts';
import { sessionZone } from './session-zone.ts';
import { toChar } from './to-char.ts';
import { toCharNumber } from './to-char-number.ts';
import { toNumber } from './to-number.ts';
import { toTimestamp } from './to-date.ts';
import { SqlError, SqlState, InvariantError } from './errors.ts';
import { compareValues, arith, intOutOfRange } from './ops.ts';
import { castValue } from './cast.ts';
import { evalPrivilegeFunction } from './privilege-functions.ts';
import { formatText } from './value-text.ts';
import { uuidText } from './value-binary.ts';
import { decodeBytes, encodeBytes, positionBytes, substrBytes } from './bytea.ts';
import { SqlInterval } from './interval.ts';
import { evalJsonFunction, jsonFunctions } from './json-eval.ts';
import { arrayFunctions, evalArrayFunction } from './array-eval.ts';
import { SqlTime, extractTime, makeTime } from './time.ts';
import { evalRegexFunction, regexFunctions } from './regex-eval.ts';
import { builtinFunctions, evalBuiltinFunction } from './builtins-eval.ts';
import { evalSessionFunction, sessionFunctions } from './session-time.ts';
import { age, extractInterval, truncInterval, justifyDays, justifyHours, justifyInterval } from './interval-arith.ts';

type FuncExpr = Extract<Expr, { k: 'func' }>;

const chars = (s: string): string[] => Array.from(s);

function ctxNow(env: Env): SqlTimestamp {
  if (env.ctx === null) throw new InvariantError('now() evaluated without an execution context');
  return env.ctx.now;
}

function trimChars(s: string, set: string, left: boolean, right: boolean): string {
  const cs = new Set(chars(set));
  const a = chars(s);
  let i = 0;
  let j = a.length;
  if (left) while (i < j && cs.has(a[i] as string)) i++;
  if (right) while (j > i && cs.has(a[j - 1] as string)) j--;
  return a.slice(i, j).join('');
}

/**
 * timestamptz_age's wall clock in the session's zone: PostgreSQL 15 takes 'infinity' apart like any
 * instant (INT64_MAX microseconds since 2000, in the zone's rules of year 294277), so this does too.
 */
function ageWallClock(t: SqlTimestamp): SqlTimestamp {
  return t.micros === TIMESTAMP_INFINITY_MICROS ? new SqlTimestamp(wallClockOf(sessionZone(), t.micros)) : localOf(t);
}

/** make_date(y, m, d) and make_timestamp(y, m, d, h, mi, s) as PostgreSQL checks them (a negative year is BC). */
function makeDateTime(v: readonly number[], dateOnly: boolean): SqlDate | SqlTimestamp {
  const [y0, m, d, h = 0, mi = 0, s = 0] = v as [number, number, number, number?, number?, number?];
  const shown = `${y0}-${pad2(m)}-${pad2(d)}`;
  const y = y0 < 0 ? y0 + 1 : y0;
  if (y0 === 0) throw new SqlError(SqlState.datetimeFieldOverflow, `date field value out of range: ${shown}`);
  if (m < 1 || m > 12 || d < 1 || d > daysFromCivil(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1) - daysFromCivil(y, m, 1)) {
    throw new SqlError(SqlState.datetimeFieldOverflow, `date field value out of range: ${shown}`);
  }
  const days = daysFromCivil(y, m, d);
  if (dateOnly) return checkedDate(days);
  if (h < 0 || h > 24 || mi < 0 || mi > 59 || !(s >= 0 && s <= 60) || (h === 24 && (mi > 0 || s > 0))) {
    throw new SqlError(SqlState.datetimeFieldOverflow, `time field value out of range: ${h}:${pad2(mi)}:${pad2(s)}`);
  }
  return checkedTimestamp(SqlTimestamp.of(days, ((h * 60 + mi) * 60) * 1_000_000 + Math.round(s * 1_000_000)).micros);
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function Date_UTC_days(y: number): number {
  const z = y - 1;
  return z * 365 + Math.floor(z / 4) - Math.floor(z / 100) + Math.floor(z / 400) - 719162;
}


function num(v: SqlValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Numeric) return v.toNumber();
  throw new InvariantError(`not a number: ${String(v)}`);
}

function toInt(v: SqlValue): number {
  return Number(v);
}

export function evalFunction(e: FuncExpr, row: Row, env: Env): SqlValue {
  if (jsonFunctions.has(e.fn)) return evalJsonFunction(e, row, env);
  if (arrayFunctions.has(e.fn)) return evalArrayFunction(e, row, env);
  if (regexFunctions.has(e.fn)) return evalRegexFunction(e, row, env);
  if (builtinFunctions.has(e.fn)) return evalBuiltinFunction(e, row, env);
  if (sessionFunctions.has(e.fn)) return evalSessionFunction(e, row, env);
  const a = e.args;
  // Functions that do not simply propagate NULL.
  switch (e.fn) {
    case 'row':
      // ROW(...), (a, b), a whole-row reference (lower-row.ts): a record of its fields, NULLs included.
      return new SqlRecord(a.map((x) => evalExpr(x, row, env)), a.map((x) => x.t));
    case 'coalesce':
      for (const x of a) {
        const v = evalExpr(x, row, env);
        if (v !== null) return v;
      }
      return null;
    case 'nullif': {
      const l = evalExpr(a[0] as Expr, row, env);
      const r = evalExpr(a[1] as Expr, row, env);
      return l !== null && r !== null && compareValues(l, r, (a[0] as Expr).t) === 0 ? null : l;
    }
    case 'greatest':
    case 'least': {
      let best: SqlValue = null;
      for (const x of a) {
        const v = evalExpr(x, row, env);
        if (v === null) continue;
        if (best === null || (e.fn === 'greatest' ? compareValues(v, best, e.t) > 0 : compareValues(v, best, e.t) < 0)) best = v;
      }
      return best;
    }
    case 'concat':
    case 'concat_ws': {
      const vals = a.map((x) => evalExpr(x, row, env));
      // Each value's output form, as PostgreSQL's concat writes it (a boolean is t or f, not true or false).
      const text = (v: SqlValue, i: number): string => ((a[i] as Expr).t === 'bool' ? (v === true ? 't' : 'f') : castValue(v, (a[i] as Expr).t, 'text') as string);
      if (e.fn === 'concat') return vals.map((v, i) => (v === null ? '' : text(v, i))).join('');
      const sep = vals[0];
      if (sep === null || sep === undefined) return null;
      return vals.slice(1).map((v, i) => (v === null ? null : text(v, i + 1))).filter((s) => s !== null).join(String(sep));
    }
    case 'now':
    case 'current_timestamp':
    case 'localtimestamp':
    case 'transaction_timestamp':
      // LOCALTIMESTAMP (bound as now() of type timestamp): the session zone's wall clock.
      return e.t === 'timestamp' ? localOf(ctxNow(env)) : ctxNow(env);
    case 'current_date':
      return timestampToDate(localOf(ctxNow(env)));
    case 'localtime':
      return new SqlTime(localOf(ctxNow(env)).timeOfDay);
    case 'version':
      return 'PostgreSQL 15.0 (Pesto)';
    case 'uuid_generate_v1':
    case 'uuid_generate_v1mc': {
      const random = env.ctx?.random;
      if (random === undefined) throw new SqlError(SqlState.featureNotSupported, `${e.fn}() is not available in statements the replicas run: they must all compute one result`);
      return timeBasedUuid(ctxNow(env).micros, random(8));
    }
    case 'uuid_generate_v3':
    case 'uuid_generate_v5': {
      const [ns, name] = [evalExpr(a[0] as Expr, row, env), evalExpr(a[1] as Expr, row, env)];
      return ns === null || name === null ? null : nameBasedUuid(e.fn === 'uuid_generate_v3' ? 3 : 5, String(ns), String(name));
    }
    case 'pg_advisory_lock': case 'pg_advisory_lock_shared': case 'pg_advisory_xact_lock': case 'pg_advisory_xact_lock_shared':
    case 'pg_try_advisory_lock': case 'pg_try_advisory_lock_shared': case 'pg_try_advisory_xact_lock': case 'pg_try_advisory_xact_lock_shared':
    case 'pg_advisory_unlock': case 'pg_advisory_unlock_shared': case 'pg_advisory_unlock_all':
      return callAdvisory(e.fn, a.map((x) => evalExpr(x, row, env)), env.ctx?.advisory);
    case 'random': {
      const random = env.ctx?.random;
      if (random === undefined) throw new SqlError(SqlState.featureNotSupported, `${e.fn}() is not available in statements the replicas run: they must all compute one result`);
      // 53 random bits: uniform in [0, 1), as PostgreSQL's.
      const b = random(8);
      return ((b[0]! & 0x1f) * 2 ** 48 + (b[1]! * 2 ** 40) + (b[2]! * 2 ** 32) + ((b[3]! << 24) >>> 0) + (b[4]! << 16) + (b[5]! << 8) + b[6]!) / 2 ** 53;
    }
    case 'gen_random_uuid':
    case 'uuid_generate_v4': {
      const random = env.ctx?.random;
      if (random === undefined) throw new SqlError(SqlState.featureNotSupported, `${e.fn}() is not available in statements the replicas run: they must all compute one result`);
      // Version 4 (random), RFC 4122 variant.
      const b = Uint8Array.from(random(16));
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      return uuidText(b);
    }
    case 'current_database':
    case 'current_user':
    case 'session_user': {
      const id = env.ctx?.identity;
      if (id === undefined) throw new SqlError(SqlState.featureNotSupported, `${e.fn} is not available in statements the replicas run: the client answers it`);
      return e.fn === 'current_database' ? id.database : id.user;
    }
    case 'current_schema':
      return 'public';
    case 'has_table_privilege': case 'has_sequence_privilege': case 'has_schema_privilege': case 'has_database_privilege':
      return evalPrivilegeFunction(e.fn, a.map((x) => evalExpr(x, row, env)), env.ctx?.catalog, env.ctx?.identity);
    case 'format_type': {
      // NULL type: NULL; NULL modifier: the type without one (PostgreSQL's format_type).
      const oid = evalExpr(a[0] as Expr, row, env);
      if (oid === null) return null;
      const mod = evalExpr(a[1] as Expr, row, env);
      const type = typeFromOid(num(oid));
      if (type === undefined) return '???';
      if (mod === null) return typeDisplayName[type];
      const typmod = num(mod);
      return type === 'bpchar' && typmod < 0 ? 'bpchar' : formatTypeSpec({ type, typmod });
    }
    case 'nextval':
    case 'currval':
    case 'setval':
    case 'lastval':
    case 'sequence_last_value':
    case 'sequence_is_called': {
      const seqs = env.ctx?.sequences;
      if (seqs === undefined) throw new SqlError(SqlState.featureNotSupported, `${e.fn} is not available in statements the replicas run: the client answers it`);
      if (e.fn === 'lastval') return normInt8(seqs.lastval());
      const id = evalExpr(a[0] as Expr, row, env);
      if (id === null) return null;
      // A sequence in FROM (lower-sequence.ts bindSequenceRelation).
      if (e.fn === 'sequence_last_value') return normInt8(seqs.state(num(id)).last);
      if (e.fn === 'sequence_is_called') return seqs.state(num(id)).called;
      if (e.fn === 'nextval') return normInt8(seqs.nextval(num(id)));
      if (e.fn === 'currval') return normInt8(seqs.currval(num(id)));
      const v = evalExpr(a[1] as Expr, row, env);
      const called = a.length > 2 ? evalExpr(a[2] as Expr, row, env) : true;
      if (v === null || called === null) return null;
      return normInt8(seqs.setval(num(id), BigInt(v as number | bigint), called === true));
    }
    default:
      break;
  }
  const v = strictArgs(a, row, env);
  if (v === null) return null;
  const s0 = (): string => String(v[0]);
  switch (e.fn) {
    case 'abs': {
      const x = v[0] as SqlValue;
      if (x instanceof Numeric) return x.abs();
      if (typeof x === 'bigint') return x < 0n ? arith('-', 0, x, 'int8') : x;
      const n = x as number;
      if (e.t === 'int4' && n === -2147483648) throw intOutOfRange('int4');
      if (e.t === 'int2' && n === -32768) throw intOutOfRange('int2');
      if (e.t === 'int8' && n < 0) return arith('-', 0, n, 'int8');
      return Math.abs(n);
    }
    case 'lower':
      return s0().toLowerCase();
    case 'upper':
      return s0().toUpperCase();
    case 'quote_ident':
      return quoteIdentifier(s0());
    case 'quote_literal':
      return quoteLiteral(s0());
    case 'split_part': {
      const n = toInt(v[2] ?? 0);
      if (n === 0) throw new SqlError(SqlState.invalidParameterValue, 'field position must not be zero');
      const sep = String(v[1]);
      const parts = sep === '' ? [s0()] : s0().split(sep);
      return (n > 0 ? parts[n - 1] : parts[parts.length + n]) ?? '';
    }
    case 'length':
    case 'char_length':
    case 'character_length': {
      if (v[0] instanceof Uint8Array) return v[0].length;
      const s = (a[0] as Expr).t === 'bpchar' ? s0().replace(/ +$/, '') : s0();
      return chars(s).length;
    }
    case 'array_length':
      // One dimension: its length, NULL for an empty array (a vector's keeps its dimension: 0) or any other dimension.
      return v[0] instanceof SqlArray && (v[0].length > 0 || v[0].lower === 0) && v[1] === 1 ? v[0].length : null;
    case 'cardinality':
      return v[0] instanceof SqlArray ? v[0].length : null;
    case 'array_lower':
    case 'array_upper':
      // Its first or last subscript in dimension 1 (an empty vector's are 0 and -1), NULL for an empty
      // array or any other dimension.
      if (!(v[0] instanceof SqlArray) || (v[0].length === 0 && v[0].lower !== 0) || v[1] !== 1) return null;
      return e.fn === 'array_lower' ? v[0].lower : v[0].lower + v[0].length - 1;
    case 'octet_length':
      if (v[0] instanceof Uint8Array) return v[0].length;
      return new TextEncoder().encode(s0()).length;
    case 'substr':
    case 'substring': {
      if (v[0] instanceof Uint8Array) return substrBytes(v[0], toInt(v[1] ?? 1), v.length < 3 ? undefined : toInt(v[2] ?? 0));
      const cs = chars(s0());
      const from = toInt(v[1] ?? 1);
      if (v.length < 3) return cs.slice(Math.max(from - 1, 0)).join('');
      const len = toInt(v[2] ?? 0);
      if (len < 0) throw new SqlError('22011', 'negative substring length not allowed');
      const end = from + len; // exclusive, 1-based
      const start = Math.max(from, 1);
      if (end <= start) return '';
      return cs.slice(start - 1, end - 1).join('');
    }
    case 'strpos':
    case 'position': {
      if (v[0] instanceof Uint8Array && v[1] instanceof Uint8Array) return positionBytes(v[0], v[1]);
      const needle = String(v[1]);
      const idx = s0().indexOf(needle);
      if (idx < 0) return 0;
      return chars(s0().slice(0, idx)).length + 1;
    }
    case 'btrim':
    case 'trim':
      return trimChars(s0(), v.length > 1 ? String(v[1]) : ' ', true, true);
    case 'ltrim':
      return trimChars(s0(), v.length > 1 ? String(v[1]) : ' ', true, false);
    case 'rtrim':
      return trimChars(s0(), v.length > 1 ? String(v[1]) : ' ', false, true);
    case 'replace': {
      const from = String(v[1]);
      return from === '' ? s0() : s0().split(from).join(String(v[2]));
    }
    case 'left':
    case 'right': {
      const cs = chars(s0());
      const n = toInt(v[1] ?? 0);
      if (e.fn === 'left') return (n >= 0 ? cs.slice(0, n) : cs.slice(0, Math.max(cs.length + n, 0))).join('');
      return (n >= 0 ? cs.slice(Math.max(cs.length - n, 0)) : cs.slice(Math.min(-n, cs.length))).join('');
    }
    case 'lpad':
    case 'rpad': {
      const cs = chars(s0());
      const n = toInt(v[1] ?? 0);
      const fill = chars(v.length > 2 ? String(v[2]) : ' ');
      if (n <= 0) return '';
      if (cs.length >= n) return cs.slice(0, n).join('');
      if (fill.length === 0) return cs.join('');
      const pad: string[] = [];
      while (pad.length < n - cs.length) pad.push(fill[pad.length % fill.length] as string);
      return e.fn === 'lpad' ? pad.join('') + cs.join('') : cs.join('') + pad.join('');
    }
    case 'repeat':
      return s0().repeat(Math.max(0, toInt(v[1] ?? 0)));
    case 'reverse':
      return chars(s0()).reverse().join('');
    case 'initcap':
      return s0().toLowerCase().replace(/(^|[^a-z0-9])([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase());
    case 'encode':
      if (v[0] instanceof Uint8Array) return encodeBytes(v[0], String(v[1]));
      throw new InvariantError('encode() of a value that is not bytea');
    case 'decode':
      return decodeBytes(s0(), String(v[1]));
    case 'md5':
      return v[0] instanceof Uint8Array ? md5Bytes(v[0]) : md5(s0());
    case 'round':
    case 'trunc': {
      const x = v[0] as SqlValue;
      const sc = v.length > 1 ? toInt(v[1] ?? 0) : 0;
      if (x instanceof Numeric) return e.fn === 'round' ? x.round(sc) : x.trunc(sc);
      const n = num(x);
      return e.fn === 'round' ? rint(n) : Math.trunc(n);
    }
    case 'ceil':
    case 'ceiling': {
      const x = v[0] as SqlValue;
      return x instanceof Numeric ? x.ceil() : Math.ceil(num(x));
    }
    case 'floor': {
      const x = v[0] as SqlValue;
      return x instanceof Numeric ? x.floor() : Math.floor(num(x));
    }
    case 'sign': {
      const x = v[0] as SqlValue;
      return x instanceof Numeric ? Numeric.fromInteger(x.sign()) : Math.sign(num(x));
    }
    case 'sqrt': {
      if (e.t === 'numeric') return numericSqrt(v[0] as Numeric);
      const n = num(v[0] ?? 0);
      if (n < 0) throw new SqlError('2201F', 'cannot take square root of a negative number');
      return Math.sqrt(n);
    }
    case 'power':
    case 'pow': {
      const base = num(v[0] ?? 0);
      const exp = num(v[1] ?? 0);
      if (base === 0 && exp < 0) throw new SqlError('2201F', 'zero raised to a negative power is undefined');
      if (base < 0 && !Number.isInteger(exp)) throw new SqlError('2201F', 'a negative number raised to a non-integer power yields a complex result');
      const r = Math.pow(base, exp);
      return e.t === 'numeric' ? (Numeric.fromFloat(r) ?? Numeric.zero) : r;
    }
    case 'exp':
      return e.t === 'numeric' ? numericExp(v[0] as Numeric) : Math.exp(num(v[0] ?? 0));
    case 'ln':
    case 'log': {
      // numeric: PostgreSQL's exact digits and scales; log(numeric) is log(10, x).
      if (e.t === 'numeric') return e.fn === 'ln' ? numericLn(v[0] as Numeric) : numericLog(Numeric.fromInteger(10), v[0] as Numeric);
      const n = num(v[0] ?? 0);
      if (n === 0) throw new SqlError('2201E', 'cannot take logarithm of zero');
      if (n < 0) throw new SqlError('2201E', 'cannot take logarithm of a negative number');
      const r = e.fn === 'ln' ? Math.log(n) : Math.log10(n);
      return r;
    }
    case 'mod':
      return arith('%', v[0] ?? null, v[1] ?? null, e.t);
    case 'int2and': case 'int4and': case 'int8and': case 'int2or': case 'int4or': case 'int8or': case 'int2xor': case 'int4xor': case 'int8xor': {
      // In range for the operands' type whatever the bits (two's complement).
      const a = BigInt(v[0] as number | bigint);
      const b = BigInt(v[1] as number | bigint);
      const r = e.fn.endsWith('xor') ? a ^ b : e.fn.endsWith('and') ? a & b : a | b;
      return e.t === 'int8' ? normInt8(r) : Number(r);
    }
    case 'div': {
      const x = v[0] as Numeric;
      const y = v[1] as Numeric;
      if (y.coef === 0n) throw new SqlError(SqlState.divisionByZero, 'division by zero');
      return x.divTrunc(y);
    }
    case 'age':
      // timestamptz_age: the two wall clocks in the session's zone.
      if ((e.args[0] as Expr).t === 'timestamptz') return age(ageWallClock(v[0] as SqlTimestamp), ageWallClock(v[1] as SqlTimestamp));
      return age(v[0] as SqlTimestamp, v[1] as SqlTimestamp);
    case 'justify_days':
      return justifyDays(v[0] as SqlInterval);
    case 'justify_hours':
      return justifyHours(v[0] as SqlInterval);
    case 'justify_interval':
      return justifyInterval(v[0] as SqlInterval);
    case 'timezone': {
      // timestamp_zone and timestamptz_zone: an infinite timestamp is itself, before the zone is looked up.
      if (v[1] instanceof SqlTimestamp && !isFiniteTimestamp(v[1])) return v[1];
      const zone = resolveZone(v[0] instanceof SqlInterval ? v[0] : String(v[0]));
      if (!(v[1] instanceof SqlTimestamp)) {
        // A region's offset for a time of day is the one at the transaction's timestamp.
        if (zone.kind === 'region' && env.ctx === null) throw new SqlError(SqlState.featureNotSupported, 'time with time zone AT TIME ZONE a named zone needs the transaction\'s timestamp, which this context lacks');
        return timeTzAtZone(v[1] as SqlTimeTz, zone, zone.kind === 'region' ? ctxNow(env).micros : 0n);
      }
      // timestamptz -> the zone's wall clock; timestamp -> the instant it names (time-zones.ts).
      return checkedTimestamp(e.t === 'timestamp' ? wallClockOf(zone, v[1].micros) : instantOfWallClock(zone, v[1].micros));
    }
    case 'date_part':
    case 'extract': {
      const field = String(v[0]);
      const src = v[1] ?? null;
      const numeric = e.fn === 'extract';
      const part = (n: Numeric): Numeric | number => (numeric ? n : Number(n.toString()));
      if (src instanceof SqlInterval) return part(extractInterval(field, src));
      if (src instanceof SqlTime) return part(extractTime(field, src));
      if (src instanceof SqlTimeTz) return part(extractTimeTz(field, src));
      // date_part(text, date) is PostgreSQL's SQL function over the date's timestamp.
      if (src instanceof SqlDate) return numeric ? extractDate(field, src) : extractTimestamp(field, dateToTimestamp(src), false, false);
      if (src instanceof SqlTimestamp) return extractTimestamp(field, src, (e.args[1] as Expr).t === 'timestamptz', numeric);
      throw new InvariantError(`${e.fn} of ${typeof src}`);
    }
    case 'to_number':
      return toNumber(String(v[0]), String(v[1]));
    case 'to_char_number':
      return toCharNumber(v[0] ?? null, (e.args[0] as Expr).t, String(v[1]));
    case 'to_char':
    case 'to_char_tz':
      // timestamp_to_char: NULL for an infinite timestamp.
      if (!isFiniteTimestamp(v[0] as SqlTimestamp)) return null;
      return toChar(v[0] as SqlTimestamp, String(v[1]), e.fn === 'to_char_tz');
    case 'make_time':
      return makeTime(v[0] as number, v[1] as number, v[2] as number);
    case 'date_trunc_interval':
      return truncInterval(String(v[0]), v[1] as SqlInterval);
    case 'make_date':
    case 'make_timestamp':
      return makeDateTime(v as number[], e.fn === 'make_date');
    case 'make_timestamptz': {
      const local = makeDateTime(v.slice(0, 6) as number[], false) as SqlTimestamp;
      return v.length === 7 ? checkedTimestamp(instantOfWallClock(resolveZone(String(v[6])), local.micros)) : instantOfLocal(local);
    }
    case 'to_timestamp': {
      if (v.length === 2) return toTimestamp(String(v[0]), String(v[1]));
      return timestampOfEpochSeconds(v[0] as number);
    }
    case 'date_trunc': {
      // An infinite timestamp is itself, whatever the unit (timestamp_trunc looks at it first).
      if (!isFiniteTimestamp(v[1] as SqlTimestamp)) return v[1] ?? null;
      // timestamptz: truncated on the session zone's wall clock; from a day up, at that day's offset there
      // (timestamptz_trunc's redotz), below it at the value's own offset.
      if (e.t === 'timestamptz') {
        const at = v[1] as SqlTimestamp;
        const local = localOf(at);
        const cut = truncTimestamp(String(v[0]), local);
        const redo = !['hour', 'minute', 'second'].includes(String(v[0]).toLowerCase());
        return redo ? instantOfLocal(cut) : checkedTimestamp(at.micros - (local.micros - cut.micros));
      }
      return truncTimestamp(String(v[0]), v[1] as SqlTimestamp);
    }
    default:
      throw new SqlError(SqlState.undefinedFunction, `function ${e.fn} does not exist`);
  }
}

/** date_trunc(field, timestamp). */
function truncTimestamp(field: string, t: SqlTimestamp): SqlTimestamp {
  const days = t.days;
  const [y] = civilFromDays(days);
  const tod = t.timeOfDay;
  switch (field.toLowerCase()) {
    case 'day': return SqlTimestamp.of(days, 0);
    case 'hour': return SqlTimestamp.of(days, Math.floor(tod / 3_600_000_000) * 3_600_000_000);
    case 'minute': return SqlTimestamp.of(days, Math.floor(tod / 60_000_000) * 60_000_000);
    case 'second': return SqlTimestamp.of(days, Math.floor(tod / 1_000_000) * 1_000_000);
    case 'month': return SqlTimestamp.of(days - civilFromDays(days)[2] + 1, 0);
    case 'year': return checkedTimestamp(SqlTimestamp.of(Date_UTC_days(y), 0).micros);
    default: throw new SqlError(SqlState.invalidParameterValue, `unit "${field}" not recognized`);
  }
}
