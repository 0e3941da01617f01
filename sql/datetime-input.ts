// Text input of date, timestamp, timestamptz, time and timetz: one parser for all five, PostgreSQL 15's
// (ParseDateTime, then DecodeDateTime or DecodeTimeOnly; the manual's appendix "Date/Time Support").
// The text is split into fields (datetime-fields.ts), decoded into a broken-down date, time and zone
// offset (datetime-decode.ts, datetime-decode-time.ts), and each type takes what it keeps: a date its
// day; a timestamp its wall clock (a zone given is ignored, as PostgreSQL ignores it); a timestamptz
// the instant, the wall clock moved by the zone given or the session's; a time its time of day; a timetz
// the time and the offset.
//
// DateStyle's order (MDY here unless a caller says otherwise) decides dates of numbers only ('1/8/1999').
// 'now', 'today', 'tomorrow' and 'yesterday' read the transaction's timestamp, which the caller passes
// (the evaluator has it as its context's `now`); input read without one, as constants folded while a
// statement is bound, fails with `NowUnavailable` and is left for the evaluator. 'infinity' and
// '-infinity' (any case; fields beside them are still decoded and checked, then dropped, as around
// PostgreSQL's DTK_LATE and DTK_EARLY) are the infinite dates and timestamps; a time has none (22007).

import { SqlError, SqlState } from './errors.ts';
import {
  DATE_INFINITY, DATE_NEG_INFINITY, SqlDate, SqlTimestamp, TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY, checkedDate, checkedTimestamp, MICROS_PER_DAY,
} from './datetime.ts';
import { splitFields } from './datetime-fields.ts';
import { DecodeFailure, date2j, type DateOrder, type Tm } from './datetime-decode-parts.ts';
import { decodeDateTime, type Decoded, type DecodeContext } from './datetime-decode.ts';
import { decodeTimeOnly } from './datetime-decode-time.ts';
import { SqlTime } from './time.ts';
import { SqlTimeTz } from './timetz.ts';
import type { Zone } from './time-zones.ts';
import { sessionZone } from './session-zone.ts';

export type { DateOrder } from './datetime-decode-parts.ts';
export { NowUnavailable } from './datetime-decode.ts';

/** What input may depend on besides its text. */
export interface DateTimeInputOptions {
  /** The transaction's timestamp ('now', 'today', ...). */
  readonly now?: SqlTimestamp | null;
  /** DateStyle's field order; MDY by default. */
  readonly order?: DateOrder;
}

/** The session's time zone, for input without one (sql/session-zone.ts: the zone of the statement being evaluated). */
export function sessionInputZone(): Zone {
  return sessionZone();
}

type TypeName = 'date' | 'timestamp' | 'timestamp with time zone' | 'time' | 'time with time zone';

function decode(text: string, type: TypeName, opts: DateTimeInputOptions): Decoded {
  const ctx: DecodeContext = {
    now: opts.now ?? null,
    sessionZone: sessionInputZone(),
    order: opts.order ?? 'MDY',
    keepsZone: type === 'timestamp with time zone' || type === 'time with time zone',
  };
  try {
    const fields = splitFields(text);
    if (fields === null) throw new DecodeFailure('bad-format');
    return type === 'time' || type === 'time with time zone' ? decodeTimeOnly(fields, ctx) : decodeDateTime(fields, ctx);
  } catch (e) {
    if (!(e instanceof DecodeFailure)) throw e;
    switch (e.kind) {
      case 'bad-format':
        throw new SqlError(SqlState.invalidDatetimeFormat, `invalid input syntax for type ${type}: "${text}"`);
      case 'field-overflow':
        throw new SqlError(SqlState.datetimeFieldOverflow, `date/time field value out of range: "${text}"`);
      case 'md-field-overflow':
        throw new SqlError(SqlState.datetimeFieldOverflow, `date/time field value out of range: "${text}"`, undefined, undefined, 'Perhaps you need a different "datestyle" setting.');
      case 'tz-overflow':
        throw new SqlError(SqlState.invalidTimeZoneDisplacementValue, `time zone displacement out of range: "${text}"`);
    }
  }
}

/** IS_VALID_JULIAN: from 4714-11-01 BC (year -4713) to before 5874898. */
const validJulian = (tm: Tm): boolean => (tm.year > -4713 || (tm.year === -4713 && tm.mon >= 11)) && tm.year < 5_874_898;

/** The wall clock `tm` in microseconds since 1970 (tm2timestamp), or null outside the Julian range. */
function localMicros(tm: Tm): bigint | null {
  if (!validJulian(tm)) return null;
  const days = date2j(tm.year, tm.mon, tm.mday) - 2_440_588;
  const time = ((tm.hour * 60 + tm.min) * 60 + tm.sec) * 1_000_000 + tm.fsec;
  return BigInt(days) * BigInt(MICROS_PER_DAY) + BigInt(time);
}

function timestampOf(text: string, type: 'timestamp' | 'timestamp with time zone', opts: DateTimeInputOptions): SqlTimestamp {
  const d = decode(text, type, opts);
  switch (d.kind) {
    case 'epoch':
      return new SqlTimestamp(0n);
    case 'late':
      return TIMESTAMP_INFINITY;
    case 'early':
      return TIMESTAMP_NEG_INFINITY;
    default: {
      const local = localMicros(d.tm);
      if (local === null) throw new SqlError(SqlState.datetimeFieldOverflow, `timestamp out of range: "${text}"`);
      return checkedTimestamp(type === 'timestamp' ? local : local + BigInt(d.tz) * 1_000_000n, text);
    }
  }
}

/** date_in. */
export function parseDate(text: string, opts: DateTimeInputOptions = {}): SqlDate {
  const d = decode(text, 'date', opts);
  switch (d.kind) {
    case 'epoch':
      return new SqlDate(0);
    case 'late':
      return DATE_INFINITY;
    case 'early':
      return DATE_NEG_INFINITY;
    default:
      if (!validJulian(d.tm)) throw new SqlError(SqlState.datetimeFieldOverflow, `date out of range: "${text}"`);
      return checkedDate(date2j(d.tm.year, d.tm.mon, d.tm.mday) - 2_440_588, text);
  }
}

/** timestamp_in: the wall clock; a zone in the text is ignored. */
export function parseTimestamp(text: string, opts: DateTimeInputOptions = {}): SqlTimestamp {
  return timestampOf(text, 'timestamp', opts);
}

/** timestamptz_in: the instant, by the zone in the text or the session's. */
export function parseTimestampTz(text: string, opts: DateTimeInputOptions = {}): SqlTimestamp {
  return timestampOf(text, 'timestamp with time zone', opts);
}

const timeMicros = (tm: Tm): number => ((tm.hour * 60 + tm.min) * 60 + tm.sec) * 1_000_000 + tm.fsec;

/** time_in: the time of day; a date or zone in the text is ignored. */
export function parseTime(text: string, opts: DateTimeInputOptions = {}): SqlTime {
  return new SqlTime(timeMicros(decode(text, 'time', opts).tm));
}

/** timetz_in: the time of day and the zone's offset. */
export function parseTimeTz(text: string, opts: DateTimeInputOptions = {}): SqlTimeTz {
  const d = decode(text, 'time with time zone', opts);
  return new SqlTimeTz(timeMicros(d.tm), d.tz);
}
