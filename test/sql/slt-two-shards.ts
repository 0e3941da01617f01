// The SQL conformance suite over a cluster of two shards (twelve replica processes) through the gateway,
// as slt-cluster.test.ts runs it on one: each file's tables spread over both shards (a table lives on
// one), so joins, subqueries and INSERT ... SELECT across shards run at the client (decision 0064). Not
// part of `npm test` (the default suite stays well under 15 minutes on two cores): `npm run test:shards`
// runs it, and .ci/run runs it after `npm test`. Its gateway writes the catalog as one image whenever
// the log passes four entries (decision 0077; the default is 128), so the corpus also runs on catalogs
// replayed from images, most of them one to four statements old.
import { after, before, describe } from 'node:test';

import { startSltCluster, type SltCluster } from './cluster-database.ts';
import { corpusOn } from './slt-files.ts';

/** How many log entries the gateway's catalog may reach before it writes an image. */
const COMPACT_AT = 4;

/** The two-shard cluster's ports (twelve replicas). */
const SHARDED_BASE_PORT = 7840;

void describe('the sqllogictest corpus over a cluster of two shards (twelve replicas), through the gateway', () => {
  let cluster: SltCluster | undefined;
  before(async () => {
    cluster = await startSltCluster('slt-2shards', SHARDED_BASE_PORT, 2, COMPACT_AT);
  });
  after(async () => {
    await cluster?.stop();
  });
  corpusOn(() => cluster, COMPACT_AT);
});
