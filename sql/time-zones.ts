// Time zones by name, as PostgreSQL 15 resolves them in AT TIME ZONE, timezone() and timestamp with
// time zone input: an abbreviation of its Default timezone_abbreviations set (a fixed offset), a zone of
// the IANA time zone database, or a POSIX zone without daylight saving time ('UTC+3' is three hours
// WEST, '<+03>-3' three hours east).
//
// The database is the JavaScript engine's (Intl, ICU's copy of the IANA data): the core reads no files.
// An Intl.DateTimeFormat per zone gives the zone's offset from UTC at an instant (formatToParts of a
// number, with the offset as 'GMT-04:56:02'). Every replica evaluates these expressions, so every replica
// must run the same Node build (its ICU and time zone data: process.versions.tz).
//
// Offsets are looked up a day at a time: a day without a transition keeps one offset; a day with one
// keeps the transition's second (found by bisection) and the offsets either side. PostgreSQL assumes, as
// this does, that transitions are at least two days apart. A day's entry is cached per zone.
//
// Wall clock to instant (DetermineTimeZoneOffset): the offsets a day before and a day after the local
// time; when they differ and the local time falls in the gap of a spring-forward transition or the
// overlap of a fall-back one, PostgreSQL takes the smaller offset east: the one before the transition
// in a gap (02:30 on New York's spring-forward day is 02:30 EST, 07:30 UTC), the one after it in an
// overlap (01:30 on its fall-back day is 01:30 EST, 06:30 UTC). Checked against PostgreSQL 15.
//
// Range: JavaScript instants reach ±8.64e15 ms (years -271821 to 275760); PostgreSQL's timestamps reach
// 294276 AD. Later instants are looked up 400 years (one Gregorian cycle, whole weeks) earlier, repeated
// until in range, so the zone's final daylight saving rule applies as PostgreSQL's POSIX rule string does.
//
// Abbreviations whose meaning PostgreSQL takes from a zone's history (MSK, SGT, ...: "dynamic") and
// POSIX zones with daylight saving rules are 0A000.

import { SqlError, SqlState } from './errors.ts';

/** A zone: a fixed offset, or a region of the time zone database. */
export type Zone = { readonly kind: 'fixed'; readonly east: number } | { readonly kind: 'region'; readonly region: Region };

const DAY_S = 86_400;
const MS_LIMIT = 8.64e15;
/** 400 Gregorian years (146097 days) in milliseconds. */
const CYCLE_MS = 146_097 * DAY_S * 1000;
/**
 * Cached days over all zones before every zone's cache starts afresh (a few MiB; each zone clears its
 * own on its next lookup): queries over many zones and centuries cannot grow a replica's memory.
 */
const DAYS_CACHED_MAX = 100_000;
const cache = { days: 0, generation: 0 };

/** One day of a zone: its offset, or a transition at `boundary` (UTC seconds) from `before` to `after`. */
type DayOffsets = { readonly boundary: number; readonly before: number; readonly after: number };

const gmtRe = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

/** A region of the time zone database and its offsets, looked up through Intl. */
export class Region {
  readonly #format: Intl.DateTimeFormat;
  readonly #days = new Map<number, DayOffsets>();
  #generation = cache.generation;
  /** Intl lookups made (for the cache's tests). */
  lookups = 0;

  constructor(readonly name: string) {
    this.#format = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset', hour: 'numeric' });
  }

  /** The offset east of UTC, in seconds, at the instant `utcSeconds` (an integer). */
  offsetAt(utcSeconds: number): number {
    const day = Math.floor(utcSeconds / DAY_S);
    if (this.#generation !== cache.generation) {
      this.#days.clear();
      this.#generation = cache.generation;
    }
    let d = this.#days.get(day);
    if (d === undefined) {
      d = this.#dayOffsets(day);
      if (++cache.days > DAYS_CACHED_MAX) {
        cache.days = 1;
        cache.generation++;
        this.#days.clear();
        this.#generation = cache.generation;
      }
      this.#days.set(day, d);
    }
    return utcSeconds < d.boundary ? d.before : d.after;
  }

