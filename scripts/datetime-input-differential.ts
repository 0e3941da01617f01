// Differential check of date/time text input against a real PostgreSQL 15: hand-picked and seeded random
// spellings of dates, times and zones, each cast to date, timestamp, timestamptz, time and timetz by the
// server and by Pesto's text input (sql/value-text.ts parseText) in process; every disagreement in value
// or error (SQLSTATE and message) printed. Everything runs in one server transaction, so 'now', 'today'
// and the like read the same transaction timestamp on both sides (the server's now(), passed to Pesto).
//
//   PGHOST=/tmp/pg34 PGPORT=5600 PGUSER=pesto PGPASSWORD=pesto \
//     node --import tsx scripts/datetime-input-differential.ts [seed] [random cases] [--verbose] [--zone=Europe/Berlin]
//
// Exits 1 on any mismatch. The server's DateStyle is Pesto's (ISO, MDY); TimeZone UTC or --zone's, Pesto's
// input and output run in the same session zone (sql/session-zone.ts).

import pg from 'pg';
import { formatText, parseText } from '../sql/value-text.ts';
import { SqlTimestamp } from '../sql/datetime.ts';
import type { SqlType } from '../sql/types.ts';
import { timeZoneSetting, UTC_ZONE, withSessionZone, type SessionZone } from '../sql/session-zone.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const verbose = process.argv.includes('--verbose');
const zoneName = process.argv.find((a) => a.startsWith('--zone='))?.slice('--zone='.length) ?? 'UTC';
const zoneSetting = timeZoneSetting(zoneName);
if (!('zone' in zoneSetting)) throw new Error(zoneSetting.error);
const sessionZone: SessionZone = zoneName === 'UTC' ? UTC_ZONE : zoneSetting;
let seed = Number(args[0] ?? 1);
const cases = Number(args[1] ?? 300);
const rnd = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const pick = <T>(a: readonly T[]): T => a[rnd(a.length)] as T;

