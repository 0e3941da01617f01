// The full cluster as a sqllogictest backend (issue 5): six replica processes over gRPC, the wire
// gateway over them as one Pesto client (client/gateway/cluster-gateway.ts), and one node `pg`
// connection per script (SCRAM, simple query protocol, cells as the text the gateway wrote), exactly
// as a PostgreSQL client takes it. One cluster serves the whole corpus; each script starts on an empty
// database: before it runs, every table the catalog holds is dropped through the gateway (replicated
// DDL like any other), and its session is a fresh connection (settings back to their defaults).
import pg from 'pg';

import { startClusterGateway, type ClusterGateway } from '../../client/gateway/cluster-gateway.ts';
import { CATALOG_KEY, CatalogVersion } from '../../sql/replicated-catalog.ts';
import type { SltDatabase } from '../../sql/slt/slt-database.ts';
import { startTestCluster, type TestCluster } from '../integration/cluster-harness.ts';
import { executeOn } from './postgres-database.ts';
import type { OpenedDatabase } from './slt-files.ts';

const USER = 'pesto';
const PASSWORD = 'pesto';
const DATABASE = 'pesto';

export interface SltCluster {
  readonly cluster: TestCluster;
  readonly gateway: ClusterGateway;
  /** The catalog log's entries as the cluster holds them now (read at a fresh timestamp). */
  catalogLog(): Promise<string[]>;
  /** A backend for one script: an emptied database and a new connection. */
  open(): Promise<OpenedDatabase>;
  stop(): Promise<void>;
}

/**
 * `shards`: shards of six replicas each (default 1; with more, a script's tables spread over them).
 * `catalogCompactAt`: the gateway's SqlClient option (how often its DDL writes the catalog as one image).
 */
export async function startSltCluster(name: string, basePort: number, shards = 1, catalogCompactAt?: number): Promise<SltCluster> {
  const tc: TestCluster = await startTestCluster(name, basePort, { shards });
  let gw: ClusterGateway;
  try {
    gw = await startClusterGateway({
      client: { config: tc.config, clientId: tc.clientId, keyPair: tc.keyPair },
      port: 0,
      users: [{ name: USER, password: PASSWORD }],
      databases: [DATABASE],
      ...(catalogCompactAt === undefined ? {} : { sql: { catalogCompactAt } }),
    });
  } catch (e) {
    await tc.stop();
    throw e;
  }
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ host: gw.gateway.host, port: gw.gateway.port, user: USER, password: PASSWORD, database: DATABASE });
    await client.connect();
    client.on('notice', () => undefined);
    return client;
  };
  return {
    cluster: tc,
    gateway: gw,
    catalogLog: async () => {
      const tx = gw.client.session().begin();
      try {
        const r = await tx.read(CATALOG_KEY);
        return r.value === null ? [] : (JSON.parse(new TextDecoder().decode(r.value)) as string[]);
      } finally {
        tx.abort();
      }
    },
    open: async () => {
      const client = await connect();
      try {
        await dropEverything(gw, client);
      } catch (e) {
        await client.end();
        throw e;
      }
      const db: SltDatabase = { labels: ['pesto'], execute: (sql) => executeOn(client, sql) };
      return { db, close: () => client.end() };
    },
    stop: async () => {
      await gw.close();
      await tc.stop();
    },
  };
}

/** Drops every view, materialized view, table and sequence of the current catalog (read at a fresh timestamp), through the gateway. */
async function dropEverything(gw: ClusterGateway, client: pg.Client): Promise<void> {
  const tx = gw.client.session().begin();
  let names: string[];
  let matviews: string[];
  let views: string[];
  let sequences: string[];
  try {
    const r = await tx.read(CATALOG_KEY);
    const catalog = CatalogVersion.fromValue(r.value).catalog;
    names = catalog.list().filter((t) => t.matview === undefined).map((t) => t.name);
    matviews = catalog.list().filter((t) => t.matview !== undefined).map((t) => t.name);
    views = catalog.listViews().map((v) => v.name);
    // Those no table owns (the others go with their tables).
    sequences = catalog.listSequences().filter((s) => s.ownedBy === null).map((s) => s.name);
  } finally {
    tx.abort();
  }
  const quoted = (list: readonly string[]): string => list.map((n) => `"${n.replace(/"/g, '""')}"`).join(', ');
  if (views.length > 0) await client.query(`DROP VIEW ${quoted(views)}`);
  if (matviews.length > 0) await client.query(`DROP MATERIALIZED VIEW ${quoted(matviews)} CASCADE`);
  if (names.length > 0) await client.query(`DROP TABLE ${quoted(names)}`);
  if (sequences.length > 0) await client.query(`DROP SEQUENCE ${quoted(sequences)} CASCADE`);
}
