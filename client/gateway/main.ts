// Runs the gateway over the single-node SQL engine: `node --import tsx client/gateway/main.ts --port
// 5433 [--socket-dir DIR]`. Database `pesto`, user `pesto`, password `pesto` unless --user/--password say otherwise (local
// development only; a real deployment sets its own). Prints a psql command that works; SIGINT/SIGTERM
// close it cleanly.

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { Engine } from '../../sql/engine.ts';
import { EngineBackend } from './engine-backend.ts';
import { startGateway } from './gateway-server.ts';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '5433' },
    'socket-dir': { type: 'string' },
    database: { type: 'string', default: 'pesto' },
    user: { type: 'string', default: 'pesto' },
    password: { type: 'string', default: 'pesto' },
    trust: { type: 'boolean', default: false },
    'max-connections': { type: 'string', default: '100' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
  },
});

const engine = await Engine.create({ clock: () => Date.now() * 1000, random: randomBytes });
const tlsCert = values['tls-cert'];
const tlsKey = values['tls-key'];
const socketDir = values['socket-dir'];
const gateway = await startGateway({
  host: values.host,
  port: Number(values.port),
  backend: new EngineBackend(engine, { databases: [values.database] }),
  users: values.trust ? 'trust' : [{ name: values.user, password: values.password }],
  maxConnections: Number(values['max-connections']),
  ...(socketDir === undefined ? {} : { socketDir }),
  ...(tlsCert !== undefined && tlsKey !== undefined ? { tls: { cert: readFileSync(tlsCert), key: readFileSync(tlsKey) } } : {}),
});

const pw = values.trust ? '' : `PGPASSWORD=${values.password} `;
console.log(`pesto gateway (single-node engine) listening on ${gateway.host}:${gateway.port}`);
console.log(`connect: ${pw}psql -h ${gateway.host} -p ${gateway.port} -U ${values.user} ${values.database}`);
if (gateway.socketPath !== null) console.log(`     or: ${pw}psql -h ${socketDir ?? ''} -p ${gateway.port} -U ${values.user} ${values.database}    # over ${gateway.socketPath}`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void gateway.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
