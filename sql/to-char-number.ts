// to_char(numeric | int4 | int8 | float4 | float8, template) as PostgreSQL 15's formatting.c writes it
// in the C locale: the template is parsed into patterns (9 0 . , D G S PR MI PL SG FM EEEE V L TH th)
// and literal text (double-quoted strings, backslash-escaped quotes, any other character), summarised
// (NUMDesc_prepare: digits before and after the point, where zero padding starts, sign placement), the
// value is rendered to a digit string rounded to the template's decimals (or '#' when it has more
// integer digits than the template), and the patterns are walked over that string (NUM_processor and
// NUM_numpart_to_char, ported step by step because their interplay of FM, 0, signs and the decimal
// point is what reports depend on). Floats round their exact binary value half to even, as C's printf
// does; numeric rounds half away from zero. RN and rn write the value rounded to an integer in roman
// numerals (1 to 3999, else 15 '#'), right-aligned in 15 characters unless FM.

import { SqlError, SqlState } from './errors.ts';
import { Numeric, pow10 } from './numeric.ts';
import type { SqlType, SqlValue } from './types.ts';

type Key = ',' | '.' | '0' | '9' | 'D' | 'EEEE' | 'FM' | 'G' | 'L' | 'MI' | 'PL' | 'PR' | 'RN' | 'rn' | 'SG' | 'S' | 'TH' | 'th' | 'V' | 'B' | 'C' | 'SP';
export type FormatNode = { readonly key: Key } | { readonly text: string };

/** PostgreSQL's NUM_keywords, matched in this order at each position (lower-case forms fold to upper but th, rn). */
const KEYWORDS: readonly (readonly [string, Key])[] = [
  [',', ','], ['.', '.'], ['0', '0'], ['9', '9'], ['B', 'B'], ['C', 'C'], ['D', 'D'], ['EEEE', 'EEEE'], ['FM', 'FM'], ['G', 'G'],
  ['L', 'L'], ['MI', 'MI'], ['PL', 'PL'], ['PR', 'PR'], ['RN', 'RN'], ['SG', 'SG'], ['SP', 'SP'], ['S', 'S'], ['TH', 'TH'], ['V', 'V'],
  ['b', 'B'], ['c', 'C'], ['d', 'D'], ['eeee', 'EEEE'], ['fm', 'FM'], ['g', 'G'], ['l', 'L'], ['mi', 'MI'], ['pl', 'PL'], ['pr', 'PR'],
  ['rn', 'rn'], ['sg', 'SG'], ['sp', 'SP'], ['s', 'S'], ['th', 'th'], ['v', 'V'],
];

export function parseFormat(f: string): FormatNode[] {
  const out: FormatNode[] = [];
  let i = 0;
  while (i < f.length) {
    const kw = KEYWORDS.find(([k]) => f.startsWith(k, i));
    if (kw !== undefined) {
      out.push({ key: kw[1] });
      i += kw[0].length;
      continue;
    }
    if (f[i] === '"') {
      i++;
      while (i < f.length && f[i] !== '"') {
        if (f[i] === '\\' && i + 1 < f.length) i++;
        const c = String.fromCodePoint(f.codePointAt(i) as number);
        out.push({ text: c });
        i += c.length;
      }
      i++;
      continue;
    }
    if (f[i] === '\\' && f[i + 1] === '"') i++;
    const c = String.fromCodePoint(f.codePointAt(i) as number);
    out.push({ text: c });
    i += c.length;
  }
  return out;
}

/** The template's summary (PostgreSQL's NUMDesc). */
export interface Desc {
  pre: number;
  post: number;
  multi: number;
  zeroStart: number;
  zeroEnd: number;
  preLsignNum: number;
  lsign: 'none' | 'pre' | 'post';
  decimal: boolean;
  ldecimal: boolean;
  zero: boolean;
  fill: boolean;
  bracket: boolean;
  minus: boolean;
  plus: boolean;
  multiFlag: boolean;
  eeee: boolean;
  blank: boolean;
  roman: boolean;
}

