// Logarithms, exponentials and square roots of NUMERIC values with PostgreSQL 15's result scales
// (numeric.c: numeric_ln, numeric_log and log_var, numeric_exp and exp_var, numeric_sqrt): at least
// 16 significant digits and never fewer
// decimals than the argument shows, so ln(2.0) is 0.6931471805599453 and log(2, 8) is 3.0000000000000000.
// The values are computed exactly enough on bigint fixed point (a dozen guard digits beyond the result
// scale, then one rounding half away from zero), so they are the correctly rounded results, which is
// what PostgreSQL's own guard digits give. log(numeric) and log10(numeric) are log(10, x), as in
// PostgreSQL's catalog. Pure: the same digits on every replica.

import { divRound, Numeric, pow10 } from './numeric.ts';
import { SqlError, SqlState } from './errors.ts';

const MIN_SIG_DIGITS = 16;
const MAX_DISPLAY_SCALE = 1000;
const GUARD = 12;

const clampScale = (s: number): number => Math.min(Math.max(s, 0), MAX_DISPLAY_SCALE);

/** The decimal exponent of the leading digit of |v| (v non-zero): floor(log10(|v|)). */
function decimalExponent(v: Numeric): number {
  const a = v.coef < 0n ? -v.coef : v.coef;
  return a.toString().length - 1 - v.scale;
}

/** The NBASE (10000) digit of |v| at weight `w` (v = sum digit_w * 10000^w). */
function nbaseDigit(v: Numeric, w: number): number {
  const a = v.coef < 0n ? -v.coef : v.coef;
  const shift = v.scale + 4 * w;
  const q = shift >= 0 ? a / pow10(shift) : a * pow10(-shift);
  return Number(q % 10000n);
}

/** PostgreSQL's estimate_ln_dweight: roughly the decimal weight of ln(v), from its leading NBASE digits. */
function estimateLnDweight(v: Numeric): number {
  if (v.sign() <= 0) return 0;
  if (v.cmp(new Numeric(9n, 1)) >= 0 && v.cmp(new Numeric(11n, 1)) <= 0) {
    const x = v.sub(Numeric.fromInteger(1));
    return x.sign() === 0 ? 0 : decimalExponent(x);
  }
  const weight = Math.floor(decimalExponent(v) / 4);
  let digits = nbaseDigit(v, weight);
  let dweight = weight * 4;
  // More than one NBASE digit: anything below the leading one is non-zero.
  if (v.cmp(new Numeric(BigInt(digits) * pow10(Math.max(0, 4 * weight)), Math.max(0, -4 * weight))) !== 0) {
    digits = digits * 10000 + nbaseDigit(v, weight - 1);
    dweight -= 4;
  }
  const ln = Math.log(digits) + dweight * 2.302585092994046;
  return Math.trunc(Math.log10(Math.abs(ln)));
}

/** 2·atanh(z) = ln((1+z)/(1-z)) in fixed point of `s` decimals, z given in that fixed point (|z| well below 1). */
function twoAtanh(z: bigint, s: number): bigint {
  const one = pow10(s);
  const z2 = (z * z) / one;
  let term = z;
  let sum = 0n;
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k;
    term = (term * z2) / one;
  }
  return 2n * sum;
}

/** ln(num/den) for a small rational num/den near 1, in fixed point of `s` decimals. */
const lnRatio = (num: bigint, den: bigint, s: number): bigint => twoAtanh(((num - den) * pow10(s)) / (num + den), s);

/** ln(v) of a positive value in fixed point of `s` decimals, within a few units of the last place. */
function lnFixed(v: Numeric, s: number): bigint {
  const e = decimalExponent(v);
  const w = s + 6 + String(Math.abs(e)).length; // the work scale: e·ln(10) multiplies ln(10)'s error by e
  const digits = v.coef.toString().length;
  // v = a·10^e with 1 <= a < 10, a in fixed point.
  let a = (v.coef * pow10(w)) / pow10(digits - 1);
  const one = pow10(w);
  // a = 2^j·b with b in [0.7, 1.4].
  let j = 0n;
  while (a * 10n > one * 14n) {
    a /= 2n;
    j++;
  }
  const ln2 = lnRatio(2n, 1n, w);
  // ln(10) = 3·ln(2) + ln(1.25).
  const ln10 = 3n * ln2 + lnRatio(5n, 4n, w);
  const lnB = twoAtanh(((a - one) * one) / (a + one), w);
  const r = lnB + j * ln2 + BigInt(e) * ln10;
  return divRound(r, pow10(w - s));
}

