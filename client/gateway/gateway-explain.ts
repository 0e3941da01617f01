// EXPLAIN ANALYZE through the gateway. PostgreSQL runs the statement and prints its plan with what each
// node did; Pesto's plans are printed by the SQL layer (sql/explain.ts) without running anything, and
// on a cluster a statement's execution is spread over replicas whose timings differ (a timed plan could
// never be a result 3f+1 replicas agree on). So the gateway runs the plain EXPLAIN, then the statement
// itself (its writes happen, as in PostgreSQL), and adds to the plan's top node the rows the statement
// returned and the time it took, measured here.

import type { ExplainStmt } from 'libpg-query';
import type { BackendColumn, BackendResult, BackendSession } from './sql-backend.ts';
import { tokensOf } from './sql-prepare.ts';
import { explainOptions, type ExplainOptions } from '../../sql/explain.ts';

export const EXPLAIN_COLUMNS: readonly BackendColumn[] = [{ name: 'QUERY PLAN', type: 'text', typmod: -1 }];

export interface ExplainAnalyzeSpec {
  /** EXPLAIN [VERBOSE] of the statement, without ANALYZE. */
  readonly explain: string;
  readonly statement: string;
  /** Where the statement starts in the EXPLAIN ANALYZE text minus where it starts in `explain` (error positions). */
  readonly shift: number;
}

/** The statement under EXPLAIN ANALYZE and the plain EXPLAIN of it; null when ANALYZE is not asked for. */
export function explainAnalyzeOf(node: ExplainStmt, sql: string): ExplainAnalyzeSpec | null {
  let opts: ExplainOptions;
  try {
    opts = explainOptions(node);
  } catch {
    return null; // the backend reports the bad option when it lowers the statement
  }
  if (!opts.analyze) return null;
  // EXPLAIN, then either a parenthesised option list or the keywords ANALYZE and VERBOSE, then the statement.
  const { tokens } = tokensOf(sql);
  let i = 1;
  if (tokens[i]?.text === '(') {
    for (let depth = 0; i < tokens.length; i++) {
      if (tokens[i]!.text === '(') depth++;
      else if (tokens[i]!.text === ')' && --depth === 0) break;
    }
    i++;
  } else {
    while (i < tokens.length && /^(analy[sz]e|verbose)$/i.test(tokens[i]!.text)) i++;
  }
  const from = tokens[i]?.start;
  if (from === undefined) return null;
  const statement = sql.slice(from).replace(/[\s;]+$/, '');
  const prefix = `EXPLAIN ${opts.verbose ? '(VERBOSE) ' : ''}`;
  return { explain: `${prefix}${statement}`, statement, shift: from - prefix.length };
}

export async function explainAnalyze(session: BackendSession, spec: ExplainAnalyzeSpec): Promise<BackendResult> {
  const plan = await session.execute(spec.explain);
  if (!plan.ok) {
    const p = plan.error.position;
    return p === undefined ? plan : { ok: false, error: { ...plan.error, position: p + spec.shift } };
  }
  const t0 = performance.now();
  const r = await session.execute(spec.statement);
  const ms = performance.now() - t0;
  if (!r.ok) return r;
  const lines = plan.rows.map((row) => String(row[0]));
  const rows = r.returnsRows ? r.rows.length : 0;
  lines[0] = `${lines[0] ?? ''} (actual rows=${rows} loops=1)`;
  lines.push(`Execution Time: ${ms.toFixed(3)} ms`);
  return { ...plan, tag: `SELECT ${lines.length}`, rows: lines.map((l) => [l]), notices: [...plan.notices, ...r.notices] };
}