const syntax = (m: string, detail?: string): SqlError => new SqlError(SqlState.syntaxError, m, detail);

export function describe(nodes: readonly FormatNode[]): Desc {
  const d: Desc = {
    pre: 0, post: 0, multi: 0, zeroStart: 0, zeroEnd: 0, preLsignNum: 0, lsign: 'none', decimal: false, ldecimal: false,
    zero: false, fill: false, bracket: false, minus: false, plus: false, multiFlag: false, eeee: false, blank: false, roman: false,
  };
  const lsign = (): boolean => d.lsign !== 'none';
  for (const n of nodes) {
    if (!('key' in n)) continue;
    if (d.eeee && n.key !== 'EEEE') throw syntax('"EEEE" must be the last pattern used');
    switch (n.key) {
      case '9':
        if (d.bracket) throw syntax('"9" must be ahead of "PR"');
        if (d.multiFlag) d.multi++;
        else if (d.decimal) d.post++;
        else d.pre++;
        break;
      case '0':
        if (d.bracket) throw syntax('"0" must be ahead of "PR"');
        if (!d.zero && !d.decimal) {
          d.zero = true;
          d.zeroStart = d.pre + 1;
        }
        if (!d.decimal) d.pre++;
        else d.post++;
        d.zeroEnd = d.pre + d.post;
        break;
      case 'D':
      case '.':
        if (d.decimal) throw syntax('multiple decimal points');
        if (d.multiFlag) throw syntax('cannot use "V" and decimal point together');
        d.decimal = true;
        if (n.key === 'D') d.ldecimal = true;
        break;
      case 'FM':
        d.fill = true;
        break;
      case 'S':
        if (lsign()) throw syntax('cannot use "S" twice');
        if (d.plus || d.minus || d.bracket) throw syntax('cannot use "S" and "PL"/"MI"/"SG"/"PR" together');
        if (!d.decimal) {
          d.lsign = 'pre';
          d.preLsignNum = d.pre;
        } else d.lsign = 'post';
        break;
      case 'MI':
        if (lsign()) throw syntax('cannot use "S" and "MI" together');
        d.minus = true;
        break;
      case 'PL':
        if (lsign()) throw syntax('cannot use "S" and "PL" together');
        d.plus = true;
        break;
      case 'SG':
        if (lsign()) throw syntax('cannot use "S" and "SG" together');
        d.minus = true;
        d.plus = true;
        break;
      case 'PR':
        if (lsign() || d.plus || d.minus) throw syntax('cannot use "PR" and "S"/"PL"/"MI"/"SG" together');
        d.bracket = true;
        break;
      case 'V':
        if (d.decimal) throw syntax('cannot use "V" and decimal point together');
        d.multiFlag = true;
        break;
      case 'EEEE':
        if (d.eeee) throw syntax('cannot use "EEEE" twice');
        if (d.blank || d.fill || lsign() || d.bracket || d.minus || d.plus || d.multiFlag) {
          throw syntax('"EEEE" is incompatible with other formats', '"EEEE" may only be used together with digit and decimal point patterns.');
        }
        d.eeee = true;
        break;
      case 'B':
        d.blank = true; // PostgreSQL accepts B and writes nothing for it (nor for C and SP)
        break;
      case 'RN':
      case 'rn':
        d.roman = true;
        break;
      default:
        break;
    }
  }
  return d;
}

/** A finite double's exact value as a Numeric (every double is a finite binary fraction). */
function exactDouble(x: number): Numeric {
  if (Number.isInteger(x)) return Numeric.fromInteger(BigInt(x));
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  if (exp !== 0) mant |= 1n << 52n;
  const e2 = (exp === 0 ? 1 : exp) - 1075; // x = mant * 2^e2, e2 < 0 here
  const coef = mant * 5n ** BigInt(-e2);
  return new Numeric(x < 0 ? -coef : coef, -e2);
}