  #dayOffsets(day: number): DayOffsets {
    let lo = day * DAY_S;
    let hi = lo + DAY_S - 1;
    const before = this.#lookup(lo);
    const after = this.#lookup(hi);
    if (before === after) return { boundary: Infinity, before, after };
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.#lookup(mid) === before) lo = mid;
      else hi = mid;
    }
    return { boundary: hi, before, after };
  }

  /** Intl's offset at one instant, moved by whole 400-year cycles into the range JavaScript handles. */
  #lookup(utcSeconds: number): number {
    this.lookups += 1;
    let ms = utcSeconds * 1000;
    if (ms > MS_LIMIT) ms -= Math.ceil((ms - MS_LIMIT) / CYCLE_MS) * CYCLE_MS;
    else if (ms < -MS_LIMIT) ms += Math.ceil((-MS_LIMIT - ms) / CYCLE_MS) * CYCLE_MS;
    const part = this.#format.formatToParts(ms).find((p) => p.type === 'timeZoneName');
    const m = gmtRe.exec(part?.value ?? '');
    if (m === null) throw new SqlError(SqlState.internalError, `time zone "${this.name}": unexpected offset "${part?.value ?? ''}"`);
    if (m[1] === undefined) return 0;
    const secs = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
    return m[1] === '-' ? -secs : secs;
  }
}

/** The zone's offset east of UTC, in seconds, at the instant `utcSeconds`. */
export function offsetAtInstant(zone: Zone, utcSeconds: number): number {
  return zone.kind === 'fixed' ? zone.east : zone.region.offsetAt(utcSeconds);
}

/**
 * The offset east of UTC, in seconds, that PostgreSQL gives the wall-clock time `localSeconds` (seconds
 * since 1970-01-01 00:00 on the zone's clock; fractions dropped) in `zone` (DetermineTimeZoneOffset):
 * in a gap or an overlap, the smaller of the offsets either side of the transition.
 */
export function offsetOfWallClock(zone: Zone, localSeconds: number): number {
  if (zone.kind === 'fixed') return zone.east;
  const r = zone.region;
  const before = r.offsetAt(localSeconds - DAY_S);
  const after = r.offsetAt(localSeconds + DAY_S);
  if (before === after) return before;
  // One transition lies between; an instant is before it when the offset then is still `before`.
  const asBefore = r.offsetAt(localSeconds - before) === before;
  const asAfter = r.offsetAt(localSeconds - after) === before;
  if (asBefore && asAfter) return before;
  if (!asBefore && !asAfter) return after;
  return Math.min(before, after);
}

/** Microseconds `micros` floored to whole seconds, as a number. */
export function floorSeconds(micros: bigint): number {
  const s = micros / 1_000_000n;
  return Number(micros < 0n && s * 1_000_000n !== micros ? s - 1n : s);
}

/** An instant's wall clock in `zone`: UTC microseconds to local microseconds. */
export function wallClockOf(zone: Zone, utcMicros: bigint): bigint {
  return utcMicros + BigInt(offsetAtInstant(zone, floorSeconds(utcMicros))) * 1_000_000n;
}

/** The instant a wall clock in `zone` names: local microseconds to UTC microseconds. */
export function instantOfWallClock(zone: Zone, localMicros: bigint): bigint {
  return localMicros - BigInt(offsetOfWallClock(zone, floorSeconds(localMicros))) * 1_000_000n;
}

