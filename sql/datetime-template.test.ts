import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate, type TemplateNode } from './datetime-template.ts';
import { toDate, toTimestamp } from './to-date.ts';
import { formatDate, formatTimestamp } from './datetime.ts';
import { SqlError } from './errors.ts';

/** A template's nodes in short: a field as its name (with FM and TH), other nodes as kind:char. */
const shape = (template: string): string[] =>
  parseTemplate(template).map((n: TemplateNode) => (n.kind === 'field' ? `${n.fm ? 'FM' : ''}${n.key.name}${n.suffix}` : `${n.kind}:${n.ch}`));

void test('matches keywords case-sensitively, longest first, as formatting.c does', () => {
  const cases: [string, string[]][] = [
    ['YYYY-MM-DD', ['YYYY', 'separator:-', 'MM', 'separator:-', 'DD']],
    ['Dd', ['D', 'd']],
    ['mOn', ['text:m', 'text:O', 'text:n']],
    ['Yyyy', ['Y', 'yyy']],
    ['HH24MISS', ['HH24', 'MI', 'SS']],
    ['SSSSS', ['SSSSS']],
    ['Y,YYY', ['Y,YYY']],
  ];
  for (const [template, nodes] of cases) assert.deepEqual(shape(template), nodes, template);
});

void test('takes one FM or TM prefix and a TH suffix after any keyword', () => {
  assert.deepEqual(shape('FMDDth'), ['FMDDth']);
  assert.deepEqual(shape('MONth'), ['MONth']);
  assert.deepEqual(shape('FMTMMonth'), ['text:T', 'MM', 'text:o', 'text:n', 'text:t', 'text:h']);
});

void test('treats quoted text as text and a backslash as special only before a double quote', () => {
  assert.deepEqual(shape('"a-b"'), ['text:a', 'text:-', 'text:b']);
  assert.deepEqual(shape('"a\\"b"'), ['text:a', 'text:"', 'text:b']);
  assert.deepEqual(shape('\\YYYY'), ['separator:\\', 'YYYY']);
  assert.deepEqual(shape('\\"'), ['separator:"']);
  assert.deepEqual(shape(' \tx'), ['space: ', 'space:\t', 'text:x']);
});

void test('reads dates and timestamps with PostgreSQL 15 results', () => {
  const dates: [string, string, string][] = [
    ['2024-03-05', 'YYYY-MM-DD', '2024-03-05'],
    ['2024', 'YYYY', '2024-01-01'],
    ['2024031', 'YYYYMMDD', '2024-03-01'],
    ['02-30', 'MM-DD', '0001-03-01 BC'],
    ['5 BC 24 00', 'CC BC YY DD', '0424-01-01 BC'],
    ['2024 10 7', 'IYYY IW ID', '2024-03-10'],
  ];
  for (const [s, t, want] of dates) assert.equal(formatDate(toDate(s, t).days), want, `${s} / ${t}`);
  assert.equal(formatTimestamp(toTimestamp('14:30', 'HH24:MI').micros), '0001-01-01 14:30:00 BC');
  assert.equal(formatTimestamp(toTimestamp('2024-03-05 14:30 -05:30', 'YYYY-MM-DD HH24:MI TZH:TZM').micros), '2024-03-05 20:00:00');
  // FF rounds halves away from PostgreSQL's epoch, 2000-01-01: 50 µs before it rounds down to 100 µs before.
  assert.equal(formatTimestamp(toTimestamp('1999-12-31 23:59:59.99995', 'YYYY-MM-DD HH24:MI:SS.FF4').micros), '1999-12-31 23:59:59.9999');
});

void test('raises PostgreSQL 15 errors with their codes and details', () => {
  const cases: [string, string, string, string, string?][] = [
    ['2024-x-05', 'YYYY-MM-DD', '22007', 'invalid value "x-" for "MM"', 'Value must be an integer.'],
    ['202', 'YYYYMM', '22007', 'source string too short for "YYYY" formatting field', 'Field requires 4 characters, but only 3 remain.'],
    ['2024-02-30', 'YYYY-MM-DD', '22008', 'date/time field value out of range: "2024-02-30"'],
    ['2024 2023', 'YYYY YYYY', '22007', 'conflicting values for "YYYY" field in formatting string'],
    ['2024 X', 'YYYY TZ', '0A000', 'formatting field "TZ" is only supported in to_char'],
  ];
  for (const [s, t, code, message, detail] of cases) {
    assert.throws(() => toDate(s, t), (e: unknown) => {
      assert.ok(e instanceof SqlError);
      assert.equal(e.code, code);
      assert.equal(e.message, message);
      if (detail !== undefined) assert.equal(e.detail, detail);
      return true;
    }, `${s} / ${t}`);
  }
});
