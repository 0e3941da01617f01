// Arithmetic with intervals as PostgreSQL 15 does it (utils/adt/timestamp.c): timestamp ± interval adds
// the months first (clamping the day to the end of a shorter month: 2024-01-31 + '1 mon' is 2024-02-29),
// then the days, then the time; timestamp - timestamp is the difference in microseconds with whole
// 24-hour days moved into the days field (interval_justify_hours); interval ± interval and unary minus
// are field-wise; interval * and / a number spill the fractions of months into days (30 each) and of
// days into time (24 hours each), rounded to the microsecond, as interval_mul and interval_div.
// The session time zone is UTC, so timestamptz adds days as 24 hours just as timestamp does.

import { SqlError, SqlState } from './errors.ts';
import { MICROS_PER_DAY, SqlTimestamp, civilFromDays, daysFromCivil } from './datetime.ts';
import { makeInterval, outOfRange, type SqlInterval } from './interval.ts';

// PostgreSQL's timestamp range, [4714-11-24 BC, 294277-01-01), in Unix microseconds.
const timestampMin = -210_866_803_200_000_000;
const timestampEnd = 9_224_318_016_000_000_000;
const usPerDay = BigInt(MICROS_PER_DAY);

function checkedTimestamp(micros: number): SqlTimestamp {
  if (!(micros >= timestampMin && micros < timestampEnd)) throw new SqlError(SqlState.datetimeFieldOverflow, 'timestamp out of range');
  return new SqlTimestamp(micros);
}

const daysInMonth = (y: number, m: number): number => daysFromCivil(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1) - daysFromCivil(y, m, 1);

/** timestamp_pl_interval (sign 1) and timestamp_mi_interval (sign -1). */
export function addInterval(ts: SqlTimestamp, iv: SqlInterval, sign: 1 | -1): SqlTimestamp {
  let micros = ts.micros;
  if (iv.months !== 0) {
    const day = Math.floor(micros / MICROS_PER_DAY);
    const time = micros - day * MICROS_PER_DAY;
    const [y, m, d] = civilFromDays(day);
    const total = y * 12 + (m - 1) + sign * iv.months;
    const ny = Math.floor(total / 12);
    const nm = total - ny * 12 + 1;
    micros = daysFromCivil(ny, nm, Math.min(d, daysInMonth(ny, nm))) * MICROS_PER_DAY + time;
  }
  micros += sign * iv.days * MICROS_PER_DAY;
  micros += sign * Number(iv.micros);
  return checkedTimestamp(micros);
}

/** timestamp_mi: the microseconds between, whole days in the days field, both with the difference's sign. */
export function timestampDiff(a: SqlTimestamp, b: SqlTimestamp): SqlInterval {
  const diff = BigInt(Math.round(a.micros)) - BigInt(Math.round(b.micros));
  const days = diff / usPerDay;
  return makeInterval(0, Number(days), diff - days * usPerDay);
}

export function addIntervals(a: SqlInterval, b: SqlInterval, sign: 1 | -1): SqlInterval {
  return makeInterval(a.months + sign * b.months, a.days + sign * b.days, a.micros + BigInt(sign) * b.micros);
}

export function negateInterval(a: SqlInterval): SqlInterval {
  return makeInterval(-a.months, -a.days, -a.micros);
}

const tsRound = (x: number): number => Math.round(x * 1e6) / 1e6;
/** C's (int) conversion of a double already checked to be in range: truncation toward zero. */
const toInt = (x: number): number => Math.trunc(x) + 0;

/** interval_mul (op '*') and interval_div (op '/') by a float8. */
export function scaleInterval(iv: SqlInterval, factor: number, op: '*' | '/'): SqlInterval {
  if (op === '/' && factor === 0) throw new SqlError(SqlState.divisionByZero, 'division by zero');
  const apply = (x: number): number => (op === '*' ? x * factor : x / factor);
  const monthsExact = apply(iv.months);
  const daysExact = apply(iv.days);
  if (!Number.isFinite(monthsExact) || Math.abs(monthsExact) >= 2147483648) throw outOfRange();
  if (!Number.isFinite(daysExact) || Math.abs(daysExact) >= 2147483648) throw outOfRange();
  const months = toInt(monthsExact);
  let days = toInt(daysExact);
  const monthRemainderDays = tsRound((monthsExact - months) * 30);
  let secRemainder = tsRound((daysExact - days + monthRemainderDays - toInt(monthRemainderDays)) * 86400);
  if (Math.abs(secRemainder) >= 86400) {
    days += toInt(secRemainder / 86400);
    secRemainder -= toInt(secRemainder / 86400) * 86400;
  }
  days += toInt(monthRemainderDays);
  const time = Math.round(apply(Number(iv.micros)) + secRemainder * 1e6);
  if (!Number.isFinite(time) || Math.abs(time) >= 2 ** 63) throw outOfRange();
  return makeInterval(months, days, BigInt(time));
}
