// interval, PostgreSQL's time span, as PostgreSQL 15 has it (utils/adt/timestamp.c and datetime.c).
//
// A value keeps three separate fields, as PostgreSQL's Interval struct does: `months` (int32), `days`
// (int32) and `micros` (int64, the time of day part, held as a bigint). They stay separate because they
// are not convertible without a calendar: '1 mon' added to 2024-01-31 is 2024-02-29 while '30 days' is
// 2024-03-01, and '1 day' across a daylight-saving change is 23 or 25 hours for timestamptz. Only
// comparison folds them together: PostgreSQL compares (and hashes, so GROUP BY and unique keys agree) by a
// span that counts a month as 30 days and a day as 24 hours, so '1 mon' = '30 days' and '1 day' =
// '24:00:00' are equal although they print differently. The span of the largest values needs more than 64
// bits, so it is a bigint here (PostgreSQL uses int128).
//
// Text input takes PostgreSQL's forms: unit words with their abbreviations ('1 year 2 mons', '3d', '1.5
// hours'), a time field ('04:05:06.789', '-02:00' is hours and minutes), a number before a time is days,
// a plain number is seconds, '@' is ignored and 'ago' negates, and ISO 8601 designators ('P1Y2M3DT4H5M6S').
// Text output is IntervalStyle postgres ('1 year 2 mons 3 days 04:05:06.789', '-1 days +02:00:00'); the
// binary form is int64 microseconds, int32 days, int32 months, big-endian.

import { SqlError, SqlState } from './errors.ts';

const usPerSecond = 1_000_000n;
const usPerMinute = 60n * usPerSecond;
const usPerHour = 60n * usPerMinute;
const usPerDay = 24n * usPerHour;
const int32Min = -2147483648;
const int32Max = 2147483647;
const int64Min = -(1n << 63n);
const int64Max = (1n << 63n) - 1n;

export class SqlInterval {
  /** Invariant: months and days are int32, micros is an int64. */
  constructor(
    readonly months: number,
    readonly days: number,
    readonly micros: bigint,
  ) {}

  /** The span PostgreSQL compares and hashes by: a month is 30 days, a day 24 hours (interval_cmp_value). */
  span(): bigint {
    return BigInt(this.months) * 30n * usPerDay + BigInt(this.days) * usPerDay + this.micros;
  }

  toString(): string {
    return formatInterval(this);
  }
}

export function outOfRange(): SqlError {
  return new SqlError(SqlState.datetimeFieldOverflow, 'interval out of range');
}

/** A checked constructor: 22008 "interval out of range" when a field leaves its integer width. */
export function makeInterval(months: number, days: number, micros: bigint): SqlInterval {
  if (!Number.isInteger(months) || months < int32Min || months > int32Max) throw outOfRange();
  if (!Number.isInteger(days) || days < int32Min || days > int32Max) throw outOfRange();
  if (micros < int64Min || micros > int64Max) throw outOfRange();
  return new SqlInterval(months, days, micros);
}

