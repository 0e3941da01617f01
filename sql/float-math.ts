// The double precision trigonometric and hyperbolic functions, pi(), degrees() and radians(), with
// PostgreSQL 15's results and errors (float.c). The degree forms (sind, cosd, ...) follow float.c's
// algorithms, which give exact values at the usual angles (sind(30) = 0.5, tand(45) = 1, cosd(90) = 0):
// each reduces the angle to the first quadrant and scales by the value the same computation gives at
// 30, 45 or 60 degrees. JavaScript's Math functions and the C library may differ in the last bit for
// some arguments; both are deterministic, so replicas agree.

import { InvariantError, SqlError, SqlState } from './errors.ts';

const RADIANS_PER_DEGREE = 0.0174532925199432957692;

const outOfRange = (): SqlError => new SqlError(SqlState.numericValueOutOfRange, 'input is out of range');
const overflow = (): SqlError => new SqlError(SqlState.numericValueOutOfRange, 'value out of range: overflow');

/** C's fmod: the remainder with the dividend's sign. */
const fmod = (x: number, y: number): number => x % y;

function sindTo30(x: number): number {
  return Math.sin(x * RADIANS_PER_DEGREE) / SIN_30 / 2.0;
}

function cosdTo60(x: number): number {
  return 1.0 - (1.0 - Math.cos(x * RADIANS_PER_DEGREE)) / ONE_MINUS_COS_60 / 2.0;
}

const SIN_30 = Math.sin(30 * RADIANS_PER_DEGREE);
const ONE_MINUS_COS_60 = 1.0 - Math.cos(60 * RADIANS_PER_DEGREE);
const ASIN_0_5 = Math.asin(0.5);
const ACOS_0_5 = Math.acos(0.5);
const ATAN_1_0 = Math.atan(1.0);

const sindQ1 = (x: number): number => (x <= 30.0 ? sindTo30(x) : cosdTo60(90.0 - x));
const cosdQ1 = (x: number): number => (x <= 60.0 ? cosdTo60(x) : sindTo30(90.0 - x));
const TAN_45 = sindQ1(45.0) / cosdQ1(45.0);
const COT_45 = cosdQ1(45.0) / sindQ1(45.0);

const asindQ1 = (x: number): number => (x <= 0.5 ? (Math.asin(x) / ASIN_0_5) * 30.0 : 90.0 - (Math.acos(x) / ACOS_0_5) * 60.0);
const acosdQ1 = (x: number): number => (x <= 0.5 ? 90.0 - (Math.asin(x) / ASIN_0_5) * 30.0 : (Math.acos(x) / ACOS_0_5) * 60.0);

/** An angle of tan/cot in degrees reduced to [0, 90] and the result's sign. */
function reduceTan(x: number): [number, number] {
  let a = fmod(x, 360.0);
  let sign = 1;
  if (a < 0.0) {
    a = -a;
    sign = -sign;
  }
  if (a > 180.0) {
    a = 360.0 - a;
    sign = -sign;
  }
  if (a > 90.0) {
    a = 180.0 - a;
    sign = -sign;
  }
  return [a, sign];
}

function checkFinite(x: number): void {
  if (x === Infinity || x === -Infinity) throw outOfRange();
}

function checkUnit(x: number): void {
  if (x < -1.0 || x > 1.0) throw outOfRange();
}

/** `-0` as `0` (float.c forces plain zero where a platform may give minus zero). */
const plainZero = (x: number): number => (x === 0 ? 0 : x);

const unary: Record<string, (x: number) => number> = {
  sin: (x) => (checkFinite(x), Math.sin(x)),
  cos: (x) => (checkFinite(x), Math.cos(x)),
  tan: (x) => (checkFinite(x), Math.tan(x)),
  cot: (x) => (checkFinite(x), 1.0 / Math.tan(x)),
  asin: (x) => (checkUnit(x), Math.asin(x)),
  acos: (x) => (checkUnit(x), Math.acos(x)),
  atan: (x) => Math.atan(x),
  sind: (x) => {
    if (Number.isNaN(x)) return x;
    checkFinite(x);
    let a = fmod(x, 360.0);
    let sign = 1;
    if (a < 0.0) {
      a = -a;
      sign = -sign;
    }
    if (a > 180.0) {
      a -= 180.0;
      sign = -sign;
    }
    if (a > 90.0) a = 180.0 - a;
    return sign * sindQ1(a);
  },
  cosd: (x) => {
    if (Number.isNaN(x)) return x;
    checkFinite(x);
    let a = fmod(x, 360.0);
    let sign = 1;
    if (a < 0.0) a = -a;
    if (a > 180.0) a = 360.0 - a;
    if (a > 90.0) {
      a = 180.0 - a;
      sign = -sign;
    }
    return sign * cosdQ1(a);
  },
  tand: (x) => {
    if (Number.isNaN(x)) return x;
    checkFinite(x);
    const [a, sign] = reduceTan(x);
    return plainZero(sign * (sindQ1(a) / cosdQ1(a) / TAN_45));
  },
  cotd: (x) => {
    if (Number.isNaN(x)) return x;
    checkFinite(x);
    const [a, sign] = reduceTan(x);
    return plainZero(sign * (cosdQ1(a) / sindQ1(a) / COT_45));
  },
  asind: (x) => {
    if (Number.isNaN(x)) return x;
    checkUnit(x);
    return x >= 0.0 ? asindQ1(x) : -asindQ1(-x);
  },
  acosd: (x) => {
    if (Number.isNaN(x)) return x;
    checkUnit(x);
    return x >= 0.0 ? acosdQ1(x) : 90.0 + asindQ1(-x);
  },
  atand: (x) => (Number.isNaN(x) ? x : (Math.atan(x) / ATAN_1_0) * 45.0),
  sinh: (x) => Math.sinh(x),
  cosh: (x) => Math.cosh(x),
  tanh: (x) => Math.tanh(x),
  asinh: (x) => Math.asinh(x),
  acosh: (x) => {
    if (x < 1.0) throw outOfRange();
    return Math.acosh(x);
  },
  atanh: (x) => (checkUnit(x), Math.atanh(x)),
  degrees: (x) => {
    const r = x / RADIANS_PER_DEGREE;
    if (!Number.isFinite(r) && Number.isFinite(x)) throw overflow();
    return r;
  },
  radians: (x) => {
    const r = x * RADIANS_PER_DEGREE;
    if (!Number.isFinite(r) && Number.isFinite(x)) throw overflow();
    return r;
  },
};

export const FLOAT_UNARY_FUNCTIONS: ReadonlySet<string> = new Set(Object.keys(unary));
export const FLOAT_BINARY_FUNCTIONS: ReadonlySet<string> = new Set(['atan2', 'atan2d']);

export function evalFloatFunction(fn: string, args: readonly number[]): number {
  const x = args[0] as number;
  if (fn === 'pi') return Math.PI;
  if (fn === 'atan2') return Math.atan2(x, args[1] as number);
  if (fn === 'atan2d') return Number.isNaN(x) || Number.isNaN(args[1] as number) ? NaN : (Math.atan2(x, args[1] as number) / ATAN_1_0) * 45.0;
  const f = unary[fn];
  if (f === undefined) throw new InvariantError(`no evaluation for ${fn}`);
  return f(x);
}
