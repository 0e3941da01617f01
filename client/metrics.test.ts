import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientMetrics } from './metrics.ts';
import { ClientCore } from './core/client-core.ts';
import type { ClientId } from '../protocol/ids.ts';

void describe('client metrics', () => {
  void it('exposes commit paths, aborts and range-read resolutions from the core counters', async () => {
    const core = new ClientCore({ clientId: 3 as ClientId, f: 1, shardCount: 1, fastPathWaitMs: 1, fastPathWaitMaxMs: 2, resendMs: 10, readRetryMs: 10, relayWaitMs: 10 }, { nowMicros: () => 1, random: () => 0 });
    Object.assign(core.stats, { committed: 10, fastCommits: 7, slowCommits: 2, slowByLate: 2, slowAfterShortWait: 1, aborted: 4, queries: 6, queriesEager: 4, queriesFailed: 1, querySyncRounds: 3 });
    const text = await clientMetrics({ core, clientId: 3, rejected: { 'vote-bad-signature': 2 } }, null).metrics();
    assert.match(text, /pesto_client_commits_total\{path="fast",client="3"\} 7/);
    assert.match(text, /pesto_client_commits_total\{path="slow",client="3"\} 2/);
    assert.match(text, /pesto_client_commits_total\{path="local",client="3"\} 1/);
    assert.match(text, /pesto_client_slow_commits_total\{cause="late-long",client="3"\} 1/);
    assert.match(text, /pesto_client_slow_commits_total\{cause="late-short",client="3"\} 1/);
    assert.match(text, /pesto_client_aborts_total\{cause="validation",client="3"\} 4/);
    assert.match(text, /pesto_client_range_reads_total\{result="sync",client="3"\} 1/);
    assert.match(text, /pesto_client_range_reads_total\{result="unresolved",client="3"\} 1/);
    assert.match(text, /pesto_client_rejected_replies_total\{reason="vote-bad-signature",client="3"\} 2/);
  });
});