const HAND_PICKED = [
  'Mon Dec 07 23:42:00.123456 2026 UTC', 'December 7, 2026', '7 Dec 2026', '2026-12-07T23:42:00Z', '20261207 234200', 'J2461382',
  '1999-01-08 04:05:06 -8:00', 'January 8 04:05:06 1999 PST', '1/8/1999', '1/18/1999', '18/1/1999', '99-Jan-08', '08-Jan-99', 'Jan-08-99',
  '08-Jan-1999', '1999-Jan-08', '19990108', '990108', '1999.008', '2026.341', 'January 8, 99 BC', '04:05 PM', '04:05 AM', '12:00 AM',
  '12:30 PM', '13:00 PM', 'allballs', 'epoch', 'infinity', '-infinity', '+infinity', 'INFINITY', ' -Infinity ', 'infinity 2026',
  'infinity 10:00', '2026-12-07 infinity', 'infinity z', 'infinity bc', 'epoch infinity', 'infinity -infinity', '+inf', 'inf', 'now', 'today', 'tomorrow', 'yesterday',
  'today 10:00', 'tomorrow 10:00 +02', 'now 10:00', 'December 7th, 2026', '2026-W50-1', '2026-12-07 24:00', '2026-12-07 24:00:01',
  '2026-12-07 23:59:60', '2026-12-07 23:59:60.5', '2026-02-29', '2024-02-29', '0001-01-01 BC', '0000-01-01', '4714-11-24 BC',
  '4714-11-23 BC', '5874897-12-31', '294276-12-31 23:59:59', '294277-01-01', '2026-13-01', '2026-12-32', '13/1/2026', '2026-12-07 10:00 +15:59',
  '2026-12-07 10:00 +16', '2026-12-07 10:00 -0330', '2026-12-07 10:00 +5:30', '2026-12-07 10:00 +053015', '2026-12-07 10:00:00+02:30:15',
  '2026-12-07 10:00 Europe/Berlin', '2026-07-07 10:00 America/New_York', '2026-12-07 10:00 EST', '2026-12-07 10:00 CEST', '2026-12-07 10:00 MSK',
  '2026-12-07 10:00 UTC+3', '2026-12-07 10:00 Nowhere/Zone', '2026-12-07 10:00 nowhere', '2026-12-07 10:00 z', '2026-12-07 10:00 zulu',
  'y2026m12d07', 'y2026m12d07h10mm30s15', 'y2026m12d07h10mm30s15.5', 'J2461382.5', 'J2461382 10:00', 'j2461382-08',
  '2026-12-07 T 10:00', '2026-12-07T1000', '2026-12-07T103015.25', '20261207T103015', '20261207T103015-08', '2026-12-07 103015-0800',
  '10:00', '10:00:00.1234565', '10:00:00.1234575', '1:2:3', '10:', '10:60', '25:00', '24:00', '24:00:00.000001', '1030', '103015', '103015.5',
  '10.5', '10:30 +02', '10:30 PST', '10:30 Europe/Berlin', '2026-07-07 10:30 Europe/Berlin', '10:30 MSK', '10:30-08', '10:30 z', 'T10:30',
  '2026-12-07 10:30 BC', '2026-12-07 AD', 'Monday 2026-12-07', 'Mon, 07 Dec 2026 23:42:00 GMT', 'Sat Dec 07 2026', 'Dec 07 23:42 2026',
  'Dec 07 234200 +02 2026', '2026-12-07 at 10:00', 'on 2026-12-07', '2026/12/07', '2026.12.07', '12.07.2026', '2026-12.07', '12-07-2026',
  '', ' ', 'garbage', '2026-12-07 garbage', '2026-12-07 10:00 DST', '2026-12-07 10:00 PST DST', '2026-12-07 10:00 MET DST', '1e5',
  '2026-12-07 10:00:00.', '.5', '2026-12-07 .5', '  2026-12-07   10:00  ', '2026-12-07\t10:00', '2026-12-07 10:00 +02 garbage',
  '99999999', '2026-12-07 99999999999:00', '12345678901', '2026-12-07 10:00 +99999999999', '2026 december 7', '7 december', 'december',
  '2026-december-07', 'dec-07-2026 10:00 pm', '10:00 pm dec 7 2026', 'sept 7 2026', 'Tues Sept 07 2026', '2026-12-07 10:00:00 -00',
  '2026-12-07 10:00 +', '2026-12-07 - 10:00', 'J', 'J-1', '2026-12-07 01:02:03.123456789', '1999-1-8', '99-1-8', '1-8-99', '1/8/99', '8/1/99',
  '70-01-01', '69-01-01', '0-01-01', '00-01-01', '100-01-01', '2026-341', '2026.366', '2025.366', '2026.0', '2026-12-07 10:00 PM', '2026-12-07 13:00 AM',
  '2026-12-07 mm30', '2026-12-07 h10', 'd07 m12 y2026', '2026-12-07 isodow1', 'now+1', 'today z', 'allballs 2026-12-07', 'epoch 10:00',
];

// Random spellings put together from parts.
const MONTHS = ['jan', 'Feb', 'MAR', 'april', 'May', 'june', 'Jul', 'aug', 'sep', 'Sept', 'october', 'nov', 'December'];
const DAYS = ['Mon', 'tuesday', 'Wed', 'thu', 'Fri', 'sat', 'Sunday'];
const ZONES = ['Z', 'UTC', 'GMT', '+02', '-08:00', '+0530', '-3', '+14', '-12:45', 'PST', 'EDT', 'CET', 'JST', 'Europe/Paris', 'Asia/Tokyo',
  'America/Los_Angeles', 'Australia/Lord_Howe', 'UTC+3', 'EST5EDT', 'Etc/GMT+5', '+16', 'MSK', 'zulu'];
