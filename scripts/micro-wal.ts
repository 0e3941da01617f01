/**
 * `node --import tsx scripts/micro-wal.ts`: what a group commit of the replica's log costs when six
 * replicas sync on one disk (decision 0033). `--procs` (6) child processes each append a `--bytes`
 * (300) record and wait for `flushAsync`, `--ops` (2000) times in a row, on a log in a fresh temporary
 * folder. Reported: the median and 99th percentile of a group's latency over all children, their
 * CPU per group, and the whole machine's busy CPU per group (from /proc/stat: the file system's journal
 * thread and the block layer run outside the children). `--wal PATH` loads the Wal class from another
 * checkout's replica/shell/wal.ts (to compare two versions in one session).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, parseFlags, percentile, round } from '../bench/stats.ts';
import type { Wal as WalClass } from '../replica/shell/wal.ts';

const flags = parseFlags(process.argv.slice(2));
const walPath = flags.get('wal') ?? fileURLToPath(new URL('../replica/shell/wal.ts', import.meta.url));
const ops = Number(flags.get('ops') ?? 2000);
const bytes = Number(flags.get('bytes') ?? 300);

async function child(dir: string): Promise<void> {
  const { Wal } = (await import(pathToFileURL(walPath).href)) as { Wal: typeof WalClass };
  const { wal } = Wal.open(join(dir, 'wal.log'), 'fdatasync');
  const record = new Uint8Array(bytes).fill(7);
  const lat: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < ops; i++) {
    const t = performance.now();
    wal.append(record);
    await new Promise<void>((resolve) => wal.flushAsync(resolve));
    lat.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  wal.close();
  process.stdout.write(JSON.stringify({ lat, cpuUs: cpu.user + cpu.system }));
}

function busyJiffies(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return f.reduce((s, v) => s + v, 0) - f[3]! - f[4]!; // all but idle and iowait
}

async function main(): Promise<void> {
  if (flags.has('child')) return child(flags.get('child')!);
  const procs = Number(flags.get('procs') ?? 6);
  const root = mkdtempSync(join(tmpdir(), 'pesto-micro-wal-'));
  const hz = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  try {
    const busy0 = busyJiffies();
    const outs = await Promise.all(
      Array.from({ length: procs }, (_, i) => {
        const dir = mkdtempSync(join(root, `r${i}-`));
        return new Promise<string>((resolve, reject) => {
          const p = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', dir, '--wal', walPath, '--ops', String(ops), '--bytes', String(bytes)], { stdio: ['ignore', 'pipe', 'inherit'] });
          let out = '';
          p.stdout.on('data', (d: Buffer) => (out += d.toString()));
          p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}`))));
        });
      }),
    );
    const busyS = (busyJiffies() - busy0) / hz;
    const results = outs.map((o) => JSON.parse(o) as { lat: number[]; cpuUs: number });
    const lat = results.flatMap((r) => r.lat).sort((a, b) => a - b);
    const groups = procs * ops;
    process.stdout.write(`${JSON.stringify({ wal: walPath, procs, ops, bytes, p50Ms: round(median(lat), 3), p99Ms: round(percentile(lat, 99), 3), childCpuUsPerGroup: round(results.reduce((s, r) => s + r.cpuUs, 0) / groups, 1), machineCpuUsPerGroup: round((busyS * 1e6) / groups, 1) })}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
