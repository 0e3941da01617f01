// The session's TimeZone setting: what PostgreSQL 15 accepts for it (check_timezone), the name SHOW gives
// back, and the zone timestamptz is read and written in while a statement runs.
//
// PostgreSQL keeps the session's zone in a global (session_timezone) that every datetime function reads;
// Pesto does the same in this module, scoped: whoever evaluates SQL on a session's behalf (the engine's
// session, a cluster client running a statement or formatting its rows, a replica executing a range
// read whose message names the zone) runs that synchronous stretch inside `withSessionZone`, which puts
// the previous zone back when it returns or throws. Between such stretches the zone is UTC, so code
// that forgets to set one computes UTC's answer the same way on every replica (replicas still agree).
// Invariant: `withSessionZone` bodies are synchronous; a zone never outlives the call that set it.
//
// A setting is kept as its shown name (SessionZone.name) and resolved again from that name where it
// travels (a replica): `timeZoneSetting(zone.name)` gives the same zone back for every accepted value.

import { parseInterval } from './interval.ts';
import { floorSeconds, offsetAtInstant, regionOrPosixZone, zoneNameSpelling, type Zone } from './time-zones.ts';

export interface SessionZone {
  /** SHOW TimeZone's value: the name given (spelled as the zone database spells it), or the POSIX name of an offset ('<+02>-02'). */
  readonly name: string;
  readonly zone: Zone;
}

export const UTC_ZONE: SessionZone = { name: 'UTC', zone: { kind: 'fixed', east: 0 } };

let current: SessionZone = UTC_ZONE;
/** The transaction's timestamp (UTC microseconds) while a statement runs, else null. */
let currentNow: bigint | null = null;

/** The zone of the statement being evaluated (UTC outside any `withSessionZone`). */
export function sessionZone(): Zone {
  return current.zone;
}

/** The setting of the statement being evaluated. */
export function currentSessionZone(): SessionZone {
  return current;
}

/**
 * The transaction's timestamp, for the session zone's offset on "today" (a time of day cast to timetz
 * takes the offset of the current date, as PostgreSQL's GetCurrentDateTime); 1970-01-01 where none is
 * known (constants folded while a statement is bound).
 */
export function sessionNow(): bigint {
  return currentNow ?? 0n;
}

/**
 * Runs `body` (synchronous) with `zone` as the session's zone and `now` as the transaction's timestamp,
 * then puts the previous ones back.
 */
export function withSessionZone<T>(zone: SessionZone, body: () => T, now: bigint | null = null): T {
  if (zone === current && now === currentNow) return body();
  const [zoneBefore, nowBefore] = [current, currentNow];
  current = zone;
  currentNow = now;
  try {
    return body();
  } finally {
    current = zoneBefore;
    currentNow = nowBefore;
  }
}

export type ZoneSettingError = { readonly error: string; readonly detail?: string };

/** tzcode's getsecs: an offset of up to a week less a second. */
const OFFSET_SECONDS_MAX = 167 * 3600 + 59 * 60 + 59;

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** pg_tzset_offset's name for a fixed offset east of UTC: '<+02>-02', '<-05:30>+05:30' (POSIX counts west). */
export function offsetZoneName(east: number): string {
  const abs = Math.abs(east);
  let s = pad2(Math.floor(abs / 3600));
  const rest = abs % 3600;
  if (rest !== 0) {
    s += `:${pad2(Math.floor(rest / 60))}`;
    if (rest % 60 !== 0) s += `:${pad2(rest % 60)}`;
  }
  return east < 0 ? `<-${s}>+${s}` : `<+${s}>-${s}`;
}

function offsetZone(east: number, shown: string): SessionZone | ZoneSettingError {
  if (Math.abs(east) > OFFSET_SECONDS_MAX) return { error: invalidMessage(shown), detail: 'UTC timezone offset is out of range.' };
  return { name: offsetZoneName(east), zone: { kind: 'fixed', east } };
}

const invalidMessage = (value: string): string => `invalid value for parameter "TimeZone": "${value}"`;

/** strtod over the whole text (no white space after it), as check_timezone tries first. */
const hoursRe = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const intervalRe = /^interval\s+'((?:[^']|'')*)'$/i;

/** Resolved settings by text: a name is looked up in the zone database once (bounded: cleared when large). */
const resolved = new Map<string, SessionZone>();

