// The functions whose values depend on when or in which transaction a session runs a statement, which
// sql/ cannot know by itself (it reads no clock): clock_timestamp(), statement_timestamp(), timeofday(),
// txid_current() / pg_current_xact_id() and their _if_assigned forms, and pg_sleep, pg_sleep_for and
// pg_sleep_until. The session running the statement supplies them in its execution context (the
// engine's Session, a cluster client's SqlSession); replicas have none, so binding marks statements that
// call them `atClient` and the client runs them, as it runs random() (every replica must compute the
// same result). now(), CURRENT_TIMESTAMP and transaction_timestamp() stay the transaction's timestamp T.
//
// The clock: statement_timestamp() is when the statement started (the transaction's T for its first
// statement on the cluster and for a statement that is its own transaction), clock_timestamp() the
// clock when it is evaluated; each is kept at or after the one before (now() <= statement_timestamp()
// <= clock_timestamp()), whatever the clocks of the process do. timeofday() writes the clock in the
// session's TimeZone (sql/session-zone.ts), as pg_sleep_for adds its interval there.
//
// Transaction ids: PostgreSQL's xid counts transactions that wrote (or asked for one); Pesto has no
// such counter shared by its clients. A transaction's id here is derived from its timestamp T =
// (microseconds, client id): micros · 1024 + client id mod 1024 (within int8 until the year 2255).
// It is stable within the transaction, increases from one transaction of a session to the next (T
// does), and two transactions of clients whose ids differ modulo 1024 never share one. Unlike an xid
// it is not dense (ids of consecutive transactions are far apart) and a transaction that retries after
// an abort has a new one. It is "assigned" (txid_current_if_assigned() is not NULL) once the
// transaction wrote a row or called txid_current(), as in PostgreSQL. The type is bigint (xid8's values
// print the same; xid8 itself does not exist here); txid_status is not provided (nothing keeps the
// outcome of a transaction by its id).
//
// Sleeps: pg_sleep's waits cannot happen while a statement is evaluated (the evaluator is synchronous,
// and must never block a process). Evaluating one records how long to wait (`SleepRequest`, in the
// order evaluated) and returns void (its value ''); the session's shell waits them out, in order, before it returns the
// statement's result (client/gateway/statement-sleep.ts), and a cancel request ends the wait with 57014.
// They are queries' only (SELECT): a write would already be applied when the wait began.

import type { Expr } from './expr.ts';
import type { BindContext } from './bind-context.ts';
import { coerce } from './coerce.ts';
import { civilFromDays, localOf, SqlTimestamp } from './datetime.ts';
import { evalExpr, type Env } from './eval.ts';
import { SqlError, SqlState } from './errors.ts';
import { addIntervalTz } from './interval-arith.ts';
import { sessionZoneAbbreviation } from './session-zone.ts';
import type { SqlInterval } from './interval.ts';
import { noFunc } from './lower-func.ts';
import { normInt8, type Row, type SqlType, type SqlValue } from './types.ts';

/** One wait a statement asked for: `for` microseconds from when the previous one ended, or `until` an instant (Unix µs). */
export type SleepRequest = { readonly k: 'for' | 'until'; readonly micros: number };

/** The statement's clock, where a session runs it. */
export interface StatementClock {
  /** statement_timestamp(): never before the transaction's now(). */
  readonly statementTime: SqlTimestamp;
  /** The clock's time now, in microseconds since 1970 (not kept monotonic: `clockTimestamp` does that). */
  readMicros(): number;
}

/** A transaction's id and whether it has one "assigned" (it wrote, or txid_current() asked). */
export class XactId {
  #assigned = false;

  constructor(readonly id: SqlValue) {}

  /** The id of a transaction whose timestamp is (micros, clientId): see the essay above. */
  static of(micros: number | bigint, clientId: number): XactId {
    return new XactId(normInt8(BigInt(micros) * 1024n + BigInt(clientId % 1024)));
  }

  /** txid_current(): the id, assigned from now on. */
  current(): SqlValue {
    this.#assigned = true;
    return this.id;
  }

  /** txid_current_if_assigned(): the id once assigned, else NULL. */
  ifAssigned(): SqlValue {
    return this.#assigned ? this.id : null;
  }

  /** The transaction wrote a row. */
  wrote(): void {
    this.#assigned = true;
  }
}

const SESSION_FUNCTIONS: Readonly<Record<string, { readonly fn: string; readonly args: readonly SqlType[]; readonly t: SqlType }>> = {
  clock_timestamp: { fn: 'clock_timestamp', args: [], t: 'timestamptz' },
  statement_timestamp: { fn: 'statement_timestamp', args: [], t: 'timestamptz' },
  timeofday: { fn: 'timeofday', args: [], t: 'text' },
  txid_current: { fn: 'txid_current', args: [], t: 'int8' },
  pg_current_xact_id: { fn: 'txid_current', args: [], t: 'int8' },
  txid_current_if_assigned: { fn: 'txid_current_if_assigned', args: [], t: 'int8' },
  pg_current_xact_id_if_assigned: { fn: 'txid_current_if_assigned', args: [], t: 'int8' },
  // void, as the advisory lock functions' (NULL for a NULL argument).
  pg_sleep: { fn: 'pg_sleep', args: ['float8'], t: 'void' },
  pg_sleep_for: { fn: 'pg_sleep_for', args: ['interval'], t: 'void' },
  pg_sleep_until: { fn: 'pg_sleep_until', args: ['timestamptz'], t: 'void' },
};

