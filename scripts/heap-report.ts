/**
 * `node --import tsx scripts/heap-report.ts [--depth 4] [--top 30] FILE.heapprofile...`: sums sampled
 * allocations (scripts/heap-sample.mjs, decision 0040) over the given processes' profiles and prints
 * the functions that allocated most (bytes allocated in the function itself) and the call stacks of
 * `--depth` frames that did, as shares of everything sampled.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly selfSize: number;
  readonly children?: readonly ProfileNode[];
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}

const depth = flag('depth', 4);
const top = flag('top', 30);
const files = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(all[i - 1] ?? '').startsWith('--'));
if (files.length === 0) throw new Error('usage: heap-report.ts [--depth N] [--top N] FILE.heapprofile...');

const byFunction = new Map<string, number>();
const byStack = new Map<string, number>();
let total = 0;
const add = (m: Map<string, number>, k: string, v: number): void => void m.set(k, (m.get(k) ?? 0) + v);

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode };
  // Iterative walk: allocation stacks can be deeper than the call stack allows for recursion.
  const stack: { node: ProfileNode; path: readonly string[] }[] = [{ node: profile.head, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { functionName, url } = item.node.callFrame;
    const name = `${functionName === '' ? '(anonymous)' : functionName}@${url.split('/').pop() ?? ''}`;
    const path = [...item.path, name];
    if (item.node.selfSize > 0) {
      total += item.node.selfSize;
      add(byFunction, name, item.node.selfSize);
      add(byStack, path.slice(-depth).reverse().join(' < '), item.node.selfSize);
    }
    for (const child of item.node.children ?? []) stack.push({ node: child, path });
  }
}

const print = (title: string, m: Map<string, number>): void => {
  process.stdout.write(`${title}\n`);
  for (const [k, v] of [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * v) / total).toFixed(1).padStart(5)}% ${(v / 1e6).toFixed(1).padStart(8)} MB  ${k}\n`);
  }
};
process.stdout.write(`${files.length} profiles, ${(total / 1e6).toFixed(1)} MB sampled\n`);
print('by function (allocated in the function itself):', byFunction);
print(`by stack (${depth} frames, innermost first):`, byStack);
