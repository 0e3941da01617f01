/**
 * A client that cannot reach its replicas: `PestoClient.connect` rejects, and the client it built is
 * closed, so nothing keeps redialling. Before, the rejected client's links kept the process alive, and
 * a test file whose cluster came up slowly on a loaded machine never exited. The child process below
 * must exit by itself after the rejection (the 120 s limit only stops a hang from hanging the suite).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareLocalCluster } from '../../cli/local-cluster-config.ts';

const BASE_PORT = 7860; // nothing listens here: the replicas are never started

void test('connect rejects when no replica answers, and leaves nothing running', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'pesto-connect-failure-'));
  try {
    await prepareLocalCluster({ dataDir, basePort: BASE_PORT });
    const script = `
      import { loadLocalClient } from './cli/local-cluster-config.ts';
      import { PestoClient } from './client/pesto-client.ts';
      const local = await loadLocalClient(${JSON.stringify(dataDir)});
      try {
        await PestoClient.connect({ config: local.config, clientId: local.clientId, keyPair: local.keyPair, connectTimeoutMs: 2000 });
        console.log('connected');
      } catch (e) {
        console.log('rejected: ' + (e instanceof Error ? e.message : String(e)));
      }`;
    const r = await new Promise<{ code: number | null; signal: string | null; stdout: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: join(import.meta.dirname, '..', '..'), timeout: 120_000 }, (err, stdout) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, signal: err?.signal ?? null, stdout });
      });
    });
    assert.match(r.stdout, /^rejected: could not reach 5 replicas of every shard/);
    assert.equal(r.signal, null, 'the process exited by itself');
    assert.equal(r.code, 0);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
