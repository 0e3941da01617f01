// Parser for sqllogictest scripts (the format of SQLite's sqllogictest, also used by RisingLight,
// DuckDB and CockroachDB). It never throws: a record it cannot understand becomes an `invalid`
// record that the runner reports as a failure, so one typo does not hide the rest of a file.
//
// Accepted records (each ends at a blank line or end of file):
//
//   statement ok                 the SQL on the following lines must succeed
//   statement error              it must fail, with any error
//   statement error 23505        it must fail with this SQLSTATE (exactly five characters [0-9A-Z])
//   statement error <regex>      it must fail with a message matching the regex (unanchored)
//   query <types> [nosort|rowsort|valuesort] [label]
//   <sql lines>
//   ----
//   <expected lines>             one value per line, or one row per line (values separated by a space),
//                                or `N values hashing to <md5>`
//   query error [<SQLSTATE>|<regex>]   like `statement error`, for a query
//   hash-threshold N             results with more than N values are written as hashes (0 disables)
//   halt                         stop the script here (usually under `onlyif`)
//
// `skipif <label>` and `onlyif <label>` lines may precede any record. Lines starting with `#` are
// comments, except inside a query's expected results.
import type {
  SltCondition,
  SltErrorExpectation,
  SltExpected,
  SltQuery,
  SltRecord,
  SltScript,
  SltSortMode,
} from './slt-record.ts';

const sortModes: ReadonlySet<string> = new Set<SltSortMode>(['nosort', 'rowsort', 'valuesort']);
const sqlstatePattern = /^[0-9A-Z]{5}$/;
const hashPattern = /^(\d+) values hashing to ([0-9a-f]{32})$/;

type Line = { readonly text: string; readonly number: number };

/** Parses a script. `name` identifies it in reports (usually the file name). */
export function parseSlt(name: string, text: string): SltScript {
  const lines = text.split('\n').map((raw, i) => ({ text: raw.replace(/\r$/, ''), number: i + 1 }));
  const records: SltRecord[] = [];
  let i = 0;
  while (i < lines.length) {
    // Skip blank lines and comments between records.
    const first = lines[i];
    if (first === undefined) break;
    if (isBlank(first.text) || isComment(first.text)) {
      i += 1;
      continue;
    }
    // Gather the record: everything up to the next blank line.
    let end = i;
    while (end < lines.length && !isBlank(lines[end]?.text ?? '')) end += 1;
    records.push(parseRecord(lines.slice(i, end), end + 1));
    i = end;
  }
  return { name, records };
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

function stripTrailingComment(text: string): string {
  return text.replace(/\s#.*$/, '').trim();
}

function isComment(text: string): boolean {
  return text.startsWith('#');
}

function parseRecord(block: readonly Line[], endLine: number): SltRecord {
  const line = block[0]?.number ?? endLine;
  const conditions: SltCondition[] = [];
  let k = 0;
  for (; k < block.length; k += 1) {
    const text = block[k]?.text ?? '';
    if (isComment(text)) continue;
    const [word, label, ...rest] = stripTrailingComment(text).split(/\s+/);
    if ((word === 'skipif' || word === 'onlyif') && label !== undefined && rest.length === 0) {
      conditions.push({ kind: word, label });
      continue;
    }
    break;
  }
  const header = block[k];
  const invalid = (message: string): SltRecord => ({
    kind: 'invalid',
    line,
    conditions,
    message,
    text: block.map((l) => l.text).join('\n'),
  });
  if (header === undefined) return invalid('conditions without a record');
  // Trailing `# ...` comments are allowed on headers (SQLite's corpus writes `skipif mysql # why`),
  // except after `statement error` / `query error`, whose regex may contain `#`.
  const isErrorHeader = /^(statement|query)\s+error\b/.test(header.text.trim());
  const words = (isErrorHeader ? header.text.trim() : stripTrailingComment(header.text)).split(/\s+/);
  const body = block.slice(k + 1).filter((l) => !isComment(l.text));
  switch (words[0]) {
    case 'statement': {
      const sql = body.map((l) => l.text).join('\n');
      if (sql.trim() === '') return invalid('statement without SQL');
      if (words[1] === 'ok' && words.length === 2) return { kind: 'statement', line, conditions, sql, error: null };
      if (words[1] === 'error') {
        const error = parseErrorExpectation(header.text.trim().slice('statement error'.length).trim());
        if (typeof error === 'string') return invalid(error);
        return { kind: 'statement', line, conditions, sql, error };
      }
      return invalid(`unknown statement form: ${header.text}`);
    }
    case 'query':
      return parseQuery(words, header.text, block.slice(k + 1), line, conditions, endLine, invalid);
    case 'hash-threshold': {
      const threshold = Number(words[1]);
      if (words.length !== 2 || !Number.isInteger(threshold) || threshold < 0) return invalid('bad hash-threshold');
      return { kind: 'hash-threshold', line, conditions, threshold };
    }
    case 'halt':
      return { kind: 'halt', line, conditions };
    default:
      return invalid(`unknown record: ${header.text}`);
  }
}

function parseQuery(
  words: readonly string[],
  headerText: string,
  rest: readonly Line[],
  line: number,
  conditions: readonly SltCondition[],
  endLine: number,
  invalid: (message: string) => SltRecord,
): SltRecord {
  const separator = rest.findIndex((l) => l.text === '----');
  const sqlLines = (separator < 0 ? rest : rest.slice(0, separator)).filter((l) => !isComment(l.text));
  const sql = sqlLines.map((l) => l.text).join('\n');
  if (sql.trim() === '') return invalid('query without SQL');
  const resultLine = separator < 0 ? null : (rest[separator]?.number ?? null);
  const resultLines = separator < 0 ? [] : rest.slice(separator + 1).map((l) => l.text);
  const base = { kind: 'query', line, conditions, sql, resultLine, endLine } as const;
  if (words[1] === 'error') {
    const error = parseErrorExpectation(headerText.trim().slice('query error'.length).trim());
    if (typeof error === 'string') return invalid(error);
    const query: SltQuery = { ...base, types: '', sort: 'nosort', label: null, expected: null, error };
    return query;
  }
  const types = words[1];
  if (types === undefined || !/^[A-Za-z]+$/.test(types)) return invalid(`query needs column types: ${headerText}`);
  let next = 2;
  let sort: SltSortMode = 'nosort';
  const sortWord = words[next];
  if (sortWord !== undefined && sortModes.has(sortWord)) {
    sort = sortWord as SltSortMode;
    next += 1;
  }
  const label = words[next] ?? null;
  if (words.length > next + 1) return invalid(`too many words in query header: ${headerText}`);
  const query: SltQuery = { ...base, types, sort, label, expected: parseExpected(resultLines), error: null };
  return query;
}

function parseExpected(lines: readonly string[]): SltExpected {
  const only = lines.length === 1 ? lines[0] : undefined;
  const hash = only === undefined ? null : hashPattern.exec(only.trim());
  if (hash !== null) return { kind: 'hash', valueCount: Number(hash[1]), md5: hash[2] ?? '' };
  return { kind: 'lines', lines };
}

/** Returns the expectation, or an error message for the invalid record. */
function parseErrorExpectation(rest: string): SltErrorExpectation | string {
  if (rest === '') return { kind: 'any' };
  if (sqlstatePattern.test(rest)) return { kind: 'sqlstate', code: rest };
  try {
    new RegExp(rest);
  } catch {
    return `bad error regex: ${rest}`;
  }
  return { kind: 'regex', pattern: rest };
}
