// Exact decimal arithmetic for NUMERIC, on bigint. A value is `coef * 10^-scale` with `scale >= 0`; the
// scale is PostgreSQL's display scale, so 1.50 (scale 2) prints as '1.50' like PostgreSQL does. Division
// picks its result scale with PostgreSQL's select_div_scale rule (at least 16 significant digits) and all
// rounding is half away from zero, as in PostgreSQL's numeric.c. NaN and infinities are not supported.

const TEN = 10n;
const pow10Cache: bigint[] = [];
export function pow10(n: number): bigint {
  if (n < 64) {
    let v = pow10Cache[n];
    if (v === undefined) { v = TEN ** BigInt(n); pow10Cache[n] = v; }
    return v;
  }
  return TEN ** BigInt(n);
}

const numericRe = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/** A double rounded to the nearest integer, halves to even (C's rint, which PostgreSQL rounds floats with). */
export function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Divides with rounding half away from zero. */
export function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  const ad = d < 0n ? -d : d;
  if (twice >= ad) return (n < 0n) !== (d < 0n) ? q - 1n : q + 1n;
  return q;
}

export class Numeric {
  readonly coef: bigint;
  /** Digits after the decimal point. Invariant: a non-negative integer. */
  readonly scale: number;

  constructor(coef: bigint, scale: number) {
    this.coef = coef;
    this.scale = scale;
  }

  static readonly zero = new Numeric(0n, 0);

  /** Parses PostgreSQL numeric input ('12.50', '-.5', '1e3'); null when malformed. */
  static parse(text: string): Numeric | null {
    const m = numericRe.exec(text);
    if (!m) return null;
    const intPart = m[2] ?? '';
    const fracPart = m[3] ?? '';
    if (intPart === '' && fracPart === '') return null;
    let coef = BigInt((intPart || '0') + fracPart);
    if (m[1] === '-') coef = -coef;
    let scale = fracPart.length;
    if (m[4] !== undefined) {
      const exp = Number(m[4]);
      if (!Number.isFinite(exp) || Math.abs(exp) > 100000) return null;
      scale -= exp;
      if (scale < 0) {
        coef *= pow10(-scale);
        scale = 0;
      }
    }
    return new Numeric(coef, scale);
  }

  static fromInteger(v: number | bigint): Numeric {
    return new Numeric(typeof v === 'bigint' ? v : BigInt(v), 0);
  }

  /** PostgreSQL's float-to-numeric conversion: the float printed with DBL_DIG (15) or FLT_DIG (6) digits. */
  static fromFloat(x: number, digits = 15): Numeric | null {
    if (!Number.isFinite(x)) return null;
    const n = Numeric.parse(x.toPrecision(digits));
    return n === null ? null : n.stripTrailingZeros();
  }

  stripTrailingZeros(): Numeric {
    let { coef, scale } = this;
    while (scale > 0 && coef % TEN === 0n) {
      coef /= TEN;
      scale--;
    }
    return scale === this.scale ? this : new Numeric(coef, scale);
  }

  toString(): string {
    const neg = this.coef < 0n;
    let digits = (neg ? -this.coef : this.coef).toString();
    if (this.scale === 0) return neg ? '-' + digits : digits;
    if (digits.length <= this.scale) digits = '0'.repeat(this.scale - digits.length + 1) + digits;
    const cut = digits.length - this.scale;
    return (neg ? '-' : '') + digits.slice(0, cut) + '.' + digits.slice(cut);
  }

  toNumber(): number {
    return Number(this.toString());
  }

  sign(): number {
    return this.coef < 0n ? -1 : this.coef > 0n ? 1 : 0;
  }

  /** The coefficient rescaled to `scale` (which must be >= this.scale). */
  private at(scale: number): bigint {
    return scale === this.scale ? this.coef : this.coef * pow10(scale - this.scale);
  }

