// A throwaway PostgreSQL server for proving the corpus (bench/postgres-server.ts does the work): a
// temporary cluster on a free port with its unix socket in its folder, fsync off, the libpq environment
// variables pointed at it, stopped and deleted afterwards. Run as root, the server runs as `postgres`.
import { freePort, startPostgres } from '../../bench/postgres-server.ts';

export type ThrowawayPostgres = { readonly dir: string; readonly port: number; stop(): void };

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const server = startPostgres(await freePort(), { fsync: 'off', listen_addresses: "''" });
  process.env['PGHOST'] = server.dataDir;
  process.env['PGPORT'] = String(server.port);
  process.env['PGUSER'] = server.user;
  return { dir: server.dataDir, port: server.port, stop: () => server.stop() };
}
