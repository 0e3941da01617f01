/**
 * The import rules of DESIGN §1, checked on every file: protocol imports nothing of ours; sql at most
 * protocol; net at most protocol; replica and client never import each other; sim imports the cores,
 * never the shells; bench imports the client side, never replica internals; operator never replica.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const root = resolve(import.meta.dirname, '..');
const FOLDERS = ['protocol', 'net', 'sql', 'replica', 'client', 'sim', 'bench', 'cli', 'operator'] as const;
type Folder = (typeof FOLDERS)[number];

/** What each folder's non-test code may import (besides itself). */
const ALLOWED: Record<Folder, readonly string[]> = {
  protocol: [],
  net: ['protocol'],
  sql: ['protocol'],
  replica: ['protocol', 'sql', 'net', 'cli/keys.ts'],
  client: ['protocol', 'sql', 'net'],
  sim: ['protocol', 'sql', 'replica/core', 'client/core'],
  bench: ['protocol', 'sql', 'net', 'client', 'cli'],
  cli: ['protocol', 'net', 'client', 'sql'],
  operator: ['protocol'],
};

function* tsFiles(dir: string): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const e of entries) {
    if (e === 'node_modules' || e === 'gen' || e === 'testdata') continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) yield* tsFiles(p);
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) yield p;
  }
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"\n]*?from\s+['"](\.[^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

void test('every folder imports only what DESIGN §1 allows', () => {
  const violations: string[] = [];
  for (const folder of FOLDERS) {
    for (const file of tsFiles(join(root, folder))) {
      for (const spec of importsOf(file)) {
        const target = relative(root, resolve(dirname(file), spec));
        if (target.startsWith(folder + '/')) continue;
        if (!ALLOWED[folder].some((a) => target === a || target.startsWith(a.endsWith('.ts') ? a : a + '/'))) {
          violations.push(`${relative(root, file)} imports ${target}`);
        }
      }
    }
  }
  assert.deepEqual(violations, []);
});

void test('the pure cores import no shell code of their own folder', () => {
  const violations: string[] = [];
  for (const core of ['replica/core', 'client/core']) {
    for (const file of tsFiles(join(root, core))) {
      for (const spec of importsOf(file)) {
        const target = relative(root, resolve(dirname(file), spec));
        const owner = core.split('/')[0]!;
        if (target.startsWith(owner + '/') && !target.startsWith(core + '/')) violations.push(`${relative(root, file)} imports ${target}`);
      }
    }
  }
  assert.deepEqual(violations, []);
});
