// Differential check of the date/time template functions against a real PostgreSQL 15: seeded random
// templates and inputs run through Pesto's to_char, to_date and to_timestamp in process and through the
// server, every disagreement printed. Inputs for to_date/to_timestamp are mostly the server's own to_char
// of a random timestamp under the same template, sometimes with a piece spliced in, sometimes pure noise.
//
//   PGHOST=/tmp/pg34 PGPORT=5600 PGUSER=pesto PGPASSWORD=pesto \
//     node --import tsx scripts/formatting-differential.ts [seed] [cases]
//
// Exits 1 on any mismatch. The server's TimeZone is set to UTC, as Pesto's sessions are.

import pg from 'pg';
import { toChar } from '../sql/to-char.ts';
import { toDate, toTimestamp } from '../sql/to-date.ts';
import { formatDate } from '../sql/datetime.ts';
import { parseTimestamp } from '../sql/datetime-input.ts';
import { formatText } from '../sql/value-text.ts';

let seed = Number(process.argv[2] ?? 1);
const cases = Number(process.argv[3] ?? 300);
const rnd = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const pick = <T>(a: readonly T[]): T => a[rnd(a.length)] as T;

const FIELDS = ['YYYY', 'YY', 'Y', 'YYY', 'MM', 'DD', 'DDD', 'D', 'Mon', 'Month', 'MON', 'Dy', 'Day', 'HH24', 'HH12', 'HH', 'MI', 'SS',
  'MS', 'US', 'FF3', 'AM', 'PM', 'a.m.', 'BC', 'AD', 'CC', 'J', 'WW', 'W', 'IW', 'ID', 'IYYY', 'Q', 'RM', 'TZH', 'TZM', 'SSSS', 'FMDD',
  'FMMM', 'DDth', 'FX', 'yyyy', 'mm', 'dd', 'IDDD', 'Y,YYY', 'SSSSS', 'FF1', 'FF6', 'B.C.', 'rm', 'tzh', 'Dd', 'FXYYYY', 'MMTH',
  'FMMonth', 'HH24th', 'mon', 'month', 'DY'];
const SEPARATORS = ['"at"', ' - ', '\\', 'FX', '-', ' ', '/', ':', '.', '', '  ', '"T"', ',', 'x'];
const PIECES = ['\t', '   ', ' 7', '-5', '+3', 'Sun', 'SEPTEMBER', 'A.D.', 'b.c.', '2,024', '00', '1999', '2024', '24', '3', '03', '12',
  '31', '5', '065', 'Mar', 'March', 'Tuesday', '14', '30', '59', '123', '456789', 'AM', 'pm', 'p.m.', 'BC', '21', '2460375', 'XII',
  'iv', '+05', '-03', '52215', '1st', '0', '99', '-', ' ', '/', ':', '.', 'T', ',', 'x'];
/** Template material for to_char: letters of every case, modifiers, quotes, backslashes, whole keywords. */
const ALPHABET = [...'YyMmDdHhIiSsFfXxTtZzOoNnAaPpBbCcWwQqJjRrUuEeLlVG1246,. -"\\', 'FM', 'fm', 'TM', 'TH', 'th', 'YYYY', 'Month',
  'MON', 'Day', 'HH24', 'A.M.', 'b.c.', 'IYYY', 'IDDD', 'SSSSS', 'FF3', 'Y,YYY', 'DDD', 'RM', 'rm', 'TZ', 'OF'];

const pad = (n: number, w: number): string => String(n).padStart(w, '0');
const randomTimestamp = (): string =>
  `${pad(1 + rnd(2500), 4)}-${pad(1 + rnd(12), 2)}-${pad(1 + rnd(28), 2)} ${pad(rnd(24), 2)}:${pad(rnd(60), 2)}:${pad(rnd(60), 2)}` +
  `.${pad(rnd(1_000_000), 6)}${rnd(5) === 0 ? ' BC' : ''}`;
const outcome = (f: () => string): string => {
  try {
    return f();
  } catch (e) {
    return `ERR ${(e as { code?: string }).code ?? '?'} ${(e as Error).message}`;
  }
};

const client = new pg.Client({ database: process.env.PGDATABASE ?? 'pesto' });
await client.connect();
await client.query("SET TimeZone = 'UTC'");
const server = async (sql: string, values: readonly string[]): Promise<string> => {
  try {
    const r = await client.query<{ v: string }>({ text: sql, values: [...values] });
    return String(r.rows[0]?.v);
  } catch (e) {
    return `ERR ${(e as { code?: string }).code ?? '?'} ${(e as Error).message}`;
  }
};

let mismatches = 0;
const compare = (call: string, want: string, got: string): void => {
  if (want === got) return;
  mismatches++;
  console.log(`${call}\n  postgresql: ${JSON.stringify(want)}\n  pesto:      ${JSON.stringify(got)}`);
};

for (let i = 0; i < cases; i++) {
  // to_char over random template text.
  let charTemplate = '';
  for (let j = 1 + rnd(10); j > 0; j--) charTemplate += pick(ALPHABET);
  const ts = randomTimestamp();
  for (const type of ['timestamp', 'timestamptz'] as const) {
    const want = await server(`SELECT to_char($1::${type}, $2) AS v`, [ts, charTemplate]);
    compare(`to_char('${ts}'::${type}, '${charTemplate}')`, want, outcome(() => toChar(parseTimestamp(ts), charTemplate, type === 'timestamptz')));
  }
  // to_date and to_timestamp over a template of fields.
  let template = '';
  const fields = 1 + rnd(4);
  for (let j = 0; j < fields; j++) template += pick(FIELDS) + (j < fields - 1 ? pick(SEPARATORS) : '');
  let input = '';
  if (rnd(3) === 0) {
    for (let j = 1 + rnd(7); j > 0; j--) input += pick(PIECES);
  } else {
    input = await server('SELECT to_char($1::timestamptz, $2) AS v', [randomTimestamp(), template.replace(/TZ[HM]/gi, 'MI')]);
    if (rnd(3) === 0) {
      const at = rnd(input.length + 1);
      input = input.slice(0, at) + pick(PIECES) + input.slice(at + rnd(2));
    }
  }
  const call = (fn: string): string => `${fn}('${input}', '${template}')`;
  compare(call('to_date'), await server('SELECT to_date($1, $2)::text AS v', [input, template]), outcome(() => formatDate(toDate(input, template).days)));
  compare(call('to_timestamp'), await server('SELECT to_timestamp($1, $2)::text AS v', [input, template]),
    outcome(() => formatText(toTimestamp(input, template), 'timestamptz')));
}
console.log(`${mismatches} mismatches in ${cases * 4} calls`);
await client.end();
process.exitCode = mismatches === 0 ? 0 : 1;
