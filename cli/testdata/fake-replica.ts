/**
 * A FAKE replica for the supervisor's tests: it honours replica/main.ts's process contract and nothing
 * else. It parses `--config --shard --index --data`, loads its key from `PESTO_KEY_FILE` and checks it
 * against the configuration, listens on its configured address (so port clashes are real), prints
 * `{"event":"ready",...}` on stdout, logs to stderr, and exits 0 on SIGTERM. It speaks no protocol.
 *
 * Misbehaviour on demand, per replica name (`s0r2`), through the environment:
 * FAKE_REPLICA_FAIL (exit 3 before ready), FAKE_REPLICA_HANG (never ready), FAKE_REPLICA_IGNORE_TERM
 * (ignore SIGTERM, so only SIGKILL stops it).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { parseClusterConfig, splitAddress } from '../../protocol/config.ts';
import { readKeyFile } from '../keys.ts';

const { values } = parseArgs({ options: { config: { type: 'string' }, shard: { type: 'string' }, index: { type: 'string' }, data: { type: 'string' } }, strict: true });
const shard = Number(values.shard);
const index = Number(values.index);
const name = `s${shard}r${index}`;
const log = (msg: string): void => void process.stderr.write(`fake-replica ${name}: ${msg}\n`);
const is = (v: string | undefined): boolean => (v ?? '').split(',').includes(name);

const parsed = parseClusterConfig(readFileSync(values.config ?? '', 'utf8'));
if (!parsed.ok) {
  log(`bad config: ${parsed.reason} ${parsed.detail ?? ''}`);
  process.exit(2);
}
const me = parsed.value.shards[shard]?.replicas[index];
const keyPair = await readKeyFile(process.env['PESTO_KEY_FILE'] ?? '');
if (me === undefined || !Buffer.from(keyPair.publicKey).equals(Buffer.from(me.publicKey))) {
  log('my key does not match the configuration');
  process.exit(2);
}
if (is(process.env['FAKE_REPLICA_FAIL'])) {
  log('failing on purpose before ready');
  process.exit(3);
}
const { host, port } = splitAddress(me.address) ?? { host: '', port: 0 };
const server = createServer((socket) => socket.end());
server.listen(port, host, () => {
  log(`listening on ${me.address}, data in ${values.data ?? '?'}`);
  if (!is(process.env['FAKE_REPLICA_HANG'])) process.stdout.write(`${JSON.stringify({ event: 'ready', shard, index, address: me.address })}\n`);
});
process.on('SIGTERM', () => {
  if (is(process.env['FAKE_REPLICA_IGNORE_TERM'])) return log('ignoring SIGTERM on purpose');
  log('SIGTERM: stopping');
  server.close(() => process.exit(0));
});