/** Rounds half to even to `scale` digits (C's printf on an exact binary value). */
function roundHalfEven(v: Numeric, scale: number): Numeric {
  if (scale >= v.scale) return v.round(scale);
  const d = pow10(v.scale - scale);
  const a = v.coef < 0n ? -v.coef : v.coef;
  let q = a / d;
  const r = a % d;
  if (r * 2n > d || (r * 2n === d && q % 2n === 1n)) q++;
  return new Numeric(v.coef < 0n ? -q : q, scale);
}

/** PostgreSQL's snprintf `%.*f` (NaN and infinities as words). */
function fixedDouble(x: number, digits: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
  const s = roundHalfEven(exactDouble(x), digits).toString();
  // printf keeps the sign of a negative value that rounds to zero (and of -0).
  return (x < 0 || Object.is(x, -0)) && !s.startsWith('-') ? '-' + s : s;
}

/** Scientific notation `d.ddde+XX` of a value with `digits` decimals; numeric rounds half away from zero, floats half to even. */
function scientific(v: Numeric, digits: number, halfEven: boolean): string {
  let exp = 0;
  if (v.coef !== 0n) {
    const a = v.coef < 0n ? -v.coef : v.coef;
    exp = a.toString().length - 1 - v.scale;
  }
  const shifted = new Numeric(v.coef, v.scale + exp); // v / 10^exp (scale may go negative: normalise below)
  const norm = shifted.scale < 0 ? new Numeric(shifted.coef * pow10(-shifted.scale), 0) : shifted;
  let sig = halfEven ? roundHalfEven(norm, digits) : norm.round(digits);
  if (halfEven && sig.abs().cmp(Numeric.fromInteger(10)) >= 0) {
    // printf renormalises 9.99e0 rounded to 10.0 as 1.00e+01.
    exp++;
    sig = roundHalfEven(new Numeric(norm.coef, norm.scale + 1), digits);
  }
  const e = Math.abs(exp);
  return `${sig.toString()}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
}

/** The digit string NUM_processor walks, its sign and the blanks before it. */
interface Rendered {
  readonly number: string;
  readonly sign: '+' | '-';
  readonly preSpaces: number;
}

function hashes(d: Desc): string {
  return '#'.repeat(d.pre) + '.' + '#'.repeat(d.post);
}

/** Pads or overflows a rendered number to the template's integer digits. */
function fit(text: string, d: Desc): Rendered {
  const neg = text.startsWith('-');
  const digits = neg ? text.slice(1) : text;
  const dot = digits.indexOf('.');
  const preLen = dot < 0 ? digits.length : dot;
  const sign = neg ? '-' : '+';
  if (preLen < d.pre) return { number: digits, sign, preSpaces: d.pre - preLen };
  if (preLen > d.pre) return { number: hashes(d), sign, preSpaces: 0 };
  return { number: digits, sign, preSpaces: 0 };
}

function render(v: SqlValue, t: SqlType, d: Desc): string | Rendered {
  const float = t === 'float4' || t === 'float8';
  const dig = t === 'float4' ? 6 : 15;
  if (float) {
    const x = v as number;
    if (d.eeee) {
      if (!Number.isFinite(x)) return ' ' + '#'.repeat(d.pre) + '.' + '#'.repeat(d.post + 4);
      const s = scientific(exactDouble(x), d.post, true);
      return s.startsWith('-') ? s : (Object.is(x, -0) ? '-' : ' ') + s;
    }
    const val = d.multiFlag ? x * 10 ** d.multi : x;
    if (d.multiFlag) d.pre += d.multi;
    const preLen = fixedDouble(Math.abs(val), 0).length;
    if (preLen >= dig) d.post = 0;
    else if (preLen + d.post > dig) d.post = dig - preLen;
    return fit(fixedDouble(val, d.post), d);
  }
  const num = v instanceof Numeric ? v : Numeric.fromInteger(v as number | bigint);
  if (d.eeee) {
    // int4 goes through float8 (exact for it) and printf; int8 and numeric through numeric_out_sci.
    const s = t === 'int4' || t === 'int2' ? scientific(num, d.post, true) : scientific(num, d.post, false);
    return s.startsWith('-') ? s : ' ' + s;
  }
  let val = num;
  if (d.multiFlag) {
    // integer's V multiplies in 32 bits, wrapping as PostgreSQL's C code does.
    val = t === 'int4' ? Numeric.fromInteger(Math.imul(v as number, 10 ** d.multi)) : new Numeric(num.coef * pow10(d.multi), num.scale);
    d.pre += d.multi;
  }
  if (v instanceof Numeric) return fit(val.round(d.post).toString(), d);
  const s = val.round(0).toString();
  return fit(d.post > 0 ? `${s}.${'0'.repeat(d.post)}` : s, d);
}

function ordinalSuffix(number: string, upper: boolean): string {
  const last = number[number.length - 1] ?? '';
  if (!/[0-9]/.test(last)) throw new SqlError(SqlState.invalidTextRepresentation, `"${number}" is not a number`);
  const teen = number.length > 1 && number[number.length - 2] === '1';
  const s = teen ? 'th' : last === '1' ? 'st' : last === '2' ? 'nd' : last === '3' ? 'rd' : 'th';
  return upper ? s.toUpperCase() : s;
}

const ROMAN: readonly (readonly [number, string])[] = [
  [1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I'],
];

const intOutOfRange = (): SqlError => new SqlError(SqlState.numericValueOutOfRange, 'integer out of range');

/** The value as an integer the way each to_char(type) takes it for RN, in roman numerals (int_to_roman). */
function roman(v: SqlValue, t: SqlType): string {
  let n: number;
  if (t === 'float4' || t === 'float8') n = Number(roundHalfEven(exactDouble(Number.isFinite(v as number) ? (v as number) : 0), 0).coef);
  else {
    const i = v instanceof Numeric ? v.round(0).coef : BigInt(v as number | bigint);
    if (i > 2147483647n || i < -2147483648n) throw intOutOfRange();
    n = Number(i);
  }
  if (n < 1 || n > 3999) return '#'.repeat(15);
  let out = '';
  for (const [k, r] of ROMAN) {
    while (n >= k) {
      out += r;
      n -= k;
    }
  }
  return out;
}

/** NUM_processor for a roman-numeral template: every number pattern but RN writes nothing, no sign is known. */
function romanProcessor(nodes: readonly FormatNode[], fill: boolean, numeral: string): string {
  let out = '';
  for (const n of nodes) {
    if (!('key' in n)) out += n.text;
    else if (n.key === 'RN' || n.key === 'rn') {
      const r = n.key === 'rn' ? numeral.toLowerCase() : numeral;
      out += fill ? r : r.padStart(15);
    } else if (n.key === ',' || n.key === 'G' || n.key === 'MI' || n.key === 'PL' || n.key === 'L') {
      if (!fill || n.key === 'L') out += ' ';
    }
  }
  return out;
}

/** to_char of a number (`t` its type) with a number template. */
export function toCharNumber(v: SqlValue, t: SqlType, template: string): string {
  const nodes = parseFormat(template);
  const d = describe(nodes);
  if (d.roman) return romanProcessor(nodes, d.fill, roman(v, t));
  const r = render(v, t, d);
  if (typeof r === 'string') return r; // EEEE: the number as it is (NUM_processor copies it)
  return numProcessor(nodes, d, r);
}

/** PostgreSQL's NUM_processor (to_char direction). */
function numProcessor(nodes: readonly FormatNode[], d: Desc, r: Rendered): string {
  const num = r.number;
  const sign = r.sign;
  const outPreSpaces = r.preSpaces;
  let out = '';
  if (d.zeroStart > 0) d.zeroStart--;
  let signWrote: boolean;
  if (d.plus || d.minus) signWrote = !(d.plus && !d.minus);
  else {
    if (sign !== '-' && d.fill) d.bracket = false;
    signWrote = sign === '+' && d.fill && d.lsign === 'none';
    if (d.lsign === 'pre' && d.pre === d.preLsignNum) d.lsign = 'post';
  }
  let numCount = d.post + d.pre - 1;
  let lastRelevant: number | null = null;
  if (d.fill && d.decimal) {
    const dot = num.indexOf('.');
    if (dot >= 0) {
      lastRelevant = dot;
      for (let p = dot + 1; p < num.length; p++) if (num[p] !== '0') lastRelevant = p;
      if (d.zeroEnd > outPreSpaces) {
        const lastZero = Math.min(num.length - 1, d.zeroEnd - outPreSpaces);
        if (lastRelevant < lastZero) lastRelevant = lastZero;
      }
    }
  }
  if (!signWrote && outPreSpaces === 0) numCount++;
  let numCurr = 0;
  let numIn = false;
  let p = 0; // position in `num`
  const decimalChar = '.';
  const atRelevantDot = (): boolean => lastRelevant !== null && num[lastRelevant] === '.';
  const predecSpace = (): boolean => !d.zero && p === 0 && num[0] === '0' && d.post !== 0;

  const numpart = (key: Key): void => {
    if (!signWrote && (numCurr >= outPreSpaces || (d.zero && d.zeroStart === numCurr)) && (!predecSpace() || atRelevantDot())) {
      if (d.lsign !== 'none') {
        if (d.lsign === 'pre') {
          out += sign === '-' ? '-' : '+';
          signWrote = true;
        }
      } else if (d.bracket) {
        out += sign === '+' ? ' ' : '<';
        signWrote = true;
      } else if (sign === '+') {
        if (!d.fill) out += ' ';
        signWrote = true;
      } else {
        out += '-';
        signWrote = true;
      }
    }
    if (numCurr < outPreSpaces && (d.zeroStart > numCurr || !d.zero)) {
      if (!d.fill) out += ' ';
    } else if (d.zero && numCurr < outPreSpaces && d.zeroStart <= numCurr) {
      out += '0';
      numIn = true;
    } else {
      if (num[p] === '.') {
        if (!atRelevantDot() || d.fill) out += decimalChar;
        numIn = false; // a group separator right after the point is a blank, as PostgreSQL writes it
      } else if (lastRelevant !== null && p > lastRelevant && key !== '0') {
        // an insignificant trailing zero under FM
      } else if (predecSpace()) {
        if (!d.fill) out += ' ';
        else if (atRelevantDot()) out += '0';
      } else {
        // Past the end of the number (a point the number does not have) PostgreSQL writes the string's
        // terminating NUL, which ends its output there (see the return below).
        out += num[p] ?? '\0';
        numIn = true;
      }
      if (p < num.length) p++;
    }
    let end = numCount + (outPreSpaces > 0 ? 1 : 0) + (d.decimal ? 1 : 0);
    if (lastRelevant !== null && lastRelevant === p) end = numCurr;
    if (numCurr + 1 === end) {
      if (signWrote && d.bracket) out += sign === '+' ? ' ' : '>';
      else if (d.lsign === 'post') out += sign === '-' ? '-' : '+';
    }
    numCurr++;
  };

  for (const n of nodes) {
    if (!('key' in n)) {
      out += n.text;
      continue;
    }
    switch (n.key) {
      case '9':
      case '0':
      case '.':
      case 'D':
        numpart(n.key);
        break;
      case ',':
      case 'G':
        if (numIn) out += ',';
        else if (!d.fill) out += ' ';
        break;
      case 'L':
        out += ' ';
        break;
      case 'TH':
      case 'th':
        if (num.startsWith('#') || sign === '-' || d.decimal) break;
        out += ordinalSuffix(num, n.key === 'TH');
        break;
      case 'MI':
        if (sign === '-') out += '-';
        else if (!d.fill) out += ' ';
        break;
      case 'PL':
        if (sign === '+') out += '+';
        else if (!d.fill) out += ' ';
        break;
      case 'SG':
        out += sign;
        break;
      default:
        break;
    }
  }
  const nul = out.indexOf('\0');
  return nul < 0 ? out : out.slice(0, nul);
}
