/**
 * Echo throughput of the two transports (decision 0003): one dialing process, one echo-server child
 * process, one authenticated link between them, N messages in flight (closed loop: every echo that
 * comes back sends the next message). Reports messages/s (round trips) and CPU microseconds per
 * round trip of both processes together, the median of `--runs` runs per (transport, N). gRPC and TCP
 * runs are interleaved (g t g t ...) because this machine's speed drifts about 2x over minutes; compare
 * the two transports of one invocation, not with another day's numbers.
 *
 * Usage: node --import tsx bench/transport.ts [--seconds 3] [--inflight 1,32,256] [--size 200] [--runs 3] [--json]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sodium from 'sodium-native';
import { grpcTransport } from '../net/grpc.ts';
import { peerKey, replicaPeer, type PeerIdentity } from '../net/peer-identity.ts';
import { tcpTransport } from '../net/tcp.ts';
import type { Transport } from '../net/transport.ts';

const SERVER = replicaPeer(0, 0);
const DIALER = replicaPeer(0, 1);
const TRANSPORTS: Record<'grpc' | 'tcp', Transport> = { grpc: grpcTransport, tcp: tcpTransport };

interface Keys {
  readonly serverPublic: string;
  readonly serverSecret: string;
  readonly dialerPublic: string;
  readonly dialerSecret: string;
}

type ChildRequest = { readonly cmd: 'cpu' } | { readonly cmd: 'exit' };
type ChildReply = { readonly port: number } | { readonly cpuUs: number };

function makeKeys(): Keys {
  const pair = (): [string, string] => {
    const pk = Buffer.alloc(32);
    const sk = Buffer.alloc(64);
    sodium.crypto_sign_keypair(pk, sk);
    return [pk.toString('hex'), sk.toString('hex')];
  };
  const [serverPublic, serverSecret] = pair();
  const [dialerPublic, dialerSecret] = pair();
  return { serverPublic, serverSecret, dialerPublic, dialerSecret };
}

function keyLookup(keys: Keys): (p: PeerIdentity) => Uint8Array | undefined {
  const table = new Map([
    [peerKey(SERVER), Buffer.from(keys.serverPublic, 'hex')],
    [peerKey(DIALER), Buffer.from(keys.dialerPublic, 'hex')],
  ]);
  return (p) => table.get(peerKey(p));
}

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Child side: an echo server that reports its port and, on request, its CPU time. */
async function serveEcho(transportName: 'grpc' | 'tcp', keys: Keys): Promise<void> {
  const server = await TRANSPORTS[transportName].listen({
    identity: SERVER,
    secretKey: Buffer.from(keys.serverSecret, 'hex'),
    publicKeyOf: keyLookup(keys),
    onLink: (link) => link.onMessage((m) => link.send(m)),
  });
  process.on('message', (req: ChildRequest) => {
    if (req.cmd === 'cpu') process.send?.({ cpuUs: cpuUs() } satisfies ChildReply);
    else void server.close().then(() => process.exit(0));
  });
  process.send?.({ port: server.port } satisfies ChildReply);
}

function nextReply(child: ChildProcess): Promise<ChildReply> {
  return new Promise((resolve) => child.once('message', (m: ChildReply) => resolve(m)));
}

async function childCpu(child: ChildProcess): Promise<number> {
  const reply = nextReply(child);
  child.send({ cmd: 'cpu' } satisfies ChildRequest);
  const r = await reply;
  return 'cpuUs' in r ? r.cpuUs : 0;
}

interface RunResult {
  readonly msgsPerSec: number;
  readonly cpuUsPerMsg: number;
  readonly msgsPerFrame: number;
}