/**
 * A TimeZone value as PostgreSQL 15's check_timezone reads it: `INTERVAL '...'` (what SET TIME ZONE
 * INTERVAL '+02:00' HOUR TO MINUTE becomes: no months or days), a number of hours east (SQL's sign,
 * fractions allowed), else a zone of the database by name in any case ('posix/' prefixed too) or a POSIX
 * zone ('UTC+3', '<+03>-3'). Abbreviations that are not zones of the database ('PST') are refused, as
 * there. The error is 22023 with PostgreSQL's message and detail.
 */
export function timeZoneSetting(value: string): SessionZone | ZoneSettingError {
  const known = resolved.get(value);
  if (known !== undefined) return known;
  const r = resolveSetting(value);
  if ('zone' in r) {
    if (resolved.size >= 1000) resolved.clear();
    resolved.set(value, r);
  }
  return r;
}

function resolveSetting(value: string): SessionZone | ZoneSettingError {
  const iv = intervalRe.exec(value);
  if (iv !== null) {
    let parsed;
    try {
      parsed = parseInterval((iv[1] ?? '').replace(/''/g, "'"));
    } catch {
      return { error: invalidMessage(value) };
    }
    if (parsed.months !== 0) return { error: invalidMessage(value), detail: 'Cannot specify months in time zone interval.' };
    if (parsed.days !== 0) return { error: invalidMessage(value), detail: 'Cannot specify days in time zone interval.' };
    return offsetZone(Number(parsed.micros / 1_000_000n), value);
  }
  if (hoursRe.test(value)) {
    // gmtoffset = -hours * SECS_PER_HOUR, truncated to whole seconds (C's conversion to long).
    const east = Math.trunc(Number(value) * 3600) + 0;
    if (!Number.isFinite(east)) return { error: invalidMessage(value), detail: 'UTC timezone offset is out of range.' };
    return offsetZone(east, value);
  }
  let zone: Zone | null;
  try {
    zone = regionOrPosixZone(value);
  } catch {
    zone = null; // a POSIX zone with daylight saving rules, which time-zones.ts does not model
  }
  if (zone === null) return { error: invalidMessage(value) };
  if (zone.kind === 'fixed') return { name: value, zone };
  const name = zoneNameSpelling(value);
  // UTC and its links: a fixed zone (no lookups), UTC's own setting where that is its name.
  if (zone.region.name === 'UTC') return name === 'UTC' ? UTC_ZONE : { name, zone: UTC_ZONE.zone };
  return { name, zone };
}

// ICU's short zone names per locale: each English locale knows the abbreviations of its own region's
// zones (en-US: EST, en-GB: CET and BST, en-IN: IST, en-AU: AEST); others are 'GMT+1'.
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU'];
const abbreviationFormats = new Map<string, Intl.DateTimeFormat[]>();

/**
 * The session zone's abbreviation at an instant, for to_char's TZ: a fixed zone's POSIX name ('+02' of
 * '<+02>-02', 'UTC' of 'UTC+3'); a region's name from ICU where an English locale has a letters-only
 * one, else its offset as the zone database writes names it has none for ('+0545', '-03'). The zone
 * database's own abbreviations are not in ICU, so a region ICU knows no English name for (Asia/Tokyo:
 * JST) shows its offset instead.
 */
export function sessionZoneAbbreviation(micros: bigint): string {
  const z = current;
  if (z.zone.kind === 'fixed') return /^<([^>]*)>/.exec(z.name)?.[1] ?? /^[a-z]{3,}/i.exec(z.name.slice(z.name.lastIndexOf('/') + 1))?.[0] ?? 'UTC';
  const region = z.zone.region;
  let formats = abbreviationFormats.get(region.name);
  if (formats === undefined) {
    formats = ABBREVIATION_LOCALES.map((l) => new Intl.DateTimeFormat(l, { timeZone: region.name, timeZoneName: 'short' }));
    abbreviationFormats.set(region.name, formats);
  }
  const ms = Number(micros / 1000n);
  if (Number.isFinite(ms) && Math.abs(ms) <= 8.64e15) {
    for (const f of formats) {
      const name = f.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
      if (/^[a-z]+$/i.test(name)) return name;
    }
  }
  const east = offsetAtInstant(z.zone, floorSeconds(micros));
  const abs = Math.abs(east);
  const mm = Math.floor((abs % 3600) / 60);
  return `${east < 0 ? '-' : '+'}${pad2(Math.floor(abs / 3600))}${mm !== 0 ? pad2(mm) : ''}`;
}
