// PostgreSQL's DecodeTimeOnly (datetime.c), the decoder of time and timetz input: the fields of
// datetime-fields.ts read as a time of day with an optional zone, a date accepted only where it
// cannot be mistaken for a time (first, before a time or with a date field last) and used only to
// fix a zone's offset. A zone of the database needs that date unless its offset never changes (here:
// unless it is a fixed offset); without a zone, the session's zone applies on the current date.

import { FieldKind, T, isAsciiDigit, type Field, type Unit } from './datetime-fields.ts';
import {
  DATE_M, MASK, TIME_M, decodeDate, decodeNumber, decodeNumberField, decodeTime, decodeTimezone, fail, timeOverflows,
  type DateState, type Tm,
} from './datetime-decode-parts.ts';
import {
  currentTm, finishFields, labelledNumber, lookupWord, namedZone, newTm, zoneOffsetAt, type Decoded, type DecodeContext, type State,
} from './datetime-decode.ts';
import { SqlError, SqlState } from './errors.ts';
import { dynamicUnsupported, type Zone } from './time-zones.ts';

/** DecodeTimeOnly: the fields of a time or timetz. */
export function decodeTimeOnly(fields: Field[], ctx: DecodeContext): Decoded {
  const tm = newTm();
  const st: DateState = { is2digits: false };
  const s: State = { isJulian: false };
  let tz = 0;
  let fmask = 0;
  let ptype: Unit | null = null;
  let mer: 'am' | 'pm' | null = null;
  let bc = false;
  let namedTz: Zone | SqlError | null = null;
  let dynamicAbbrev: string | null = null;
  const nf = fields.length;
  for (let i = 0; i < nf; i++) {
    const f = fields[i] as Field;
    let tmask = 0;
    switch (f.kind) {
      case FieldKind.date:
        if (i === 0 && nf >= 2 && (fields[nf - 1]?.kind === FieldKind.date || fields[1]?.kind === FieldKind.time)) {
          tmask = decodeDate(f.text, fmask, tm, st, ctx.order);
        } else if (isAsciiDigit(f.text[0])) {
          // A run-together time and zone (hhmmss-zz).
          if ((fmask & TIME_M) === TIME_M) fail('bad-format');
          const dash = f.text.indexOf('-');
          if (dash < 0) fail('bad-format');
          tz = decodeTimezone(f.text.slice(dash));
          tmask = decodeNumberField(f.text.slice(0, dash), fmask | DATE_M, tm, st).tmask | MASK.tz;
        } else {
          namedTz = zoneNeedingDate(f.text, true);
          tmask = MASK.tz;
        }
        break;
      case FieldKind.time:
        tmask = decodeTime(f.text, tm);
        break;
      case FieldKind.tz:
        tz = decodeTimezone(f.text);
        tmask = MASK.tz;
        break;
      case FieldKind.number:
        if (ptype !== null) {
          tmask = labelledNumber(f, ptype, fmask, tm, st, s);
          ptype = null;
        } else {
          const dot = f.text.indexOf('.');
          if (dot >= 0) {
            if (i === 0 && nf >= 2 && fields[nf - 1]?.kind === FieldKind.date) tmask = decodeDate(f.text, fmask, tm, st, ctx.order);
            else if (dot > 2) tmask = decodeNumberField(f.text, fmask | DATE_M, tm, st).tmask;
            else fail('bad-format');
          } else if (f.text.length > 4) tmask = decodeNumberField(f.text, fmask | DATE_M, tm, st).tmask;
          else tmask = decodeNumber(f.text, false, fmask | DATE_M, tm, st, ctx.order);
        }
        break;
      case FieldKind.string:
      case FieldKind.special: {
        const w = lookupWord(f.text);
        if (w.type === T.ignore) continue;
        tmask = 2 ** w.type;
        switch (w.type) {
          case T.reserved:
            if (w.value === 'now') {
              tmask = TIME_M;
              const cur = currentTm(ctx);
              tm.hour = cur.hour;
              tm.min = cur.min;
              tm.sec = cur.sec;
              tm.fsec = cur.fsec;
            } else if (w.value === 'zulu') {
              tmask = TIME_M | MASK.tz;
              tm.hour = 0;
              tm.min = 0;
              tm.sec = 0;
            } else fail('bad-format');
            break;
          case T.dtzmod:
            tmask |= MASK.dtz;
            tz -= w.value;
            break;
          case T.dtz:
            tmask |= MASK.tz;
            tz = w.west;
            break;
          case T.tz:
            tz = w.west;
            break;
          case T.dyntz:
            tmask |= MASK.tz;
            dynamicAbbrev = f.text;
            break;
          case T.ampm:
            mer = w.value;
            break;
          case T.adbc:
            bc = w.value === 'bc';
            break;
          case T.units:
            tmask = 0;
            ptype = w.value;
            break;
          case T.isotime: {
            tmask = 0;
            const next = fields[i + 1];
            if (next === undefined || (next.kind !== FieldKind.number && next.kind !== FieldKind.time && next.kind !== FieldKind.date)) fail('bad-format');
            ptype = w.value;
            break;
          }
          case T.unknown:
            namedTz = zoneNeedingDate(f.text, false);
            tmask = MASK.tz;
            break;
          default:
            return fail('bad-format');
        }
        break;
      }
      default:
        return fail('bad-format');
    }
    if (tmask & fmask) fail('bad-format');
    fmask |= tmask;
  }
  finishFields(fmask, s, st, bc, mer, tm);
  if (timeOverflows(tm)) fail('field-overflow');
  if ((fmask & TIME_M) !== TIME_M) fail('bad-format');
  if (namedTz !== null) {
    if (fmask & MASK.dtzmod) fail('bad-format');
    if (!(namedTz instanceof SqlError) && namedTz.kind === 'fixed') tz = -namedTz.east;
    else {
      if ((fmask & DATE_M) !== DATE_M) fail('bad-format');
      if (namedTz instanceof SqlError) throw namedTz;
      tz = zoneOffsetAt(namedTz, tm);
    }
  }
  if (dynamicAbbrev !== null) {
    if (fmask & MASK.dtzmod) fail('bad-format');
    if ((fmask & DATE_M) !== 0 && (fmask & DATE_M) !== DATE_M) fail('bad-format');
    if (ctx.keepsZone) throw dynamicUnsupported(dynamicAbbrev);
  }
  if (!(fmask & MASK.tz)) {
    if (fmask & MASK.dtzmod) fail('bad-format');
    if ((fmask & DATE_M) !== 0 && (fmask & DATE_M) !== DATE_M) fail('bad-format');
    tz = sessionOffset(ctx, fmask, tm);
  }
  return { kind: 'time', tm, tz };
}

/**
 * A zone name in time input (pg_tzset): when it is none, 22023 if `strict`, else bad format; a zone Pesto cannot apply (a POSIX
 * zone with daylight saving) is an error only where a date would let PostgreSQL apply it, so it is kept.
 */
function zoneNeedingDate(name: string, strict: boolean): Zone | SqlError {
  try {
    return namedZone(name, strict);
  } catch (e) {
    if (e instanceof SqlError && e.code === SqlState.featureNotSupported) return e;
    // (22023 and bad format propagate.)
    throw e;
  }
}

/** The session zone's offset at the time read, on its date or, without one, the current date. */
function sessionOffset(ctx: DecodeContext, fmask: number, tm: Tm): number {
  if (ctx.sessionZone.kind === 'fixed') return -ctx.sessionZone.east;
  const day = (fmask & DATE_M) === 0 ? currentTm(ctx) : tm;
  return zoneOffsetAt(ctx.sessionZone, { ...tm, year: day.year, mon: day.mon, mday: day.mday });
}
