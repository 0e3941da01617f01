/**
 * Local client identities (cli/local-cluster-config.ts): every process using the local cluster claims a
 * client id of its own, so two processes never run transactions under one id (a timestamp is
 * (micros, client id): two transactions could otherwise share one).
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_CLIENT_COUNT, loadLocalClient, prepareLocalCluster } from './local-cluster-config.ts';

const dir = mkdtempSync(join(tmpdir(), 'pesto-local-ids-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Claims an identity in a separate process, optionally keeping it for `holdMs`, and prints its id. */
function claimInChild(holdMs = 0): number {
  const script = `import { loadLocalClient } from ${JSON.stringify(new URL('./local-cluster-config.ts', import.meta.url).pathname)};
const c = await loadLocalClient(${JSON.stringify(dir)}); process.stdout.write(String(c.clientId)); await new Promise((r) => setTimeout(r, ${holdMs}));`;
  return Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
}

void describe('local client identities', () => {
  void it('issues LOCAL_CLIENT_COUNT client identities, one per process, and reuses one within a process', async () => {
    const { config } = await prepareLocalCluster({ dataDir: dir, basePort: 7990 });
    assert.deepEqual(config.clients.map((c) => c.id), Array.from({ length: LOCAL_CLIENT_COUNT }, (_, i) => i + 1));
    const mine = await loadLocalClient(dir);
    assert.equal(mine.clientId, 1);
    assert.equal((await loadLocalClient(dir)).clientId, 1, 'the same identity for the same process');
    assert.equal(readFileSync(join(dir, 'keys', 'client-1.lock'), 'utf8'), String(process.pid));
    assert.equal(claimInChild(), 2, 'another process gets another identity');
    assert.equal(existsSync(join(dir, 'keys', 'client-2.lock')), false, 'released when that process exited');
    assert.equal(claimInChild(), 2, 'and free again');
  });

  void it('takes over the lock of a process that is gone, and refuses when every identity is held', () => {
    writeFileSync(join(dir, 'keys', 'client-2.lock'), '999999999');
    assert.equal(claimInChild(), 2, 'a dead holder does not keep its identity');
    for (let id = 2; id <= LOCAL_CLIENT_COUNT; id++) writeFileSync(join(dir, 'keys', `client-${id}.lock`), String(process.ppid));
    assert.throws(() => claimInChild(), /local client identities .* are held by running processes/s);
    for (let id = 2; id <= LOCAL_CLIENT_COUNT; id++) rmSync(join(dir, 'keys', `client-${id}.lock`));
  });
});
