// The gateway over a Pesto cluster in one call (issue 5): connects a PestoClient with the given client
// identity, wraps it in a SqlClient (the engine parses, plans and evaluates at the client; replicas run
// range reads), and serves it with ClusterBackend. `pesto start`, the cluster integration tests and the
// pgbench benchmark use it. `close` closes the gateway (ending its connections), then the client.

import { Engine } from '../../sql/engine.ts';
import { PestoClient, type ConnectOptions } from '../pesto-client.ts';
import { SqlClient } from '../sql/sql-session.ts';
import type { SqlClientOptions } from '../sql/sql-client.ts';
import { dropLeftTemp } from '../sql/temp-session.ts';
import { serveMetrics } from '../../net/metrics-http.ts';
import { clientMetrics } from '../metrics.ts';
import { ClusterBackend } from './cluster-backend.ts';
import { startGateway, type Gateway, type GatewayOptions } from './gateway-server.ts';

export interface ClusterGatewayOptions extends Omit<GatewayOptions, 'backend'> {
  /** How to reach the cluster and who the gateway is in it. */
  readonly client: ConnectOptions;
  /** Databases a client may name in its startup packet; any name when omitted. */
  readonly databases?: readonly string[];
  /** Serve the client's Prometheus metrics (client/metrics.ts) on `host:metricsPort/metrics`; off when omitted. */
  readonly metricsPort?: number;
  /** The SQL client's options (client/sql/sql-client.ts). */
  readonly sql?: SqlClientOptions;
}

export interface ClusterGateway {
  readonly gateway: Gateway;
  readonly client: PestoClient;
  readonly sql: SqlClient;
  /** Where the metrics are served (host:port), or null. */
  readonly metrics: string | null;
  /** Closes the gateway, then the client. Idempotent. */
  close(): Promise<void>;
}

export async function startClusterGateway(options: ClusterGatewayOptions): Promise<ClusterGateway> {
  const { client: connect, databases, metricsPort, sql: sqlOptions, ...gatewayOptions } = options;
  const client = await PestoClient.connect(connect);
  try {
    const sql = new SqlClient(client, await Engine.create({ clock: () => Date.now() * 1000 }), sqlOptions);
    // Temporary tables an earlier process of this client id left when it died (temp-session.ts).
    await dropLeftTemp(sql).catch((e: unknown) => process.stderr.write(`pesto gateway: ${e instanceof Error ? e.message : String(e)}\n`));
    const gateway = await startGateway({ ...gatewayOptions, backend: new ClusterBackend(sql, databases === undefined ? {} : { databases }) });
    const host = gatewayOptions.host ?? '127.0.0.1';
    const metrics = metricsPort === undefined ? null : await serveMetrics(clientMetrics({ core: client.core, rejected: client.rejected, clientId: connect.clientId }, sql.stats), host, metricsPort).catch(async (e: unknown) => {
      await gateway.close();
      throw e;
    });
    let closing: Promise<void> | undefined;
    return {
      gateway,
      client,
      sql,
      metrics: metrics === null ? null : `${host}:${metricsPort}`,
      close: () =>
        (closing ??= (async () => {
          try {
            metrics?.close();
            await gateway.close();
          } finally {
            await client.close();
          }
        })()),
    };
  } catch (e) {
    await client.close();
    throw e;
  }
}