async function runOnce(transportName: 'grpc' | 'tcp', inflight: number, size: number, seconds: number): Promise<RunResult> {
  const keys = makeKeys();
  const child = fork(fileURLToPath(import.meta.url), ['--serve', transportName], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PESTO_BENCH_KEYS: JSON.stringify(keys) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const hello = await nextReply(child);
    if (!('port' in hello)) throw new Error('echo child did not report a port');
    const link = TRANSPORTS[transportName].dial({
      identity: DIALER,
      secretKey: Buffer.from(keys.dialerSecret, 'hex'),
      publicKeyOf: keyLookup(keys),
      host: '127.0.0.1',
      port: hello.port,
      peer: SERVER,
    });
    await new Promise<void>((resolve) => link.onUp(resolve));
    const payload = Buffer.alloc(size, 7);
    let received = 0;
    link.onMessage(() => {
      received++;
      link.send(payload);
    });
    for (let i = 0; i < inflight; i++) link.send(payload);
    await new Promise((r) => setTimeout(r, 500)); // warm-up
    const r0 = received;
    const f0 = link.stats.framesWritten;
    const m0 = link.stats.messagesSent;
    const c0 = cpuUs() + (await childCpu(child));
    const t0 = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const r1 = received;
    const elapsedS = Number(process.hrtime.bigint() - t0) / 1e9;
    const f1 = link.stats.framesWritten;
    const m1 = link.stats.messagesSent;
    const c1 = cpuUs() + (await childCpu(child));
    link.close();
    const n = r1 - r0;
    return { msgsPerSec: n / elapsedS, cpuUsPerMsg: (c1 - c0) / n, msgsPerFrame: (m1 - m0) / Math.max(1, f1 - f0) };
  } finally {
    child.send({ cmd: 'exit' } satisfies ChildRequest);
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

export async function runTransportBench(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const seconds = Number(argValue(args, '--seconds') ?? '3');
  const size = Number(argValue(args, '--size') ?? '200');
  const runs = Number(argValue(args, '--runs') ?? '3');
  const inflights = (argValue(args, '--inflight') ?? '1,32,256').split(',').map(Number);
  if (!json) console.log(`transport echo: ${size} B messages, ${seconds} s per run, median of ${runs} interleaved runs, node ${process.version}`);
  for (const inflight of inflights) {
    const results: Record<'grpc' | 'tcp', RunResult[]> = { grpc: [], tcp: [] };
    for (let r = 0; r < runs; r++) {
      for (const name of ['grpc', 'tcp'] as const) results[name].push(await runOnce(name, inflight, size, seconds));
    }
    const summary = (name: 'grpc' | 'tcp'): { msgsPerSec: number; cpuUsPerMsg: number; msgsPerFrame: number; runs: number[] } => ({
      msgsPerSec: Math.round(median(results[name].map((x) => x.msgsPerSec))),
      cpuUsPerMsg: Number(median(results[name].map((x) => x.cpuUsPerMsg)).toFixed(2)),
      msgsPerFrame: Number(median(results[name].map((x) => x.msgsPerFrame)).toFixed(1)),
      runs: results[name].map((x) => Math.round(x.msgsPerSec)),
    });
    const g = summary('grpc');
    const t = summary('tcp');
    if (json) {
      console.log(JSON.stringify({ bench: 'transport', inflight, size, grpc: g, tcp: t, tcpOverGrpc: t.msgsPerSec / g.msgsPerSec }));
    } else {
      for (const [name, s] of [['grpc', g], ['tcp', t]] as const) {
        console.log(`N=${String(inflight).padStart(4)} ${name.padEnd(4)} ${s.msgsPerSec.toLocaleString('en-US').padStart(9)} msg/s  ${s.cpuUsPerMsg.toFixed(2).padStart(6)} CPU us/msg  ${s.msgsPerFrame.toFixed(1).padStart(6)} msg/frame  (${s.runs.join(', ')})`);
      }
      console.log(`N=${String(inflight).padStart(4)} tcp/grpc x${(t.msgsPerSec / g.msgsPerSec).toFixed(2)}`);
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const serve = process.argv.indexOf('--serve');
  if (serve >= 0) {
    const name = process.argv[serve + 1] === 'tcp' ? 'tcp' : 'grpc';
    await serveEcho(name, JSON.parse(process.env.PESTO_BENCH_KEYS ?? '{}') as Keys);
  } else {
    await runTransportBench(process.argv.slice(2));
  }
}