  cmp(o: Numeric): number {
    const s = Math.max(this.scale, o.scale);
    const a = this.at(s);
    const b = o.at(s);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  add(o: Numeric): Numeric {
    const s = Math.max(this.scale, o.scale);
    return new Numeric(this.at(s) + o.at(s), s);
  }

  sub(o: Numeric): Numeric {
    const s = Math.max(this.scale, o.scale);
    return new Numeric(this.at(s) - o.at(s), s);
  }

  mul(o: Numeric): Numeric {
    return new Numeric(this.coef * o.coef, this.scale + o.scale);
  }

  neg(): Numeric {
    return new Numeric(-this.coef, this.scale);
  }

  abs(): Numeric {
    return this.coef < 0n ? this.neg() : this;
  }

  /** Division; the caller checks for a zero divisor. `rscale` defaults to PostgreSQL's select_div_scale. */
  div(o: Numeric, rscale = selectDivScale(this, o)): Numeric {
    // (a / 10^sa) / (b / 10^sb) at scale r  =  a * 10^(sb + r) / (b * 10^sa)
    let n = this.coef;
    let d = o.coef;
    const e = o.scale + rscale - this.scale;
    if (e >= 0) n *= pow10(e);
    else d *= pow10(-e);
    return new Numeric(divRound(n, d), rscale);
  }

  /** Truncating division to an integer (for div() and mod()). */
  divTrunc(o: Numeric): Numeric {
    const s = Math.max(this.scale, o.scale);
    return new Numeric(this.at(s) / o.at(s), 0);
  }

  /** Remainder with the sign of the dividend, as PostgreSQL's numeric mod. */
  mod(o: Numeric): Numeric {
    const s = Math.max(this.scale, o.scale);
    return new Numeric(this.at(s) % o.at(s), s);
  }

  /** Rounds half away from zero to `scale` digits (negative rounds left of the point). */
  round(scale: number): Numeric {
    if (scale >= this.scale) return new Numeric(this.at(scale), scale);
    const drop = this.scale - scale;
    if (scale >= 0) return new Numeric(divRound(this.coef, pow10(drop)), scale);
    const q = divRound(this.coef, pow10(drop));
    return new Numeric(q * pow10(-scale), 0);
  }

  trunc(scale: number): Numeric {
    if (scale >= this.scale) return new Numeric(this.at(scale), scale);
    const drop = this.scale - scale;
    const q = this.coef / pow10(drop);
    if (scale >= 0) return new Numeric(q, scale);
    return new Numeric(q * pow10(-scale), 0);
  }

  floor(): Numeric {
    const t = this.trunc(0);
    return this.coef < 0n && t.cmp(this) !== 0 ? new Numeric(t.coef - 1n, 0) : t;
  }

  ceil(): Numeric {
    const t = this.trunc(0);
    return this.coef > 0n && t.cmp(this) !== 0 ? new Numeric(t.coef + 1n, 0) : t;
  }

  /** Rounds to an integer half away from zero (numeric-to-integer casts). */
  toBigIntRounded(): bigint {
    return this.scale === 0 ? this.coef : divRound(this.coef, pow10(this.scale));
  }

  /** Number of digits left of the decimal point (0 for |v| < 1). */
  integerDigits(): number {
    const a = this.coef < 0n ? -this.coef : this.coef;
    const len = a === 0n ? 0 : a.toString().length;
    return Math.max(0, len - this.scale);
  }
}

/** NBASE (10000) weight and first digit of a value, as PostgreSQL's NumericVar has them. */
function nbaseWeightFirst(v: Numeric): [number, number] {
  const a = v.coef < 0n ? -v.coef : v.coef;
  if (a === 0n) return [0, 0];
  const e = a.toString().length - 1 - v.scale;
  const w = Math.floor(e / 4);
  const shift = v.scale + 4 * w;
  const first = shift >= 0 ? a / pow10(shift) : a * pow10(-shift);
  return [w, Number(first)];
}

/** PostgreSQL's select_div_scale: enough digits for 16 significant ones, never less than either input's. */
export function selectDivScale(a: Numeric, b: Numeric): number {
  const [w1, f1] = nbaseWeightFirst(a);
  const [w2, f2] = nbaseWeightFirst(b);
  let qweight = w1 - w2;
  if (f1 <= f2) qweight--;
  let rscale = 16 - qweight * 4;
  rscale = Math.max(rscale, a.scale, b.scale, 0);
  return Math.min(rscale, 1000);
}
