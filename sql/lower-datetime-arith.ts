// Typing of the arithmetic operators over intervals, timestamps and times (lower-expr.ts arithType asks
// here first): which operator PostgreSQL 15 resolves for an operand pair, the operands coerced to its
// argument types, and its result type, which ops.ts arith dispatches on.

import type { Expr } from './expr.ts';
import type { BindContext } from './bind-context.ts';
import { coerce, operatorError } from './coerce.ts';
import { isNumericType, type SqlType } from './types.ts';

const isTs = (t: SqlType): t is 'timestamp' | 'timestamptz' => t === 'timestamp' || t === 'timestamptz';

/**
 * The operators PostgreSQL 15 has for intervals, timestamps and times; null when neither operand is one
 * of them (nor an untyped literal beside a timestamp or a time).
 */
export function datetimeArithType(ctx: BindContext, op: string, l: Expr, r: Expr): [Expr, Expr, SqlType] | null {
  if (l.t === 'time' || r.t === 'time') return timeArithType(ctx, op, l, r);
  if (l.t === 'timetz' || r.t === 'timetz') return timeTzArithType(ctx, op, l, r);
  return intervalArithType(ctx, op, l, r);
}

/**
 * timestamp[tz] ± interval, interval + timestamp[tz], date ± interval (a timestamp), timestamp -
 * timestamp, interval ± interval, interval * and / a number (as float8), a number * interval. An untyped
 * literal takes the other side's type, except that timestamp + 'literal' is an interval (there is no
 * timestamp + timestamp).
 */
function intervalArithType(ctx: BindContext, op: string, l: Expr, r: Expr): [Expr, Expr, SqlType] | null {
  const iv = (e: Expr): Expr => coerce(ctx, e, 'interval');
  const isIv = (t: SqlType): boolean => t === 'interval';
  const isIvOrUnknown = (t: SqlType): boolean => t === 'interval' || t === 'unknown';
  const number = (t: SqlType): boolean => isNumericType(t) || t === 'unknown';
  if (!isIv(l.t) && !isIv(r.t) && !(isTs(l.t) && (isTs(r.t) || r.t === 'unknown')) && !(isTs(r.t) && l.t === 'unknown')) return null;
  if (op === '+' || op === '-') {
    if ((isTs(l.t) || l.t === 'date') && (isIv(r.t) || (op === '+' && r.t === 'unknown'))) {
      const t = l.t === 'date' ? 'timestamp' : l.t;
      return [coerce(ctx, l, t), iv(r), t];
    }
    if (op === '+' && isIvOrUnknown(l.t) && (isTs(r.t) || r.t === 'date')) {
      const t = r.t === 'date' ? 'timestamp' : r.t;
      return [iv(l), coerce(ctx, r, t), t];
    }
    if (op === '-' && isTs(l.t) && (isTs(r.t) || r.t === 'unknown')) {
      const t = l.t === 'timestamptz' || r.t === 'timestamptz' ? 'timestamptz' : 'timestamp';
      return [coerce(ctx, l, t), coerce(ctx, r, t), 'interval'];
    }
    if (op === '-' && l.t === 'unknown' && isTs(r.t)) return [coerce(ctx, l, r.t), r, 'interval'];
    if (isIvOrUnknown(l.t) && isIvOrUnknown(r.t)) return [iv(l), iv(r), 'interval'];
  }
  if (op === '*' || op === '/') {
    if (isIv(l.t) && number(r.t)) return [l, coerce(ctx, r, 'float8'), 'interval'];
    if (op === '*' && number(l.t) && isIv(r.t)) return [coerce(ctx, l, 'float8'), r, 'interval'];
  }
  throw operatorError(op, l.t, r.t);
}

/**
 * time ± interval and interval + time (a time, wrapping at 24 hours), time - time (an interval), date ±
 * time and time + date (a timestamp). An untyped literal is an interval after time +, a time after time
 * -. Other operators take time's implicit cast to interval (time * 2, time / 2), as PostgreSQL does.
 */
function timeArithType(ctx: BindContext, op: string, l: Expr, r: Expr): [Expr, Expr, SqlType] {
  const time = (e: Expr): Expr => coerce(ctx, e, 'time');
  const iv = (e: Expr): Expr => coerce(ctx, e, 'interval');
  if (op === '+' || op === '-') {
    if (l.t === 'time' && (r.t === 'interval' || (op === '+' && r.t === 'unknown'))) return [l, iv(r), 'time'];
    if (op === '+' && (l.t === 'interval' || l.t === 'unknown') && r.t === 'time') return [iv(l), r, 'time'];
    if (op === '-' && (l.t === 'time' || l.t === 'unknown') && (r.t === 'time' || r.t === 'unknown')) return [time(l), time(r), 'interval'];
    if (l.t === 'date' && r.t === 'time') return [l, r, 'timestamp'];
    if (op === '+' && l.t === 'time' && r.t === 'date') return [l, r, 'timestamp'];
  }
  const asInterval = (e: Expr): Expr => (e.t === 'time' ? iv(e) : e);
  const scaled = op === '*' || op === '/' ? intervalArithType(ctx, op, asInterval(l), asInterval(r)) : null;
  if (scaled !== null) return scaled;
  throw operatorError(op, l.t, r.t);
}

/**
 * timetz ± interval and interval + timetz (a timetz, wrapping at 24 hours, its zone kept), date + timetz
 * and timetz + date (a timestamptz); an untyped literal after timetz + or - is an interval. There is no
 * timetz - timetz (42883), as in PostgreSQL.
 */
function timeTzArithType(ctx: BindContext, op: string, l: Expr, r: Expr): [Expr, Expr, SqlType] {
  const iv = (e: Expr): Expr => coerce(ctx, e, 'interval');
  if (op === '+' || op === '-') {
    if (l.t === 'timetz' && (r.t === 'interval' || r.t === 'unknown')) return [l, iv(r), 'timetz'];
    if (op === '+' && (l.t === 'interval' || l.t === 'unknown') && r.t === 'timetz') return [iv(l), r, 'timetz'];
    if (op === '+' && ((l.t === 'date' && r.t === 'timetz') || (l.t === 'timetz' && r.t === 'date'))) return [l, r, 'timestamptz'];
  }
  throw operatorError(op, l.t, r.t);
}