export function compareIntervals(a: SqlInterval, b: SqlInterval): number {
  const x = a.span();
  const y = b.span();
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---- text output -------------------------------------------------------------------------------------

/** EncodeInterval with IntervalStyle postgres. */
export function formatInterval(v: SqlInterval): string {
  const parts: string[] = [];
  let isBefore = false;
  const add = (value: number, unit: string): void => {
    if (value === 0) return;
    parts.push(`${isBefore && value > 0 ? '+' : ''}${value} ${unit}${value === 1 ? '' : 's'}`);
    isBefore = value < 0;
  };
  const years = Math.trunc(v.months / 12);
  add(years, 'year');
  add(v.months - years * 12, 'mon');
  add(v.days, 'day');
  if (parts.length === 0 || v.micros !== 0n) {
    const neg = v.micros < 0n;
    const abs = neg ? -v.micros : v.micros;
    const hours = abs / usPerHour;
    const minutes = (abs % usPerHour) / usPerMinute;
    const secs = (abs % usPerMinute) / usPerSecond;
    const frac = abs % usPerSecond;
    const pad = (n: bigint): string => n.toString().padStart(2, '0');
    let text = `${neg ? '-' : isBefore ? '+' : ''}${pad(hours)}:${pad(minutes)}:${pad(secs)}`;
    if (frac !== 0n) text += '.' + frac.toString().padStart(6, '0').replace(/0+$/, '');
    parts.push(text);
  }
  return parts.join(' ');
}

// ---- text input --------------------------------------------------------------------------------------

type Unit = 'us' | 'ms' | 's' | 'min' | 'h' | 'd' | 'w' | 'mon' | 'y' | 'dec' | 'c' | 'mil';

const unitWords: Readonly<Record<string, Unit>> = (() => {
  const table: Record<Unit, string[]> = {
    us: ['microsecond', 'microseconds', 'us', 'usec', 'usecs', 'useconds', 'microsecon'],
    ms: ['millisecond', 'milliseconds', 'ms', 'msec', 'msecs', 'mseconds', 'millisecon'],
    s: ['second', 'seconds', 's', 'sec', 'secs'],
    min: ['minute', 'minutes', 'm', 'min', 'mins'],
    h: ['hour', 'hours', 'h', 'hr', 'hrs'],
    d: ['day', 'days', 'd'],
    w: ['week', 'weeks', 'w'],
    mon: ['month', 'months', 'mon', 'mons'],
    y: ['year', 'years', 'y', 'yr', 'yrs'],
    dec: ['decade', 'decades', 'dec', 'decs'],
    c: ['century', 'centuries', 'c', 'cent'],
    mil: ['millennium', 'millennia', 'mil', 'mils', 'millenniums'],
  };
  const out: Record<string, Unit> = {};
  for (const [unit, words] of Object.entries(table) as [Unit, string[]][]) for (const w of words) out[w] = unit;
  return out;
})();

const yearsPerUnit: Partial<Record<Unit, number>> = { y: 1, dec: 10, c: 100, mil: 1000 };
const usPerUnit: Partial<Record<Unit, bigint>> = { us: 1n, ms: 1000n, s: usPerSecond, min: usPerMinute, h: usPerHour };

function badSyntax(text: string): SqlError {
  return new SqlError(SqlState.invalidDatetimeFormat, `invalid input syntax for type interval: "${text}"`);
}

function fieldOverflow(text: string): SqlError {
  return new SqlError(SqlState.intervalFieldOverflow, `interval field value out of range: "${text}"`);
}

/** A signed decimal split into its exact integer part and its fraction (both with the sign). */
interface Decimal {
  readonly whole: bigint;
  readonly frac: number;
}

function parseDecimal(token: string): Decimal {
  const neg = token.startsWith('-');
  const digits = token.replace(/^[+-]/, '');
  const dot = digits.indexOf('.');
  const intText = dot < 0 ? digits : digits.slice(0, dot);
  const fracText = dot < 0 ? '' : digits.slice(dot + 1);
  const whole = BigInt(intText === '' ? '0' : intText);
  const frac = fracText === '' ? 0 : Number('0.' + fracText);
  return neg ? { whole: -whole, frac: -frac } : { whole, frac };
}

/** Accumulates fields the way DecodeInterval does, spilling fractions down to the next smaller field. */
class Fields {
  months = 0n;
  days = 0n;
  micros = 0n;
  private readonly seen = new Set<string>();

  constructor(private readonly text: string) {}

  claim(field: string): void {
    if (this.seen.has(field)) throw badSyntax(this.text);
    this.seen.add(field);
  }

  /** A fraction of a day (AdjustFractMicroseconds with 24-hour days). */
  private fracDays(f: number): void {
    this.micros += BigInt(Math.round(f * Number(usPerDay)));
  }

  add(n: Decimal, unit: Unit): void {
    this.claim(unit);
    const us = usPerUnit[unit];
    if (us !== undefined) {
      this.micros += n.whole * us + BigInt(Math.round(n.frac * Number(us)));
      return;
    }
    const years = yearsPerUnit[unit];
    if (years !== undefined) {
      // AdjustFractYears: the fraction of a year becomes whole months, rounded.
      this.months += n.whole * BigInt(years * 12) + BigInt(Math.round(n.frac * years * 12));
      return;
    }
    if (unit === 'mon') {
      this.months += n.whole;
      const fracDays = n.frac * 30;
      this.days += BigInt(Math.trunc(fracDays));
      this.fracDays(fracDays - Math.trunc(fracDays));
      return;
    }
    const scale = unit === 'w' ? 7 : 1;
    this.days += n.whole * BigInt(scale);
    const fracDays = n.frac * scale;
    this.days += BigInt(Math.trunc(fracDays));
    this.fracDays(fracDays - Math.trunc(fracDays));
  }

  /** h:m, h:m:s or h:m:s.f, the sign applying to the whole field. */
  addTime(token: string): void {
    this.claim('time');
    const neg = token.startsWith('-');
    const parts = token.replace(/^[+-]/, '').split(':');
    const [h, m, s] = parts;
    if (h === undefined || m === undefined || parts.length > 3) throw badSyntax(this.text);
    if (s !== undefined && /^\d*\.\d*\./.test(s)) throw badSyntax(this.text);
    const minutes = BigInt(m);
    if (minutes > 59n) throw fieldOverflow(this.text);
    const sec = parseDecimal(s ?? '0');
    if (sec.whole > 59n) throw fieldOverflow(this.text);
    const us = BigInt(h) * usPerHour + minutes * usPerMinute + sec.whole * usPerSecond + BigInt(Math.round(sec.frac * 1e6));
    this.micros += neg ? -us : us;
  }

  result(negate: boolean): SqlInterval {
    const sign = negate ? -1n : 1n;
    const months = this.months * sign;
    const days = this.days * sign;
    const micros = this.micros * sign;
    const fits32 = (n: bigint): boolean => n >= BigInt(int32Min) && n <= BigInt(int32Max);
    if (!fits32(months) || !fits32(days) || micros < int64Min || micros > int64Max) throw fieldOverflow(this.text);
    return new SqlInterval(Number(months), Number(days), micros);
  }
}

const numberToken = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const timeToken = /^[+-]?\d+:\d+(:\d+(\.\d*)?)?$/;

/** interval_in with IntervalStyle postgres. */
export function parseInterval(text: string): SqlInterval {
  const input = text.trim().toLowerCase();
  if (input.startsWith('p')) return parseIso8601(text, input);
  const tokens = input.match(/[+-]?(\d+(:\d+)*(\.\d*)?|\.\d+)|[a-z]+|\S/g) ?? [];
  if (tokens.length === 0) throw badSyntax(text);
  const fields = new Fields(text);
  let negate = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    if (token === '@') continue;
    if (token === 'ago') {
      if (i !== tokens.length - 1 || negate) throw badSyntax(text);
      negate = true;
      continue;
    }
    if (timeToken.test(token)) {
      fields.addTime(token);
      continue;
    }
    if (!numberToken.test(token)) throw badSyntax(text);
    const next = tokens[i + 1];
    const unit = next === undefined ? undefined : unitWords[next];
    if (unit !== undefined) {
      fields.add(parseDecimal(token), unit);
      i++;
    } else if (next !== undefined && timeToken.test(next) && !token.includes('.')) {
      fields.add(parseDecimal(token), 'd');
    } else if (next === undefined || next === 'ago') {
      fields.add(parseDecimal(token), 's');
    } else {
      throw badSyntax(text);
    }
  }
  return fields.result(negate);
}