/** The function names this module evaluates. */
export const sessionFunctions: ReadonlySet<string> = new Set(Object.values(SESSION_FUNCTIONS).map((f) => f.fn));

const implicitTo = (from: SqlType, to: SqlType): boolean => from === to || from === 'unknown'
  || (to === 'float8' && (from === 'int2' || from === 'int4' || from === 'int8' || from === 'numeric' || from === 'float4'))
  || (to === 'timestamptz' && (from === 'date' || from === 'timestamp'));

/** Binds one of these functions (null: `name` is none of them); the statement runs where the session is. */
export function bindSessionFunction(ctx: BindContext, name: string, args: readonly Expr[]): Expr | null {
  const f = SESSION_FUNCTIONS[name];
  if (f === undefined) return null;
  if (args.length !== f.args.length || args.some((a, i) => !implicitTo(a.t, f.args[i] as SqlType))) throw noFunc(name, args);
  ctx.atClient = true;
  return { k: 'func', fn: f.fn, args: args.map((a, i) => coerce(ctx, a, f.args[i] as SqlType)), t: f.t };
}

function sessionMissing(name: string): SqlError {
  return new SqlError(SqlState.featureNotSupported, `${name}() is not available where this statement runs`);
}

/** clock_timestamp(): the clock, kept at or after the statement's start. */
function clockTimestamp(c: StatementClock): SqlTimestamp {
  const t = BigInt(Math.round(c.readMicros()));
  return t > c.statementTime.micros ? new SqlTimestamp(t) : c.statementTime;
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** timeofday()'s text in the session's zone: `Mon Dec 07 22:50:44.195896 2026 UTC` (C's "%a %b %d %H:%M:%S.%06d %Y %Z"). */
export function timeOfDayText(t: SqlTimestamp): string {
  const local = localOf(t);
  const days = local.days;
  const [y, m, d] = civilFromDays(days);
  const tod = local.timeOfDay;
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const secs = Math.floor(tod / 1_000_000);
  const clock = `${p2(Math.floor(secs / 3600))}:${p2(Math.floor(secs / 60) % 60)}:${p2(secs % 60)}.${String(tod % 1_000_000).padStart(6, '0')}`;
  return `${DAY_NAMES[(((days + 4) % 7) + 7) % 7]} ${MONTH_NAMES[m - 1]} ${p2(d)} ${clock} ${y} ${sessionZoneAbbreviation(t.micros)}`;
}

export function evalSessionFunction(e: Extract<Expr, { k: 'func' }>, row: Row, env: Env): SqlValue {
  const ctx = env.ctx;
  switch (e.fn) {
    case 'clock_timestamp':
    case 'statement_timestamp':
    case 'timeofday': {
      const c = ctx?.clock;
      if (c === undefined) throw sessionMissing(e.fn);
      if (e.fn === 'statement_timestamp') return c.statementTime;
      const t = clockTimestamp(c);
      return e.fn === 'timeofday' ? timeOfDayText(t) : t;
    }
    case 'txid_current':
    case 'txid_current_if_assigned': {
      const x = ctx?.xact;
      if (x === undefined) throw sessionMissing(e.fn);
      return e.fn === 'txid_current' ? x.current() : x.ifAssigned();
    }
    default:
      return sleep(e, row, env);
  }
}

/** pg_sleep(seconds), pg_sleep_for(interval), pg_sleep_until(timestamptz): the wait recorded, void returned. */
function sleep(e: Extract<Expr, { k: 'func' }>, row: Row, env: Env): SqlValue {
  const v = evalExpr(e.args[0] as Expr, row, env);
  if (v === null) return null;
  const sleeps = env.ctx?.sleeps;
  const c = env.ctx?.clock;
  if (sleeps === undefined || c === undefined) {
    throw new SqlError(SqlState.featureNotSupported, `${e.fn}() is supported only in queries (SELECT): a statement that writes would wait after its writes were made`);
  }
  if (e.fn === 'pg_sleep') sleeps.push({ k: 'for', micros: (v as number) * 1_000_000 });
  else if (e.fn === 'pg_sleep_until') sleeps.push({ k: 'until', micros: Number((v as SqlTimestamp).micros) });
  else {
    // As PostgreSQL's pg_sleep_for: the span from the clock now to the clock now plus the interval (in the session's zone).
    const now = clockTimestamp(c);
    sleeps.push({ k: 'for', micros: Number(addIntervalTz(now, v as SqlInterval, 1).micros - now.micros) });
  }
  return '';
}
