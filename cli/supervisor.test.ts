// The supervisor's process handling, for real: it spawns cli/testdata/fake-replica.ts (a stand-in that
// honours replica/main.ts's process contract: ready line, stderr logs, exit on SIGTERM) and checks start,
// readiness, logs, crash reports, kill and restart, start failures and stop.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ChildStartError } from './managed-child.ts';
import { MALLOC_HUGE_PAGES, startLocalCluster, REPO_ROOT, withMallocTunables, type LocalClusterOptions, type SupervisorEvent } from './supervisor.ts';

const FAKE = join(REPO_ROOT, 'cli', 'testdata', 'fake-replica.ts');
const dirs: string[] = [];

after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function tempDataDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'pesto-supervisor-'));
  dirs.push(d);
  return d;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A base port with `count` free ports after it (checked, not assumed: other test files run in parallel). */
async function freeBasePort(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + ((process.pid * 37 + attempt * 997) % 30_000);
    let free = true;
    for (let p = base; p < base + count && free; p++) free = await canListen(p);
    if (free) return base;
  }
  throw new Error('no free port range found');
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function options(extra: Partial<LocalClusterOptions> & { f?: number; shards?: number }): Promise<LocalClusterOptions & { events: SupervisorEvent[] }> {
  const f = extra.f ?? 0;
  const shards = extra.shards ?? 1;
  const events: SupervisorEvent[] = [];
  return {
    dataDir: await tempDataDir(),
    basePort: await freeBasePort((5 * f + 1) * shards),
    replicaEntry: FAKE,
    readyTimeoutMs: 20_000,
    stopGraceMs: 2000,
    onEvent: (e) => events.push(e),
    ...extra,
    f,
    shards,
    events,
  };
}

function waitFor(events: SupervisorEvent[], match: (e: SupervisorEvent) => boolean): Promise<SupervisorEvent> {
  return new Promise((resolve) => {
    const poll = (): void => {
      const e = events.find(match);
      if (e !== undefined) resolve(e);
      else setTimeout(poll, 20);
    };
    poll();
  });
}

