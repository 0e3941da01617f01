// The Pesto single-node engine as a sqllogictest backend: one fresh engine and one session per
// script, result values rendered with the engine's own PostgreSQL text output (`formatText`).
import { Engine } from '../../sql/engine.ts';
import { formatText } from '../../sql/types.ts';
import { withSessionZone } from '../../sql/session-zone.ts';
import type { SltOutcome } from '../../sql/slt/slt-database.ts';
import type { OpenedDatabase } from './slt-files.ts';

export async function openPestoDatabase(): Promise<OpenedDatabase> {
  const engine = await Engine.create();
  const session = engine.session();
  return {
    db: {
      labels: ['pesto'],
      execute: async (sql): Promise<SltOutcome> => {
        // Promise.resolve: works whether execute is synchronous (today) or asynchronous.
        const result = await Promise.resolve(session.execute(sql));
        if (!result.ok) return { ok: false, code: result.error.code, message: result.error.message };
        const types = result.columns.map((c) => c.type);
        // Written in the session's TimeZone, as the gateway writes them.
        const rows = withSessionZone(session.timeZone, () => result.rows.map((row) => row.map((v, i) => (v === null ? null : formatText(v, types[i] ?? 'text')))));
        return { ok: true, columnCount: result.columns.length, rows };
      },
    },
    close: () => Promise.resolve(),
  };
}
