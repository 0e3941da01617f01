/**
 * `pesto kv get|put|del|scan-free ops`: one-shot key-value transactions against a running local cluster,
 * as the local client identity (keys in the data folder). Each command is one transaction and prints
 * its outcome and commit path, e.g. `pesto kv put alice 10` then `pesto kv get alice`.
 */
import { loadLocalClient } from './local-cluster-config.ts';
import { PestoClient } from '../client/pesto-client.ts';

export async function kvCommand(args: readonly string[], dataDir: string): Promise<number> {
  const [op, key, value] = args;
  if (key === undefined || (op === 'put' && value === undefined) || (op !== 'get' && op !== 'put' && op !== 'del')) {
    process.stderr.write('usage: pesto kv get KEY | put KEY VALUE | del KEY [--data DIR]\n');
    return 2;
  }
  const { config, clientId, keyPair } = await loadLocalClient(dataDir);
  const client = await PestoClient.connect({ config, clientId, keyPair });
  try {
    const tx = client.session().begin();
    if (op === 'get') {
      const v = await tx.getString(key);
      const r = await tx.commit();
      process.stdout.write(r.outcome === 'commit' ? `${v === null ? '(no value)' : v}\n` : `aborted (${r.cause}); try again\n`);
      return r.outcome === 'commit' ? 0 : 1;
    }
    if (op === 'put') tx.put(key, value!);
    else tx.delete(key);
    const r = await tx.commit();
    process.stdout.write(r.outcome === 'commit' ? `committed (${r.path} path)\n` : `aborted (${r.cause}); try again\n`);
    return r.outcome === 'commit' ? 0 : 1;
  } finally {
    await client.close();
  }
}
