// to_number(text, template) as PostgreSQL 15's numeric_to_number reads it in the C locale: the template
// is the one to_char takes (sql/to-char-number.ts parses and checks it); NUM_processor's input direction
// (ported here) walks it over the text, taking one digit per 9 or 0, the decimal point for . or D, a sign
// before the first digit (- + or < under PR) or where S, MI, PL or SG stand, skipping a group separator
// where G or , stand and one character for each literal character of the template. The digits read
// become a numeric with as many decimals as were read (numeric_in with the template's precision), and V
// divides by its power of ten. An empty template gives NULL; text without digits is 22P02 as in
// PostgreSQL (`invalid input syntax for type numeric: " "`).

import { SqlError, SqlState } from './errors.ts';
import { Numeric } from './numeric.ts';
import { applyTypmod } from './typmod.ts';
import { describe, parseFormat } from './to-char-number.ts';

const DATA_CHARS = '0123456789.,+-';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

export function toNumber(input: string, template: string): Numeric | null {
  if (template.length === 0) return null;
  const nodes = parseFormat(template);
  const d = describe(nodes);
  if (d.eeee) throw new SqlError(SqlState.featureNotSupported, '"EEEE" not supported for input');
  if (d.roman) throw new SqlError(SqlState.featureNotSupported, '"RN" not supported for input');
  let i = 0; // position in `input`
  let sign = ' ';
  let digits = '';
  let readPre = 0;
  let readPost = 0;
  let readDec = false;
  const end = input.length;
  const overload = (): boolean => i >= end;
  const eatNonData = (): void => {
    if (!overload() && !DATA_CHARS.includes(input[i] as string)) i++;
  };

  /** NUM_numpart_from_char: a digit or the decimal point, with a sign before the first or after the last. */
  const numpart = (key: string): void => {
    if (overload()) return;
    if (input[i] === ' ') i++;
    if (overload()) return;
    if (sign === ' ' && (key === '0' || key === '9') && readPre + readPost === 0) {
      if (d.lsign === 'pre') {
        if (input[i] === '-' || input[i] === '+') sign = input[i++] as string;
      } else if (input[i] === '-' || (d.bracket && input[i] === '<')) {
        sign = '-';
        i++;
      } else if (input[i] === '+') {
        sign = '+';
        i++;
      }
    }
    if (overload()) return;
    let isRead = false;
    if (isDigit(input[i])) {
      if (readDec && readPost === d.post) return;
      digits += input[i];
      if (readDec) readPost++;
      else readPre++;
      isRead = true;
    } else if (d.decimal && !readDec && input[i] === '.') {
      digits += '.';
      readDec = true;
      isRead = true;
    }
    if (overload()) return;
    if (sign === ' ' && readPre + readPost > 0) {
      if (d.lsign !== 'none' && isRead && i + 1 < end && !isDigit(input[i + 1])) {
        const c = input[i + 1];
        if (c === '-' || c === '+') {
          sign = c;
          i++;
        }
      } else if (!isRead && d.lsign === 'none' && (d.plus || d.minus)) {
        if (input[i] === '-' || input[i] === '+') sign = input[i] as string;
      }
    }
  };

  for (const n of nodes) {
    if (overload()) break;
    if (!('key' in n)) {
      i++;
      continue;
    }
    switch (n.key) {
      case '9':
      case '0':
      case '.':
      case 'D':
        numpart(n.key);
        break;
      // A group separator is read when the text has one there; under FM it reads nothing (NUM_processor's
      // num_in stays false on input).
      case ',':
      case 'G':
        if (d.fill || input[i] !== ',') continue;
        break;
      case 'L':
        // The C locale's currency symbol is a blank; whatever stands there that is not data is skipped.
        eatNonData();
        continue;
      case 'TH':
      case 'th':
        // An ordinal suffix is two characters: skip up to two that are not data.
        eatNonData();
        eatNonData();
        continue;
      case 'MI':
        if (input[i] !== '-') {
          eatNonData();
          continue;
        }
        sign = '-';
        break;
      case 'PL':
        if (input[i] !== '+') {
          eatNonData();
          continue;
        }
        sign = '+';
        break;
      case 'SG':
        if (input[i] !== '-' && input[i] !== '+') {
          eatNonData();
          continue;
        }
        sign = input[i] as string;
        break;
      default:
        continue;
    }
    i++;
  }
  if (digits.endsWith('.')) digits = digits.slice(0, -1);
  const text = sign + digits;
  const v = Numeric.parse(text);
  if (v === null) throw new SqlError(SqlState.invalidTextRepresentation, `invalid input syntax for type numeric: "${text}"`);
  // numeric_in with typmod (pre + V digits + decimals read, decimals read).
  const precision = d.pre + d.multi + readPost;
  const typed = applyTypmod(v, 'numeric', ((precision << 16) | readPost) + 4, false) as Numeric;
  if (!d.multiFlag) return typed;
  const scale = Math.max(16, d.multi);
  return typed.mul(new Numeric(10n ** BigInt(scale - d.multi), scale));
}