/** ISO 8601 "format with designators": P, then nY nM nW nD, then T and nH nM nS. */
function parseIso8601(text: string, input: string): SqlInterval {
  const body = input.slice(1);
  if (body === '') throw badSyntax(text);
  const fields = new Fields(text);
  let inTime = false;
  const re = /t|([+-]?(?:\d+\.?\d*|\.\d+))([a-z])/gy;
  let end = 0;
  for (let m = re.exec(body); m !== null; m = re.exec(body)) {
    end = re.lastIndex;
    if (m[0] === 't') {
      if (inTime) throw badSyntax(text);
      inTime = true;
      continue;
    }
    const n = parseDecimal(m[1] ?? '');
    const designator = m[2] ?? '';
    const unit: Unit | undefined = inTime
      ? ({ h: 'h', m: 'min', s: 's' } as const)[designator as 'h' | 'm' | 's']
      : ({ y: 'y', m: 'mon', w: 'w', d: 'd' } as const)[designator as 'y' | 'm' | 'w' | 'd'];
    if (unit === undefined) throw badSyntax(text);
    fields.add(n, unit);
  }
  if (end !== body.length) throw badSyntax(text);
  return fields.result(false);
}

// ---- binary form -------------------------------------------------------------------------------------

/** interval_send: int64 microseconds, int32 days, int32 months. */
export function encodeIntervalBinary(v: SqlInterval): Uint8Array {
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  view.setBigInt64(0, v.micros);
  view.setInt32(8, v.days);
  view.setInt32(12, v.months);
  return out;
}

export function decodeIntervalBinary(b: Uint8Array): SqlInterval {
  if (b.length !== 16) throw new SqlError(SqlState.protocolViolation, 'insufficient data left in message');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return new SqlInterval(view.getInt32(12), view.getInt32(8), view.getBigInt64(0));
}
