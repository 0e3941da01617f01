// A throwaway PostgreSQL server for proving the corpus: initdb into a temporary directory, start on a
// free port with its unix socket in that directory, point the libpq environment variables at it, and
// stop and delete it afterwards. Run as root, the server runs as the `postgres` user.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type ThrowawayPostgres = { readonly dir: string; readonly port: number; stop(): void };

const defaultBinDir = '/usr/lib/postgresql/15/bin';

export async function startThrowawayPostgres(binDir = process.env['PG_BIN'] ?? defaultBinDir): Promise<ThrowawayPostgres> {
  if (!existsSync(join(binDir, 'initdb'))) throw new Error(`no initdb in ${binDir} (set PG_BIN)`);
  const dir = mkdtempSync(join(tmpdir(), 'slt-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (command: string, args: readonly string[]): void => {
    if (asRoot) execFileSync('su', ['postgres', '-c', [command, ...args].map(shellQuote).join(' ')], { stdio: 'ignore' });
    else execFileSync(command, args, { stdio: 'ignore' });
  };
  const port = await freePort();
  const data = join(dir, 'data');
  run(join(binDir, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  const options = `-k ${dir} -p ${port} -c listen_addresses= -c fsync=off`;
  run(join(binDir, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  process.env['PGHOST'] = dir;
  process.env['PGPORT'] = String(port);
  process.env['PGUSER'] = 'postgres';
  return {
    dir,
    port,
    stop: () => {
      try {
        run(join(binDir, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
