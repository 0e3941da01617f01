/**
 * `pesto start` as users run it (issue 5): a local cluster plus the PostgreSQL gateway in one process.
 * The psql command it prints must work as printed; Ctrl-C (SIGINT) with a client connected inside a
 * transaction must close the gateway, stop every replica and exit 0. Flag mistakes are usage errors (2)
 * before anything starts.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../../cli/supervisor.ts';
import { processAlive } from './cluster-harness.ts';

const BASE_PORT = 7620;

function pesto(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'cli/pesto.ts', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

function sh(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', command], { timeout: 60_000, env: { ...process.env, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' } }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

/** Replica process ids the supervisor logged for this data folder. */
async function replicaPids(dataDir: string): Promise<number[]> {
  const logs = join(dataDir, 'logs');
  const pids: number[] = [];
  for (const f of await readdir(logs)) {
    for (const m of (await readFile(join(logs, f), 'utf8')).matchAll(/supervisor \| started pid (\d+)/g)) pids.push(Number(m[1]));
  }
  return pids;
}

void describe('pesto start', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  void it('serves the gateway over the cluster; the printed psql command works; SIGINT stops everything and exits 0', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pesto-start-'));
    dirs.push(dataDir);
    const socketDir = await mkdtemp(join(tmpdir(), 'pesto-start-sock-'));
    dirs.push(socketDir);
    const child = pesto(['start', '--data', dataDir, '--base-port', String(BASE_PORT), '--port', '0', '--socket-dir', socketDir]);
    const exited = exitOf(child);
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('Press Ctrl-C to stop.')) resolve();
        });
        void exited.then(() => reject(new Error(`pesto start exited early:\n${out}\n${err}`)));
      });
      assert.match(out, /PostgreSQL gateway on 127\.0\.0\.1:\d+: database pesto, user pesto, password pesto\./);
      assert.match(out, /a real deployment must set its own/);
      const command = /^ {2}(PGPASSWORD=pesto psql -h 127\.0\.0\.1 -p (\d+) -U pesto pesto)$/m.exec(out);
      assert.ok(command !== null, `no psql command in:\n${out}`);
      const port = Number(command[2]);

      const r = await sh(`${command[1]} -X -At -v ON_ERROR_STOP=1 -c 'CREATE TABLE t (id INT PRIMARY KEY, v TEXT)' -c "INSERT INTO t VALUES (1, 'one')" -c 'SELECT v FROM t WHERE id = 1'`);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'CREATE TABLE\nINSERT 0 1\none\n');
      const overSocket = new RegExp(`^ {2}(PGPASSWORD=pesto psql -h ${socketDir} -p ${port} -U pesto pesto) {4}# over ${join(socketDir, `.s.PGSQL.${port}`)}$`, 'm').exec(out);
      assert.ok(overSocket !== null, `no psql command over the socket in:\n${out}`);
      const s = await sh(`${overSocket[1]} -X -At -c 'SELECT v FROM t WHERE id = 1'`);
      assert.equal(s.stdout, 'one\n', s.stderr);

      const pids = await replicaPids(dataDir);
      assert.equal(pids.length, 6);
      assert.ok(pids.every(processAlive));
      const open = new pg.Client({ host: '127.0.0.1', port, user: 'pesto', password: 'pesto', database: 'pesto' });
      open.on('error', () => undefined);
      await open.connect();
      await open.query('BEGIN');
      await open.query("INSERT INTO t VALUES (2, 'two')");

      child.kill('SIGINT');
      assert.deepEqual(await exited, { code: 0, signal: null }, `${out}\n${err}`);
      assert.match(out, /SIGINT: closing the gateway \(1 connection\(s\)\) \.\.\.\nstopping 6 replicas \.\.\.\nStopped\.\n$/);
      assert.equal(err, '');
      assert.deepEqual(pids.filter(processAlive), [], 'every replica is stopped');
      assert.deepEqual(await readdir(socketDir), [], 'the socket file is removed');
      await open.end().catch(() => undefined);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL'); // the supervisor's exit hook does not run on SIGKILL: stop the replicas by pid
        for (const pid of await replicaPids(dataDir).catch(() => [])) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
      }
    }
  });

  void it('refuses gateway flags with --no-gateway and bad ports before starting anything (exit 2)', async () => {
    const cases = [['--no-gateway', '--port', '5440'], ['--no-gateway', '--socket-dir', tmpdir()], ['--port', '70000']];
    await Promise.all(cases.map(async (args) => {
      const child = pesto(['start', '--data', join(tmpdir(), 'pesto-start-never'), ...args]);
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const r = await exitOf(child);
      assert.equal(r.code, 2, `${args.join(' ')}: ${err}`);
      assert.match(err, /^pesto: /);
    }));
  });
});
