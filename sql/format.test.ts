import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatString, parseFormatSpec } from './format.ts';

const spec = (s: string): object => {
  const { argPos, widthPos, leftAlign, width, conversion } = parseFormatSpec(Array.from(s), 0);
  return { argPos, widthPos, leftAlign, width, conversion };
};

void test('parses positions, flags and widths of a specifier as text_format_parse_format does', () => {
  const cases: [string, object][] = [
    ['s', { argPos: -1, widthPos: -1, leftAlign: false, width: 0, conversion: 's' }],
    ['10s', { argPos: -1, widthPos: -1, leftAlign: false, width: 10, conversion: 's' }],
    ['2$-5I', { argPos: 2, widthPos: -1, leftAlign: true, width: 5, conversion: 'I' }],
    ['*L', { argPos: -1, widthPos: 0, leftAlign: false, width: 0, conversion: 'L' }],
    ['1$*3$s', { argPos: 1, widthPos: 3, leftAlign: false, width: 0, conversion: 's' }],
    // A width first means no flags follow: the `-` is the (unrecognized) type.
    ['5-s', { argPos: -1, widthPos: -1, leftAlign: false, width: 5, conversion: '-' }],
  ];
  for (const [s, want] of cases) assert.deepEqual(spec(s), want, s);
});

void test('refuses malformed specifiers with PostgreSQL messages', () => {
  const cases: [string, RegExp][] = [
    ['0$s', /argument 0/],
    ['1$', /unterminated/],
    ['12', /unterminated/],
    ['*2s', /width argument position must be ended by "\$"/],
    ['*0$s', /argument 0/],
    ['99999999999s', /number is out of range/],
  ];
  for (const [s, want] of cases) assert.throws(() => parseFormatSpec(Array.from(s), 0), want, s);
});

void test('formats values, NULLs, quoting and widths like PostgreSQL 15', () => {
  const cases: [string, (string | null)[], string][] = [
    ['Hello %s, %1$s', ['World'], 'Hello World, World'],
    ['%I %L %L %s|', ['a b', "it's", null, null], `"a b" 'it''s' NULL |`],
    ['%-10s|%10s|', ['ab', 'cd'], 'ab        |        cd|'],
    ['%*s|', ['6', 'x'], '     x|'],
    ['%*s|', ['-6', 'x'], 'x     |'],
    ['%1$*2$s|', ['x', '5'], '    x|'],
    ['%1$*s|', ['3', 'x'], '  3|'],
    ['%2$s %s', ['a', 'b', 'c'], 'b c'],
    ['%s %1$s %s', ['a', 'b'], 'a a b'],
    ['%%|%L', ['a\\b'], "%|E'a\\\\b'"],
    ['%3s|', ['ééé'], 'ééé|'],
    ['%*s|', [null, 'x'], 'x|'],
  ];
  for (const [fmt, args, want] of cases) assert.equal(formatString(fmt, args), want, fmt);
});

void test('reports format errors before fetching arguments', () => {
  assert.throws(() => formatString('%z', []), /unrecognized format\(\) type specifier "z"/);
  assert.throws(() => formatString('%s %s', ['1']), /too few arguments for format\(\)/);
  assert.throws(() => formatString('%', ['1']), /unterminated/);
  assert.throws(() => formatString('%I', [null]), /null values cannot be formatted as an SQL identifier/);
  assert.throws(() => formatString('%*s', ['a', 'x']), /invalid input syntax for type integer: "a"/);
});
