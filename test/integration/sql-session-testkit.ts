// Statement helpers for integration tests that drive a SqlSession on a test cluster: a statement that
// must succeed, its first value, and how a commit ended.
import assert from 'node:assert/strict';
import type { ExecResult } from '../../sql/engine.ts';
import type { SqlSession } from '../../client/sql/sql-session.ts';
import type { SqlValue } from '../../sql/types.ts';

/** Runs `text`; a failure fails the test with the statement, its SQLSTATE and message. */
export async function q(s: SqlSession, text: string, params: readonly SqlValue[] = []): Promise<ExecResult & { ok: true }> {
  const r = await s.execute(text, params);
  if (!r.ok) assert.fail(`${text}: ${r.error.code} ${r.error.message}`);
  return r as ExecResult & { ok: true };
}

/** The first column of the first row `text` returns. */
export async function value(s: SqlSession, text: string, params: readonly SqlValue[] = []): Promise<unknown> {
  return (await q(s, text, params)).rows[0]?.[0];
}

/** 'committed', or the SQLSTATE the commit failed with. */
export async function commitCode(s: SqlSession): Promise<string> {
  const r = await s.commit();
  return r.ok ? 'committed' : r.error.code;
}