// PostgreSQL 15's Default timezone_abbreviations (share/timezonesets/Default): fixed offsets east in
// seconds, then the dynamic ones with their zones. IST is Israel's, CST North America's central, as there.
const FIXED_ABBREVIATIONS = 'eat:10800 sast:7200 wat:3600 act:-18000 akdt:-28800 akst:-32400 bot:-14400 bra:-10800 brst:-7200 brt:-10800 '
  + 'cot:-18000 cdt:-18000 clst:-10800 cst:-21600 edt:-14400 egst:0 egt:-3600 est:-18000 fnt:-7200 fnst:-3600 gft:-10800 mdt:-21600 '
  + 'mst:-25200 ndt:-9000 nft:-12600 nst:-12600 pet:-18000 pdt:-25200 pmdt:-7200 pmst:-10800 pst:-28800 pyst:-10800 uyst:-7200 '
  + 'uyt:-10800 wgst:-7200 wgt:-10800 ddut:36000 aft:16200 almt:21600 almst:25200 amt:-14400 bdt:21600 bnt:28800 bort:28800 btt:21600 '
  + 'cct:28800 hkt:28800 ict:25200 idt:10800 irt:12600 ist:7200 jayt:32400 jst:32400 kdt:36000 kgst:21600 kst:32400 mmt:23400 '
  + 'myt:28800 npt:20700 pht:28800 pkt:18000 pkst:21600 tjt:18000 ulast:32400 uzst:21600 uzt:18000 xjt:21600 yekst:21600 adt:-10800 '
  + 'ast:-14400 azost:0 azot:-3600 acsst:37800 acdt:37800 acst:34200 acwst:31500 aesst:39600 aedt:39600 aest:36000 awsst:32400 '
  + 'awst:28800 cadt:37800 cast:34200 lhst:37800 ligt:36000 nzt:43200 sadt:37800 wadt:28800 wast:25200 wdt:32400 gmt:0 uct:0 ut:0 '
  + 'utc:0 z:0 zulu:0 bst:3600 bdst:7200 cest:7200 cet:3600 cetdst:7200 eest:10800 eet:7200 eetdst:10800 fet:10800 mest:7200 '
  + 'mesz:7200 met:3600 metdst:7200 mez:3600 msd:14400 wet:0 wetdst:3600 cxt:25200 mut:14400 must:18000 mvt:18000 ret:14400 '
  + 'sct:14400 tft:18000 chadt:49500 chast:45900 chut:36000 fjst:46800 fjt:43200 galt:-21600 gamt:-32400 gilt:43200 hst:-36000 '
  + 'mart:-34200 mht:43200 mpt:36000 nzdt:46800 nzst:43200 pgt:36000 pont:39600 pwt:32400 taht:-36000 tot:46800 trut:36000 '
  + 'tvt:43200 vut:39600 wakt:43200 wft:43200 yapt:36000';
const DYNAMIC_ABBREVIATIONS = 'art arst clt gyt pyt vet davt mawt amst anast anat azst azt gest get irkst irkt kgt krast krat lkt '
  + 'magst magt novst novt omsst omst petst pett sgt tmt ulat vlast vlat yakst yakt yekt fkst fkt lhdt msk volt iot ckt easst east '
  + 'kost lint nut tkt';

const fixedAbbreviations = new Map<string, number>(FIXED_ABBREVIATIONS.split(' ').map((e) => {
  const [name, east] = e.split(':');
  return [name ?? '', Number(east)];
}));
const dynamicAbbreviations = new Set(DYNAMIC_ABBREVIATIONS.split(' '));

// The Default set's daylight-saving abbreviations (pg_timezone_abbrevs.is_dst): date/time input refuses
// one followed by DST ('PDT DST'), which only a standard time's abbreviation may be.
const DAYLIGHT_ABBREVIATIONS = new Set(('acdt acsst adt aedt aesst akdt almst awsst azost bdst brst bst cadt cdt cest cetdst chadt clst '
  + 'clt easst east edt eest eetdst egst fjst fnst idt kdt kgst lhdt mdt mest mesz metdst msd must ndt nzdt pdt pkst pmdt pyst sadt '
  + 'ulast uyst uzst wadt wdt wetdst wgst yekst').split(' '));

/** Whether an abbreviation of the Default set, lower-cased, names a daylight-saving time. */
export function isDaylightAbbreviation(lower: string): boolean {
  return DAYLIGHT_ABBREVIATIONS.has(lower);
}

