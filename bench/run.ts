/**
 * `npm run bench -- <case> [flags]`: one entry point for every benchmark. Each case lives in its own
 * module and is loaded only when asked for.
 */
const cases: Record<string, () => Promise<(args: string[]) => Promise<void>>> = {
  kv: async () => (await import('./kv.ts')).runKvBench,
  sql: async () => (await import('./sql.ts')).runSqlBench,
  crypto: async () => (await import('./micro-crypto.ts')).runMicroCryptoBench,
  codec: async () => (await import('./micro-codec.ts')).runMicroCodecBench,
  transport: async () => (await import('./transport.ts')).runTransportBench,
  pgbench: async () => (await import('./pgbench.ts')).runPgbenchBench,
  scan: async () => (await import('./scan.ts')).runScanBench,
  ycsb: async () => (await import('./ycsb.ts')).runYcsbBench,
  ddl: async () => (await import('./ddl.ts')).runDdlBench,
};

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const load = name === undefined ? undefined : cases[name];
  if (load === undefined) {
    process.stderr.write(`usage: npm run bench -- <${Object.keys(cases).join('|')}> [flags]\n`);
    process.exit(2);
  }
  await (await load())(args);
  process.exit(0);
}

await main();
