// The wire gateway as a sqllogictest backend: each script gets a fresh single-node engine behind its own
// gateway on an ephemeral loopback port, and one node `pg` connection (SCRAM, simple query protocol,
// every cell kept as the text the gateway wrote). So the corpus checks the whole path a PostgreSQL
// client takes: startup, Query messages, RowDescription/DataRow text encoding, ErrorResponse codes,
// transaction status. Labels are the engine's ('pesto'), since the engine runs the SQL.
import pg from 'pg';

import { Engine } from '../../sql/engine.ts';
import { EngineBackend } from '../../client/gateway/engine-backend.ts';
import { startGateway } from '../../client/gateway/gateway-server.ts';
import type { SltDatabase } from '../../sql/slt/slt-database.ts';
import { executeOn } from './postgres-database.ts';
import type { OpenedDatabase } from './slt-files.ts';

const USER = 'pesto';
const PASSWORD = 'pesto';
const DATABASE = 'pesto';


export async function openGatewayDatabase(): Promise<OpenedDatabase> {
  const engine = await Engine.create();
  const gateway = await startGateway({
    port: 0,
    backend: new EngineBackend(engine, { databases: [DATABASE] }),
    users: [{ name: USER, password: PASSWORD }],
  });
  const client = new pg.Client({ host: gateway.host, port: gateway.port, user: USER, password: PASSWORD, database: DATABASE });
  try {
    await client.connect();
  } catch (e) {
    await gateway.close();
    throw e;
  }
  client.on('notice', () => undefined);
  const db: SltDatabase = {
    labels: ['pesto'],
    execute: (sql) => executeOn(client, sql),
  };
  return {
    db,
    close: async () => {
      await client.end();
      await gateway.close();
    },
  };
}

