// time (without time zone), a time of day, as PostgreSQL 15 has it (utils/adt/date.c and datetime.c).
//
// A value is the microseconds since midnight, in [0, 24:00:00]: PostgreSQL accepts '24:00:00' as a time
// of its own (it sorts after 23:59:59.999999 and prints as 24:00:00), so the range is closed. A double
// holds every value exactly (the largest is 8.64e10).
//
// Text input is read by the date/time input parser all five types share (datetime-input.ts parseTime).
// Text output is 'HH:MM:SS' with the fraction's trailing zeros dropped; the binary form is int64
// microseconds, big-endian.

import { SqlError, SqlState } from './errors.ts';
import { MICROS_PER_DAY } from './datetime.ts';
import { SqlInterval } from './interval.ts';
import { extractInterval } from './interval-arith.ts';
import type { Numeric } from './numeric.ts';

export class SqlTime {
  /** Invariant: an integer in [0, MICROS_PER_DAY]. */
  readonly micros: number;
  constructor(micros: number) {
    this.micros = micros;
  }
  toString(): string {
    return formatTime(this.micros);
  }
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

export function formatTime(micros: number): string {
  const h = Math.floor(micros / 3_600_000_000);
  let rest = micros - h * 3_600_000_000;
  const mi = Math.floor(rest / 60_000_000);
  rest -= mi * 60_000_000;
  const s = Math.floor(rest / 1_000_000);
  const us = rest - s * 1_000_000;
  const frac = us > 0 ? '.' + pad(us, 6).replace(/0+$/, '') : '';
  return `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac}`;
}

/** time(p): rounded to p fractional digits, half up, as AdjustTimeForTypmod (24:00:00 may result). */
export function roundTime(v: SqlTime, precision: number): SqlTime {
  if (precision < 0 || precision >= 6) return v;
  const scale = 10 ** (6 - precision);
  const r = Math.floor((v.micros + scale / 2) / scale) * scale;
  return r === v.micros ? v : new SqlTime(r);
}

/** A time of day from microseconds that may leave the day: wrapped into [0, 24h) (time ± interval). */
export function wrapTime(micros: bigint): SqlTime {
  const day = BigInt(MICROS_PER_DAY);
  const r = micros % day;
  return new SqlTime(Number(r < 0n ? r + day : r));
}

/** time ± interval: the interval's time field added modulo a day (its months and days are ignored). */
export function addTimeInterval(t: SqlTime, iv: SqlInterval, sign: 1 | -1): SqlTime {
  return wrapTime(BigInt(t.micros) + (sign === 1 ? iv.micros : -iv.micros));
}

/** time -> interval: the time of day as the interval's time field. */
export function timeToInterval(v: SqlTime): SqlInterval {
  return new SqlInterval(0, 0, BigInt(v.micros));
}

/** The units extract takes from a time (time_part_common): the clock's, and epoch (seconds since midnight). */
const timeUnits = /^(?:microseconds?|us|usecs?|useconds|milliseconds?|ms|msecs?|mseconds|seconds?|s|secs?|minutes?|m|mins?|hours?|h|hrs?|epoch)$/;
/** Units PostgreSQL knows that a time does not have (0A000 rather than 22023 "not recognized"). */
const dateUnits = /^(?:days?|d|months?|mons?|quarter|qtr|years?|y|yrs?|decades?|decs?|century|centuries|c|cent|millennium|millennia|mils?|dow|doy|isodow|isoyear|weeks?|w|timezone|timezone_hour|timezone_minute|julian|j)$/;

/** extract(field FROM time): the clock's fields as the same time-of-day interval's, as numeric. */
export function extractTime(field: string, t: SqlTime): Numeric {
  const f = field.toLowerCase();
  if (timeUnits.test(f)) return extractInterval(f, timeToInterval(t));
  if (dateUnits.test(f)) throw new SqlError(SqlState.featureNotSupported, `unit "${field}" not supported for type time without time zone`);
  throw new SqlError(SqlState.invalidParameterValue, `unit "${field}" not recognized for type time without time zone`);
}

/** make_time(hour, min, sec): 22008 outside a day, as PostgreSQL's make_time checks its fields. */
export function makeTime(h: number, mi: number, sec: number): SqlTime {
  const micros = Math.round(((h * 60 + mi) * 60) * 1_000_000 + sec * 1_000_000);
  if (h < 0 || mi < 0 || mi > 59 || sec < 0 || sec > 60 || micros > MICROS_PER_DAY) {
    throw new SqlError(SqlState.datetimeFieldOverflow, `time field value out of range: ${h}:${pad(mi, 2)}:${pad(Number(sec.toFixed(6)), 2)}`);
  }
  return new SqlTime(micros);
}

// ---- binary form -------------------------------------------------------------------------------------

/** time_send: int64 microseconds since midnight. */
export function encodeTimeBinary(v: SqlTime): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, BigInt(v.micros));
  return out;
}

/** time_recv: 22008 outside [0, 24:00:00], as PostgreSQL rejects it. */
export function decodeTimeBinary(b: Uint8Array): SqlTime {
  if (b.length !== 8) throw new SqlError(SqlState.protocolViolation, 'insufficient data left in message');
  const us = new DataView(b.buffer, b.byteOffset, b.byteLength).getBigInt64(0);
  if (us < 0n || us > BigInt(MICROS_PER_DAY)) throw new SqlError(SqlState.datetimeFieldOverflow, 'time out of range');
  return new SqlTime(Number(us));
}