const pad = (n: number, w: number): string => String(n).padStart(w, '0');
function randomDate(): string {
  const y = rnd(4) === 0 ? rnd(100) : 1 + rnd(2999);
  const m = 1 + rnd(rnd(10) === 0 ? 14 : 12);
  const d = 1 + rnd(rnd(10) === 0 ? 33 : 28);
  const mon = MONTHS[m - 1] ?? 'jan';
  switch (rnd(10)) {
    case 0: return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
    case 1: return `${m}/${d}/${y}`;
    case 2: return `${mon} ${d}, ${y}`;
    case 3: return `${d} ${mon} ${y}`;
    case 4: return `${d}-${mon}-${pad(y, 2)}`;
    case 5: return `${pad(y, 4)}${pad(m, 2)}${pad(d, 2)}`;
    case 6: return `${pad(y, 4)}.${pad(1 + rnd(366), 3)}`;
    case 7: return `J${2_400_000 + rnd(100_000)}`;
    case 8: return `${pick(DAYS)} ${mon} ${pad(d, 2)} ${pad(y, 4)}`;
    default: return `${y}-${mon}-${d}`;
  }
}
function randomTime(): string {
  const h = rnd(rnd(10) === 0 ? 26 : 24);
  const mi = rnd(rnd(10) === 0 ? 61 : 60);
  const s = rnd(61);
  const frac = rnd(3) === 0 ? `.${rnd(10_000_000)}` : '';
  switch (rnd(6)) {
    case 0: return `${pad(h, 2)}:${pad(mi, 2)}`;
    case 1: return `${h % 13}:${pad(mi, 2)} ${pick(['AM', 'pm', 'a.m.'])}`;
    case 2: return `${pad(h, 2)}${pad(mi, 2)}${pad(s, 2)}${frac}`;
    case 3: return `T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac}`;
    default: return `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac}`;
  }
}
function randomInput(): string {
  const parts: string[] = [];
  const shape = rnd(8);
  if (shape !== 0) parts.push(randomDate());
  if (shape !== 1 && rnd(4) !== 0) parts.push(randomTime());
  if (rnd(3) === 0) parts.push(pick(ZONES));
  if (rnd(8) === 0) parts.push(pick(['BC', 'AD']));
  if (rnd(4) === 0) parts.reverse();
  let s = parts.join(rnd(6) === 0 ? 'T' : ' ');
  if (rnd(8) === 0 && s.length > 0) {
    const at = rnd(s.length);
    s = s.slice(0, at) + pick(['x', '-', '/', ':', '.', ' ', '99', 'th', ',', '+']) + s.slice(at + rnd(2));
  }
  return s;
}

const TYPES: readonly SqlType[] = ['date', 'timestamp', 'timestamptz', 'time', 'timetz'];
const describe = (e: unknown): string => {
  const x = e as { code?: string; message: string; hint?: string };
  return `ERR ${x.code ?? '?'} ${x.message}${x.hint === undefined ? '' : ` HINT ${x.hint}`}`;
};

const client = new pg.Client({ database: process.env.PGDATABASE ?? 'pesto' });
await client.connect();
await client.query(`SET TimeZone = '${zoneName}'`);
await client.query("SET DateStyle = 'ISO, MDY'");
await client.query('BEGIN');
const nowText = (await client.query<{ us: string }>("SELECT (extract(epoch FROM now()) * 1000000)::bigint::text AS us")).rows[0]?.us ?? '0';
const now = new SqlTimestamp(BigInt(nowText));
const server = async (text: string, type: SqlType): Promise<string> => {
  await client.query('SAVEPOINT s');
  try {
    const r = await client.query<{ v: string }>({ text: `SELECT $1::${type}::text AS v`, values: [text] });
    return String(r.rows[0]?.v);
  } catch (e) {
    await client.query('ROLLBACK TO SAVEPOINT s');
    return describe(e);
  }
};
const pesto = (text: string, type: SqlType): string => {
  try {
    return withSessionZone(sessionZone, () => formatText(parseText(text, type, -1, now), type), now.micros);
  } catch (e) {
    return describe(e);
  }
};

const inputs = [...HAND_PICKED];
for (let i = 0; i < cases; i++) inputs.push(randomInput());
let mismatches = 0;
for (const text of inputs) {
  for (const type of TYPES) {
    const want = await server(text, type);
    const got = pesto(text, type);
    if (want === got) continue;
    mismatches++;
    if (verbose || mismatches <= 200) console.log(`'${text}'::${type}\n  postgresql: ${want}\n  pesto:      ${got}`);
  }
}
await client.query('ROLLBACK');
console.log(`${mismatches} mismatches in ${inputs.length * TYPES.length} casts (${inputs.length} inputs)`);
await client.end();
process.exit(mismatches === 0 ? 0 : 1);