/**
 * An abbreviation of the Default set, lower-cased: its fixed offset east in seconds, 'dynamic' for one
 * whose offset PostgreSQL takes from a zone's history, null for none.
 */
export function abbreviationOffset(lower: string): number | 'dynamic' | null {
  const east = fixedAbbreviations.get(lower);
  if (east !== undefined) return east;
  return dynamicAbbreviations.has(lower) ? 'dynamic' : null;
}

// ICU accepts some legacy identifiers (Java's three-letter ones, SystemV/) that are not in the IANA
// database PostgreSQL reads; those it does not recognize either.
const ICU_ONLY = /^(?:act|aet|agt|art|ast|bet|bst|cat|cnt|cst|ctt|eat|ect|iet|ist|jst|mit|net|nst|plt|pnt|prt|pst|sst|vst|systemv\/.*)$/;
const regionNameRe = /^[a-z][a-z0-9_+-]*(?:\/[a-z0-9_+-]+)*$/i;
/** Regions by lower-cased name; only names that are zones (so bounded by the database's names). */
const regions = new Map<string, Region>();

/** A region of the time zone database by a name PostgreSQL accepts (any case; posix/ prefixed), or null. */
function regionByName(name: string): Region | null {
  let lower = name.toLowerCase();
  if (lower.startsWith('posix/')) lower = lower.slice('posix/'.length);
  if (!regionNameRe.test(lower) || ICU_ONLY.test(lower)) return null;
  const known = regions.get(lower);
  if (known !== undefined) return known;
  // 'Factory', in PostgreSQL's database but not ICU's: offset 0.
  const id = lower === 'factory' ? 'UTC' : lower;
  let r: Region;
  try {
    r = new Region(new Intl.DateTimeFormat('en-US', { timeZone: id }).resolvedOptions().timeZone);
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
  regions.set(lower, r);
  return r;
}

// tzcode's getzname: a name of characters other than digits, ',', '-' and '+' (so 'SystemV/EST5' is a
// POSIX zone too), or any in <>. PostgreSQL's tzparse takes names shorter than three ('x-3').
const posixStd = '(?:[^\\d,+<>-]+|<[a-z0-9:+-]+>)';
const posixOffset = '([+-])?(\\d{1,3})(?::(\\d{1,2})(?::(\\d{1,2}))?)?';
const posixRe = new RegExp(`^${posixStd}${posixOffset}$`, 'i');
// With daylight saving: a name after the offset (never starting with ':', which the offset's minutes
// take), its own optional offset, then the end or the rules after ',' (tzparse rejects anything else).
const posixDstRe = new RegExp(`^${posixStd}${posixOffset}(?!:)${posixStd}(?:[+-]?\\d{1,3}(?::\\d{1,2}(?::\\d{1,2})?)?)?(?:$|[,;])`, 'i');

/** A POSIX zone without daylight saving time ('UTC+3', '<+03>-3'): its offset east (POSIX counts west). */
function posixOffsetEast(text: string): number | null {
  const m = posixRe.exec(text);
  if (m === null) {
    const dst = posixDstRe.exec(text);
    // tzcode's getsecs: hours up to a week less one.
    if (dst !== null && Number(dst[2]) <= 167) throw new SqlError(SqlState.featureNotSupported, `time zone "${text}" is not supported (POSIX time zones with daylight saving rules)`);
    return null;
  }
  const west = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  // tzcode's getsecs: up to a week less a second.
  if (west > 167 * 3600 + 59 * 60 + 59 || Number(m[3] ?? 0) > 59 || Number(m[4] ?? 0) > 59) return null;
  return m[1] === '-' ? west : -west;
}

/** 0A000 for a dynamic abbreviation where its offset is needed. */
export function dynamicUnsupported(text: string): SqlError {
  return new SqlError(SqlState.featureNotSupported, `time zone abbreviation "${text.toLowerCase()}" is not supported (its offset follows a zone's history)`);
}

/**
 * The zone a name gives, in PostgreSQL's order: an abbreviation, a zone of the database, a POSIX zone;
 * null when it is none of them. 0A000 for a dynamic abbreviation or a POSIX zone with daylight saving.
 */
export function zoneByName(text: string): Zone | null {
  const abbrev = abbreviationOffset(text.toLowerCase());
  if (abbrev === 'dynamic') throw dynamicUnsupported(text);
  if (abbrev !== null) return { kind: 'fixed', east: abbrev };
  const region = regionByName(text);
  if (region !== null) return { kind: 'region', region };
  const east = posixOffsetEast(text);
  return east === null ? null : { kind: 'fixed', east };
}

/**
 * A TimeZone setting's zone (pg_tzset): a zone of the database by name or a POSIX zone, never an
 * abbreviation; null for none. 0A000 for a POSIX zone with daylight saving rules.
 */
export function regionOrPosixZone(text: string): Zone | null {
  const region = regionByName(text);
  if (region !== null) return { kind: 'region', region };
  const east = posixOffsetEast(text);
  return east === null ? null : { kind: 'fixed', east };
}

// The zone database's names at its top level (tzdata's 'backward' links and the old System V zones),
// which ICU does not list, for SHOW's spelling of a name given in another case.
const TOP_LEVEL_NAMES = 'CET CST6CDT Cuba EET EST EST5EDT Egypt Eire Factory GB GB-Eire GMT GMT+0 GMT-0 GMT0 Greenwich HST Hongkong '
  + 'Iceland Iran Israel Jamaica Japan Kwajalein Libya MET MST MST7MDT NZ NZ-CHAT Navajo PRC PST8PDT Poland Portugal ROC ROK '
  + 'Singapore Turkey UCT UTC Universal W-SU WET Zulu Etc/UTC Etc/UCT Etc/GMT Etc/Universal Etc/Zulu Etc/Greenwich Etc/GMT0 '
  + 'Etc/GMT+0 Etc/GMT-0 US/Eastern US/Central US/Mountain US/Pacific US/Alaska US/Hawaii US/Arizona US/Michigan Asia/Kolkata '
  + 'Europe/Kyiv Asia/Ho_Chi_Minh Asia/Kathmandu Asia/Yangon America/Argentina/Buenos_Aires';
let spellings: Map<string, string> | null = null;

/**
 * A zone's name as the database spells it ('europe/berlin' -> 'Europe/Berlin'), as PostgreSQL's SHOW
 * gives it back; a name neither ICU's list nor the top-level names know keeps the spelling it was given.
 */
export function zoneNameSpelling(text: string): string {
  const lower = text.toLowerCase();
  if (lower.startsWith('posix/')) return `posix/${zoneNameSpelling(text.slice('posix/'.length))}`;
  if (spellings === null) {
    spellings = new Map();
    for (const n of [...Intl.supportedValuesOf('timeZone'), ...TOP_LEVEL_NAMES.split(' ')]) spellings.set(n.toLowerCase(), n);
  }
  return spellings.get(lower) ?? text;
}

/**
 * A zone name at the end of timestamp input ('Europe/Berlin', 'PST', 'UTC+3'), lower-cased as
 * PostgreSQL reports it: the zone, 'dynamic' for a dynamic abbreviation (an error only where the offset
 * is needed), null for a word that is no zone. 22023 for a name with punctuation that is no zone.
 */
export function inputZone(token: string): Zone | 'dynamic' | null {
  const lower = token.toLowerCase();
  const abbrev = abbreviationOffset(lower);
  if (abbrev === 'dynamic') return 'dynamic';
  if (abbrev !== null) return { kind: 'fixed', east: abbrev };
  const zone = zoneByName(lower);
  if (zone !== null) return zone;
  if (/^[a-z]+$/i.test(token)) return null;
  throw new SqlError(SqlState.invalidParameterValue, `time zone "${lower}" not recognized`);
}