/** Asserts that the log at `path` matches `re`, waiting up to 10 s for lines still being written. */
async function logMatches(path: string, re: RegExp): Promise<void> {
  for (let i = 0; i < 200 && !re.test(readFileSync(path, 'utf8')); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(readFileSync(path, 'utf8'), re);
}

void describe('withMallocTunables', () => {
  void it('adds huge-page malloc to the tunables a replica starts with, keeping the others and an explicit choice', () => {
    assert.equal(withMallocTunables({ PATH: '/bin' })['GLIBC_TUNABLES'], MALLOC_HUGE_PAGES);
    assert.equal(withMallocTunables({ PATH: '/bin' })['PATH'], '/bin');
    assert.equal(withMallocTunables({ GLIBC_TUNABLES: '' })['GLIBC_TUNABLES'], MALLOC_HUGE_PAGES);
    assert.equal(withMallocTunables({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })['GLIBC_TUNABLES'], `glibc.malloc.arena_max=2:${MALLOC_HUGE_PAGES}`);
    assert.equal(withMallocTunables({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' })['GLIBC_TUNABLES'], 'glibc.malloc.hugetlb=0', "an operator's choice wins");
    assert.equal(withMallocTunables({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2' })['GLIBC_TUNABLES'], 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2');
  });
});

void describe('startLocalCluster (with the fake replica)', () => {
  void it('starts six replicas of f = 1, waits until all are ready, logs each to its own file, and stops them all', async () => {
    const opts = await options({ f: 1 });
    const cluster = await startLocalCluster(opts);
    const pids = [0, 1, 2, 3, 4, 5].map((i) => cluster.pid(0, i));
    try {
      assert.match(cluster.generated ?? '', /generated/);
      assert.equal(opts.events.filter((e) => e.kind === 'ready').length, 6);
      assert.deepEqual(
        opts.events.flatMap((e) => (e.kind === 'ready' ? [e.address] : [])).sort(),
        [0, 1, 2, 3, 4, 5].map((i) => `127.0.0.1:${opts.basePort! + i}`),
      );
      for (const pid of pids) assert.ok(alive(pid));
      // stderr and the ready line on stdout are separate pipes: the stderr line may be logged just after ready.
      await logMatches(cluster.logPath(0, 3), /s0r3 stderr \| fake-replica s0r3: listening on 127\.0\.0\.1:\d+/);
    } finally {
      await cluster.stop();
    }
    for (const pid of pids) assert.equal(alive(pid), false);
    // The log file is written asynchronously: the exit line may land just after stop resolves.
    await logMatches(cluster.logPath(0, 3), /SIGTERM: stopping[\s\S]*exited with code 0/);
  });

  void it('reuses the configuration and keys on a second start', async () => {
    const opts = await options({ shards: 2 });
    const first = await startLocalCluster(opts);
    await first.stop();
    const yaml = readFileSync(first.configPath, 'utf8');
    const { f: _f, shards: _shards, ...unset } = opts;
    const second = await startLocalCluster(unset);
    await second.stop();
    assert.equal(second.generated, undefined);
    assert.equal(readFileSync(second.configPath, 'utf8'), yaml);
  });

  void it('kills a replica without reporting a crash, and restarts it until ready', async () => {
    const opts = await options({ shards: 2 });
    const cluster = await startLocalCluster(opts);
    try {
      const before = cluster.pid(1, 0);
      await cluster.kill(1, 0);
      assert.equal(cluster.isRunning(1, 0), false);
      assert.equal(alive(before), false);
      assert.equal(cluster.isRunning(0, 0), true);
      await cluster.restart(1, 0);
      assert.equal(cluster.isRunning(1, 0), true);
      assert.notEqual(cluster.pid(1, 0), before);
      assert.equal(opts.events.filter((e) => e.kind === 'crashed').length, 0);
      assert.equal(opts.events.filter((e) => e.kind === 'ready' && e.shard === 1).length, 2);
    } finally {
      await cluster.stop();
    }
  });

  void it('reports a replica that dies on its own, and leaves it down by default', async () => {
    const opts = await options({});
    const cluster = await startLocalCluster(opts);
    try {
      process.kill(cluster.pid(0, 0)!, 'SIGKILL');
      const e = await waitFor(opts.events, (x) => x.kind === 'crashed');
      assert.deepEqual(e.kind === 'crashed' && [e.shard, e.index, e.exit.signal, e.willRestart], [0, 0, 'SIGKILL', false]);
      assert.equal(cluster.isRunning(0, 0), false);
    } finally {
      await cluster.stop();
    }
  });

  void it('restarts a crashed replica when asked to', async () => {
    const opts = await options({ restartCrashed: true, restartDelayMs: 10 });
    const cluster = await startLocalCluster(opts);
    try {
      process.kill(cluster.pid(0, 0)!, 'SIGKILL');
      await waitFor(opts.events, (x) => x.kind === 'crashed' && x.willRestart);
      await waitFor(opts.events, () => opts.events.filter((x) => x.kind === 'ready').length === 2);
      assert.equal(cluster.isRunning(0, 0), true);
    } finally {
      await cluster.stop();
    }
  });

  void it('fails the start naming the replica that exited, its log and its last words, and stops the others', async () => {
    const opts = await options({ shards: 2, env: { FAKE_REPLICA_FAIL: 's1r0' } });
    await assert.rejects(startLocalCluster(opts), (e: unknown) => {
      assert.ok(e instanceof ChildStartError);
      assert.match(e.message, /^s1r0 exited \(code 3\) before it was ready; see its log .*s1r0\.log; its last lines:/);
      assert.match(e.message, /failing on purpose before ready/);
      return true;
    });
    assert.equal(opts.events.filter((e) => e.kind === 'crashed').length, 0);
    // The log is written through a stream: wait (bounded) for the exit line to reach the file.
    assert.match(await logEventually(join(opts.dataDir, 'logs', 's0r0.log'), /sending SIGTERM[\s\S]*exited with code 0/), /exited with code 0/);
  });

  void it('fails the start when a replica is not ready in time', async () => {
    const opts = await options({ env: { FAKE_REPLICA_HANG: 's0r0' }, readyTimeoutMs: 4000 });
    await assert.rejects(startLocalCluster(opts), /^ChildStartError: s0r0 was not ready within 4 s; see its log .*s0r0\.log/);
  });

  void it('kills a replica that ignores SIGTERM once the grace period is over', async () => {
    const opts = await options({ env: { FAKE_REPLICA_IGNORE_TERM: 's0r0' }, stopGraceMs: 1000 });
    const cluster = await startLocalCluster(opts);
    const pid = cluster.pid(0, 0);
    await cluster.stop();
    assert.equal(alive(pid), false);
    const killed = /sending SIGTERM[\s\S]*still running 1000 ms after SIGTERM[\s\S]*sending SIGKILL[\s\S]*exited with signal SIGKILL/;
    assert.match(await logEventually(cluster.logPath(0, 0), killed), killed);
    assert.ok(existsSync(join(opts.dataDir, 'keys', 's0r0.key')));
  });
});

/** The log's text once it matches `re`, waiting for buffered writes to land (at most ~5 s). */
async function logEventually(path: string, re: RegExp): Promise<string> {
  let text = '';
  for (let i = 0; i < 100; i++) {
    text = readFileSync(path, 'utf8');
    if (re.test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return text;
}
