/**
 * A gateway backend that adds up this process's CPU seconds while its sessions are open (from
 * openSession to close), so bench/pgbench.ts's gateway-overhead figure leaves out starting and reaping
 * the pgbench process (docs/decisions/0016).
 */
import type { BackendSession, OpenSessionResult, SqlBackend } from '../client/gateway/sql-backend.ts';

export function selfCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

export class MeteredBackend implements SqlBackend {
  cpuSeconds = 0;
  constructor(private readonly inner: SqlBackend) {}

  loginRole(user: string): ReturnType<SqlBackend['loginRole']> {
    return this.inner.loginRole(user);
  }

  async openSession(user: string, database: string, bootstrap?: readonly string[]): Promise<OpenSessionResult> {
    const start = selfCpuSeconds();
    const r = await this.inner.openSession(user, database, bootstrap);
    if (!r.ok) return r;
    const s = r.session;
    const session: BackendSession = {
      execute: (sql) => s.execute(sql),
      prepare: (sql, hints) => s.prepare(sql, hints),
      run: (statement, params) => s.run(statement, params),
      release: (statement) => s.release(statement),
      tables: () => s.tables(),
      sequences: () => s.sequences(),
      views: () => s.views(),
      enums: () => s.enums(),
      roles: () => s.roles(),
      begin: () => s.begin(),
      commit: () => s.commit(),
      rollback: () => s.rollback(),
      close: async () => {
        await s.close();
        this.cpuSeconds += selfCpuSeconds() - start;
      },
    };
    return { ok: true, session };
  }
}
