/**
 * Replica process entry point: `node --import tsx replica/main.ts --config <cluster.yaml> --shard S
 * --index I [--data DIR]`. Prints one JSON line `{"event":"ready",...}` on stdout once listening,
 * logs to stderr, and exits 0 on SIGTERM or SIGINT.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseClusterConfig, replicaOf, splitAddress } from '../protocol/config.ts';
import { readKeyFile, replicaKeyPath } from '../cli/keys.ts';
import { ReplicaServer } from './shell/replica-server.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { config: { type: 'string' }, shard: { type: 'string', default: '0' }, index: { type: 'string' }, data: { type: 'string' } },
  });
  if (values.config === undefined || values.index === undefined) throw new Error('usage: replica/main.ts --config FILE --shard S --index I [--data DIR]');
  const shard = Number(values.shard);
  const index = Number(values.index);
  const parsed = parseClusterConfig(await readFile(values.config, 'utf8'));
  if (!parsed.ok) throw new Error(`bad configuration ${values.config}: ${parsed.reason}${parsed.detail === undefined ? '' : ` (${parsed.detail})`}`);
  const config = parsed.value;
  const me = replicaOf(config, shard, index);
  if (me === undefined) throw new Error(`replica s${shard}r${index} is not in ${values.config}`);
  const addr = splitAddress(me.address);
  if (addr === undefined) throw new Error(`bad address ${me.address}`);
  const keyPair = await readKeyFile(replicaKeyPath(values.config, shard, index));
  const server = new ReplicaServer({ config, shard, index, keyPair, host: addr.host, port: addr.port });
  const port = await server.start();
  process.stdout.write(`${JSON.stringify({ event: 'ready', shard, index, address: `${addr.host}:${port}` })}\n`);
  const stop = (): void => {
    process.stderr.write(`replica s${shard}r${index} stopping: ${JSON.stringify({ stats: server.core.stats, rejected: server.rejected })}\n`);
    void server.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`replica failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
