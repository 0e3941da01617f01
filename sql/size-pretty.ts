// pg_size_pretty and pg_size_bytes (PostgreSQL 15's dbsize.c). A size is shown in the largest unit
// among bytes, kB, MB, GB, TB and PB under which its magnitude stays below 10 * 1024 bytes or
// 20 * 1024 - 1 of the other units, rounded half away from zero in every unit but bytes. Each step
// divides with truncation toward zero, keeping one extra bit ahead of a unit that rounds, so negative
// sizes show as their positive counterparts with a minus sign.

import { Numeric } from './numeric.ts';
import { SqlError, SqlState } from './errors.ts';

interface SizeUnit {
  readonly name: string;
  /** Below this magnitude (before its half rounding) a size is shown in this unit. */
  readonly limit: bigint;
  readonly round: boolean;
  /** One of this unit is 2^bits bytes. */
  readonly bits: number;
}

const units: readonly SizeUnit[] = [
  { name: 'bytes', limit: 10n * 1024n, round: false, bits: 0 },
  { name: 'kB', limit: 20n * 1024n - 1n, round: true, bits: 10 },
  { name: 'MB', limit: 20n * 1024n - 1n, round: true, bits: 20 },
  { name: 'GB', limit: 20n * 1024n - 1n, round: true, bits: 30 },
  { name: 'TB', limit: 20n * 1024n - 1n, round: true, bits: 40 },
  { name: 'PB', limit: 20n * 1024n - 1n, round: true, bits: 50 },
];

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
/** PostgreSQL's half_rounded: (x ± 1) / 2 with C's truncating division. */
const halfRounded = (x: bigint): bigint => (x + (x < 0n ? -1n : 1n)) / 2n;

/** pg_size_pretty of a whole number of bytes (bigint's form; numeric's past its first step). */
function prettyFrom(size: bigint, from: number): string {
  for (let i = from; ; i++) {
    const unit = units[i] as SizeUnit;
    const next = units[i + 1];
    if (next === undefined || abs(size) < unit.limit) return `${unit.round ? halfRounded(size) : size} ${unit.name}`;
    const shift = next.bits - unit.bits - (next.round ? 1 : 0) + (unit.round ? 1 : 0);
    size /= 1n << BigInt(shift);
  }
}

/** pg_size_pretty(bigint). */
export function sizePretty(size: bigint): string {
  return prettyFrom(size, 0);
}

/** pg_size_pretty(numeric): a fraction shows in bytes as it is; past bytes every step truncates to a whole number. */
export function sizePrettyNumeric(size: Numeric): string {
  const first = units[0] as SizeUnit;
  if (abs(size.trunc(0).coef) < first.limit) return `${size.toString()} ${first.name}`;
  const next = units[1] as SizeUnit;
  const shift = next.bits - (next.round ? 1 : 0);
  return prettyFrom(size.trunc(0).coef / (1n << BigInt(shift)), 1);
}

const int8Min = -(1n << 63n);
const int8Max = (1n << 63n) - 1n;

/** pg_size_bytes: a number (sign, digits, fraction, exponent) and an optional unit, case-insensitive. */
export function sizeBytes(text: string): bigint {
  const invalid = (unit?: string): SqlError => new SqlError(SqlState.invalidParameterValue, `invalid size: "${text}"`,
    unit === undefined ? undefined : `Invalid size unit: "${unit}".`, undefined,
    unit === undefined ? undefined : 'Valid units are "bytes", "kB", "MB", "GB", "TB", and "PB".');
  const m = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*(.*?)\s*$/s.exec(text);
  if (m === null) throw invalid();
  const num = Numeric.parse(m[1] as string);
  if (num === null) throw invalid();
  const unitText = m[2] as string;
  let bytes = num;
  if (unitText !== '') {
    const unit = units.find((u) => u.name.toLowerCase() === unitText.toLowerCase());
    if (unit === undefined) throw invalid(unitText);
    bytes = num.mul(Numeric.fromInteger(1n << BigInt(unit.bits)));
  }
  const r = bytes.toBigIntRounded();
  if (r < int8Min || r > int8Max) throw new SqlError(SqlState.numericValueOutOfRange, 'bigint out of range');
  return r;
}
