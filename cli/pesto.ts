/**
 * The `pesto` command (`npm start` runs `pesto start`).
 *
 *   pesto start [--f N] [--shards S] [--data DIR] [--base-port P] [--restart-crashed] [--transport grpc|tcp] [--tls|--no-tls]
 *               [--host H] [--port P] [--user U] [--password W] [--no-gateway]
 *   pesto kv get KEY | put KEY VALUE | del KEY [--data DIR]   one-shot transactions on a running cluster
 *   pesto config check FILE      validate a cluster configuration, print a summary
 *   pesto keys new FILE          write a fresh secret key file (mode 0600), print its public key
 *   pesto keys show FILE         print the public key of a key file
 *   pesto help
 *
 * `start` generates or reuses the configuration and keys in the data folder, starts one replica process
 * per configured replica (cli/supervisor.ts), waits until all are ready, then serves the PostgreSQL wire
 * gateway over the cluster in this process (client/gateway/cluster-gateway.ts: 127.0.0.1:5433, database
 * `pesto`, user `pesto`, password `pesto` unless --user/--password say otherwise; the gateway is the
 * local client identity of the data folder), prints a psql command, and on Ctrl-C or SIGTERM closes the
 * gateway (its connections included), the client, stops the replicas and exits 0; a second Ctrl-C exits
 * at once (1). `--no-gateway` starts the replicas only. Crashed replicas are reported on stderr (and
 * restarted with `--restart-crashed`). Exit codes: 0 clean stop, 1 start failure, 2 usage error.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TRANSPORT, parseClusterConfig, toHex, type TransportConfig } from '../protocol/config.ts';
import { keyPairFromSeed } from '../protocol/crypto/ed25519.ts';
import type { ClusterGateway } from '../client/gateway/cluster-gateway.ts';
import { newSeed, readKeyFile, writeKeyFile } from './keys.ts';
import { DEFAULT_BASE_PORT, DEFAULT_DATA_DIR, DEFAULT_F, DEFAULT_SHARDS, LOCAL_CLIENT_COUNT, loadLocalClient } from './local-cluster-config.ts';
import { startLocalCluster, type LocalCluster, type SupervisorEvent } from './supervisor.ts';
import { kvCommand } from './kv-command.ts';

export const DEFAULT_GATEWAY_HOST = '127.0.0.1';
export const DEFAULT_GATEWAY_PORT = 5433;
export const GATEWAY_DATABASE = 'pesto';
export const DEFAULT_GATEWAY_USER = 'pesto';
export const DEFAULT_GATEWAY_PASSWORD = 'pesto';

const USAGE = `Pesto: a Byzantine-fault-tolerant SQL database.

Usage:
  pesto start [options]        start a local cluster (keys and config generated on first start) and its PostgreSQL gateway
      --f N                    faults tolerated per shard; n = 5f+1 replicas per shard (default ${DEFAULT_F}, or the existing config's)
      --shards S               number of shards (default ${DEFAULT_SHARDS}, or the existing config's)
      --data DIR               data folder: cluster.yaml, keys/, logs/, replicas/ (default ${DEFAULT_DATA_DIR})
      --base-port P            replica k listens on 127.0.0.1:P+k (default ${DEFAULT_BASE_PORT}, or the existing config's)
      --restart-crashed        restart replicas that crash (default: report them and leave them down)
      --transport grpc|tcp     the wire between processes (default: the existing config's, else tcp; decision 0026)
      --tls, --no-tls          mutual TLS on every link, certificates from the local authority (default: the existing config's, else off)
      --host H                 the gateway listens on H (default ${DEFAULT_GATEWAY_HOST})
      --port P                 the gateway's port (default ${DEFAULT_GATEWAY_PORT})
      --socket-dir DIR         also listen on the Unix-domain socket DIR/.s.PGSQL.<port> (psql -h DIR)
      --user U, --password W   the gateway's one user (default ${DEFAULT_GATEWAY_USER}/${DEFAULT_GATEWAY_PASSWORD}: local development only;
                               a real deployment must set its own); database "${GATEWAY_DATABASE}"
      --no-gateway             start the replicas only
  pesto kv get KEY             read a key in a transaction on a running local cluster (--data DIR)
  pesto kv put KEY VALUE       write a key; pesto kv del KEY deletes it
  pesto config check FILE      validate a cluster configuration
  pesto keys new FILE          write a new secret key file (mode 0600) and print its public key
  pesto keys show FILE         print the public key of a secret key file
  pesto help                   this text
`;

class UsageError extends Error {
  override readonly name = 'UsageError';
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return start(rest);
    case 'kv': {
      const { values, positionals } = parseArgs({ args: [...rest], options: { data: { type: 'string', default: DEFAULT_DATA_DIR } }, allowPositionals: true });
      return kvCommand(positionals, values.data);
    }
    case 'config':
      return configCommand(rest);
    case 'keys':
      return keysCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return 0;
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}

function intFlag(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^[0-9]+$/.test(v)) throw new UsageError(`${flag} needs a non-negative integer, got ${JSON.stringify(v)}`);
  return Number(v);
}

async function start(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      f: { type: 'string' },
      shards: { type: 'string' },
      data: { type: 'string' },
      'base-port': { type: 'string' },
      'restart-crashed': { type: 'boolean' },
      transport: { type: 'string' },
      tls: { type: 'boolean' },
      'no-tls': { type: 'boolean' },
      host: { type: 'string' },
      port: { type: 'string' },
      'socket-dir': { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      'no-gateway': { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  const f = intFlag(values.f, '--f');
  const shards = intFlag(values.shards, '--shards');
  const basePort = intFlag(values['base-port'], '--base-port');
  const wire = values.transport;
  if (wire !== undefined && wire !== 'grpc' && wire !== 'tcp') throw new UsageError(`--transport must be grpc or tcp, got ${JSON.stringify(wire)}`);
  if (values.tls === true && values['no-tls'] === true) throw new UsageError('--tls and --no-tls contradict each other');
  const tls = values.tls === true ? true : values['no-tls'] === true ? false : undefined;
  const transport: Partial<TransportConfig> = { ...(wire === undefined ? {} : { wire: wire as TransportConfig['wire'] }), ...(tls === undefined ? {} : { tls }) };
  const withGateway = values['no-gateway'] !== true;
  const gatewayPort = intFlag(values.port, '--port') ?? DEFAULT_GATEWAY_PORT;
  if (gatewayPort > 65535) throw new UsageError(`--port must be at most 65535, got ${gatewayPort}`);
  const gatewayHost = values.host ?? DEFAULT_GATEWAY_HOST;
  if (gatewayHost === '') throw new UsageError('--host needs an address');
  const user = values.user ?? DEFAULT_GATEWAY_USER;
  const password = values.password ?? DEFAULT_GATEWAY_PASSWORD;
  if (user === '' || password === '') throw new UsageError('--user and --password must not be empty');
  const socketDir = values['socket-dir'];
  if (socketDir === '') throw new UsageError('--socket-dir needs a folder');
  if (!withGateway && (values.host !== undefined || values.port !== undefined || values.user !== undefined || values.password !== undefined || socketDir !== undefined)) {
    throw new UsageError('--host, --port, --socket-dir, --user and --password configure the gateway; they make no sense with --no-gateway');
  }
  const dataDir = values.data ?? DEFAULT_DATA_DIR;
  const show = (p: string): string => {
    const r = relative(process.cwd(), p);
    return r === '' ? '.' : r.startsWith('..') || isAbsolute(r) ? p : r;
  };

  // Signals are handled from here on: one during the start stops everything once the start is over.
  let signalled: NodeJS.Signals | undefined;
  let onSignal: (signal: NodeJS.Signals) => void = (signal) => {
    signalled ??= signal;
  };
  const handler = (signal: NodeJS.Signals): void => onSignal(signal);
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  const unhandle = (): void => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };

  process.stdout.write(`Starting Pesto in ${dataDir} ...\n`);
  let cluster: LocalCluster;
  try {
    cluster = await startLocalCluster({
      dataDir,
      ...(f === undefined ? {} : { f }),
      ...(shards === undefined ? {} : { shards }),
      ...(basePort === undefined ? {} : { basePort }),
      transport,
      restartCrashed: values['restart-crashed'] ?? false,
      onEvent: (e) => report(e, show),
    });
  } catch (e) {
    process.stderr.write(`pesto: could not start the cluster: ${e instanceof Error ? e.message : String(e)}\n`);
    unhandle();
    return 1;
  }

  const { config } = cluster;
  const replicaCount = config.shards.length * (5 * config.f + 1);

  let gateway: ClusterGateway | undefined;
  if (withGateway && signalled === undefined) {
    try {
      const local = await loadLocalClient(cluster.dataDir);
      // Loaded here: the SQL engine and the gateway are not needed by `pesto kv`, `pesto keys` or a usage error.
      const { startClusterGateway } = await import('../client/gateway/cluster-gateway.ts');
      gateway = await startClusterGateway({
        client: { config: local.config, clientId: local.clientId, keyPair: local.keyPair },
        host: gatewayHost,
        port: gatewayPort,
        ...(socketDir === undefined ? {} : { socketDir }),
        users: [{ name: user, password }],
        databases: [GATEWAY_DATABASE],
        ...(gatewayPort === 0 ? {} : { metricsPort: gatewayPort + 1000 }),
      });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      const inUse = (e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? ` (port ${gatewayPort} is taken: choose another with --port, or start without the gateway with --no-gateway)` : '';
      process.stderr.write(`pesto: could not start the PostgreSQL gateway on ${gatewayHost}:${gatewayPort}: ${why}${inUse}\n`);
      process.stdout.write(`Stopping ${replicaCount} replicas ...\n`);
      await cluster.stop();
      unhandle();
      return 1;
    }
  }

  const data = show(cluster.dataDir);
  const dataFlag = data === DEFAULT_DATA_DIR || `./${data}` === DEFAULT_DATA_DIR ? '' : ` --data ${data}`;
  const lines = [
    '',
    cluster.generated === undefined ? `Reusing ${show(cluster.configPath)}.` : `${cluster.generated}.`,
    `Pesto cluster "${config.name}" is running: ${config.shards.length} shard(s), f = ${config.f}, ${replicaCount} replica processes.`,
    ...config.shards.map((s) => `  shard ${s.id}: ${s.replicas.map((r) => `s${s.id}r${r.index} ${r.address}`).join(', ')}`),
    '',
    `  configuration  ${show(cluster.configPath)}`,
    `  secret keys    ${data}/keys/ (local tools take client ids 1 to ${LOCAL_CLIENT_COUNT}, keys/client-<id>.key, one per process)`,
    `  replica logs   ${data}/logs/`,
    '',
  ];
  if (gateway !== undefined) {
    const g = gateway.gateway;
    const connectHost = g.host === '0.0.0.0' || g.host === '::' ? '127.0.0.1' : g.host;
    const defaults = user === DEFAULT_GATEWAY_USER && password === DEFAULT_GATEWAY_PASSWORD;
    lines.push(
      `PostgreSQL gateway on ${g.host}:${g.port}: database ${GATEWAY_DATABASE}, user ${user}, password ${defaults ? password : '(the one given with --password)'}.`,
      ...(gateway.metrics === null ? [] : [`  client metrics (commit paths, aborts, range reads) on http://${gateway.metrics}/metrics`]),
      defaults
        ? '  These credentials are for local development only: a real deployment must set its own (--user, --password).'
        : '  (A real deployment also keeps the gateway off public interfaces or behind TLS.)',
      '',
      'Connect (in another terminal):',
      `  ${defaults ? `PGPASSWORD=${password} ` : ''}psql -h ${connectHost} -p ${g.port} -U ${user} ${GATEWAY_DATABASE}`,
      ...(socketDir === undefined ? [] : [`  ${defaults ? `PGPASSWORD=${password} ` : ''}psql -h ${socketDir} -p ${g.port} -U ${user} ${GATEWAY_DATABASE}    # over ${g.socketPath ?? ''}`]),
      '',
      'Or use the key-value API directly:',
    );
  } else {
    lines.push('Try it (in another terminal):');
  }
  lines.push(
    `  npx pesto kv put alice 10${dataFlag}      # one transaction; prints its commit path`,
    `  npx pesto kv get alice${dataFlag}`,
    `  npm run bench -- kv --data ${data} --seconds 10    # the key-value benchmark against this cluster`,
    'Press Ctrl-C to stop.',
    '',
  );
  process.stdout.write(lines.join('\n'));

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    onSignal = (s): void => {
      onSignal = (again): void => {
        process.stderr.write(`\n${again} again: exiting without waiting (replicas are killed)\n`);
        process.exit(1);
      };
      resolve(s);
    };
    if (signalled !== undefined) onSignal(signalled);
  });
  if (gateway !== undefined) {
    process.stdout.write(`\n${signal}: closing the gateway (${gateway.gateway.connectionCount} connection(s)) ...\n`);
    await gateway.close().catch((e: unknown) => process.stderr.write(`pesto: closing the gateway: ${e instanceof Error ? e.message : String(e)}\n`));
    process.stdout.write(`stopping ${replicaCount} replicas ...\n`);
  } else {
    process.stdout.write(`\n${signal}: stopping ${replicaCount} replicas ...\n`);
  }
  await cluster.stop();
  unhandle();
  process.stdout.write('Stopped.\n');
  return 0;
}

function report(e: SupervisorEvent, show: (p: string) => string): void {
  const name = `s${e.shard}r${e.index}`;
  switch (e.kind) {
    case 'ready':
      return;
    case 'crashed': {
      const how = e.exit.signal === null ? `code ${e.exit.code ?? '?'}` : `signal ${e.exit.signal}`;
      process.stderr.write(`pesto: replica ${name} exited unexpectedly (${how}); ${e.willRestart ? 'restarting it' : 'it stays down'}; see ${show(e.logPath)}\n`);
      return;
    }
    case 'restart-failed':
      process.stderr.write(`pesto: replica ${name} did not come back: ${e.error.message}\n`);
      return;
  }
}

async function configCommand(args: readonly string[]): Promise<number> {
  const [sub, file, ...extra] = args;
  if (sub !== 'check' || file === undefined || extra.length > 0) throw new UsageError('usage: pesto config check FILE');
  const parsed = parseClusterConfig(await readFile(file, 'utf8'));
  if (!parsed.ok) {
    process.stderr.write(`${file}: ${parsed.reason}: ${parsed.detail ?? ''}\n`);
    return 1;
  }
  const c = parsed.value;
  process.stdout.write(`${file}: valid. Cluster "${c.name}", f = ${c.f}, ${c.shards.length} shard(s) of ${5 * c.f + 1} replicas, ${c.clients.length} client(s), authorities: ${c.authorities.map((a) => a.name).join(', ')}, wire ${(c.transport ?? DEFAULT_TRANSPORT).wire}${(c.transport ?? DEFAULT_TRANSPORT).tls ? ' with TLS' : ''}\n`);
  return 0;
}

async function keysCommand(args: readonly string[]): Promise<number> {
  const [sub, file, ...extra] = args;
  if ((sub !== 'new' && sub !== 'show') || file === undefined || extra.length > 0) throw new UsageError('usage: pesto keys new FILE | pesto keys show FILE');
  if (sub === 'new') {
    const seed = newSeed();
    await writeKeyFile(file, seed);
    process.stdout.write(`${toHex(keyPairFromSeed(seed).publicKey)}\n`);
    return 0;
  }
  process.stdout.write(`${toHex((await readKeyFile(file)).publicKey)}\n`);
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) {
    process.stderr.write(`pesto: ${e.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`pesto: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
}