function checkLogArgument(v: Numeric): void {
  const sign = v.sign();
  if (sign === 0) throw new SqlError('2201E', 'cannot take logarithm of zero');
  if (sign < 0) throw new SqlError('2201E', 'cannot take logarithm of a negative number');
}

/** ln(numeric) as PostgreSQL's numeric_ln. */
export function numericLn(v: Numeric): Numeric {
  checkLogArgument(v);
  const rscale = clampScale(Math.max(MIN_SIG_DIGITS - estimateLnDweight(v), v.scale));
  return new Numeric(divRound(lnFixed(v, rscale + GUARD), pow10(GUARD)), rscale);
}

/** log(base, x) as PostgreSQL's numeric_log / log_var (the base is checked first; base 1: division by zero). */
export function numericLog(base: Numeric, x: Numeric): Numeric {
  checkLogArgument(base);
  checkLogArgument(x);
  const lnBaseWeight = estimateLnDweight(base);
  const lnNumWeight = estimateLnDweight(x);
  const resultWeight = lnNumWeight - lnBaseWeight;
  const rscale = clampScale(Math.max(MIN_SIG_DIGITS - resultWeight, base.scale, x.scale));
  // Both logarithms with more significant digits than the quotient needs.
  const s = rscale + GUARD + Math.max(0, resultWeight) + Math.max(0, -lnBaseWeight);
  const lnBase = lnFixed(base, s);
  if (lnBase === 0n) throw new SqlError(SqlState.divisionByZero, 'division by zero');
  const lnNum = lnFixed(x, s);
  return new Numeric(divRound(lnNum * pow10(rscale), lnBase), rscale);
}

/** exp(numeric) as PostgreSQL's numeric_exp: 22003 from e^6000 up, zero (at the result scale) from e^-6000 down. */
export function numericExp(x: Numeric): Numeric {
  const v = x.toNumber();
  // log10(result) = x·log10(e): about the decimal weight of the result.
  const weight = Math.min(Math.max(v * 0.434294481903252, -2000), 2000);
  const rscale = clampScale(Math.max(MIN_SIG_DIGITS - Math.trunc(weight), x.scale));
  if (Math.abs(v) >= 6000) {
    if (v > 0) throw new SqlError(SqlState.numericValueOutOfRange, 'value overflows numeric format');
    return new Numeric(0n, rscale);
  }
  // e^x = (e^(x/2^k))^(2^k) with |x/2^k| < 0.01; the k squarings multiply the relative error by 2^k,
  // and a large result needs its integer digits besides the scale.
  const k = Math.max(0, Math.ceil(Math.log2(Math.abs(v) * 100)));
  const w = rscale + GUARD + Math.ceil(k * 0.302) + Math.max(0, Math.ceil(weight)) + 2;
  const one = pow10(w);
  const y = x.scale <= w ? (x.coef * pow10(w - x.scale)) / (1n << BigInt(k)) : x.coef / (pow10(x.scale - w) << BigInt(k));
  let sum = one;
  let term = one;
  for (let n = 1n; term !== 0n; n++) {
    term = (term * y) / (one * n);
    sum += term;
  }
  for (let i = 0; i < k; i++) sum = (sum * sum) / one;
  return new Numeric(divRound(sum, pow10(w - rscale)), rscale);
}

/** sqrt(numeric) as PostgreSQL's numeric_sqrt, correctly rounded to its result scale. */
export function numericSqrt(v: Numeric): Numeric {
  if (v.sign() < 0) throw new SqlError('2201F', 'cannot take square root of a negative number');
  const weight = v.sign() === 0 ? 0 : Math.floor(decimalExponent(v) / 4);
  const sweight = Math.trunc(((weight + 1) * 4) / 2) - 1;
  const rscale = clampScale(Math.max(MIN_SIG_DIGITS - sweight, v.scale));
  // sqrt(c·10^-s) at scale r+1 = isqrt(c·10^(2r+2-s)); then one rounding to r.
  const e = 2 * rscale + 2 - v.scale;
  const n = e >= 0 ? v.coef * pow10(e) : v.coef / pow10(-e);
  return new Numeric(divRound(isqrt(n), 10n), rscale);
}

/** floor(sqrt(n)) by Newton's iteration from above. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** scale(numeric): the digits after the decimal point it shows. */
export const numericScale = (v: Numeric): number => v.scale;

/** min_scale(numeric): the fewest decimals that represent the value exactly. */
export const numericMinScale = (v: Numeric): number => v.stripTrailingZeros().scale;
