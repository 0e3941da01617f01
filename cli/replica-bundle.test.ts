import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledProgram } from './replica-bundle.ts';

void test('a program is bundled once, reused while its sources are unchanged, and rebuilt when one changes', async () => {
  const root = await mkdtemp(join(tmpdir(), 'pesto-bundle-'));
  try {
    await writeFile(join(root, 'main.ts'), "import { word } from './word.ts';\nconst n: number = 2;\nconsole.log(word.repeat(n));\n");
    await writeFile(join(root, 'word.ts'), "export const word: string = 'ab';\n");
    const run = (path: string): string => execFileSync(process.execPath, [path], { encoding: 'utf8' }).trim();

    const first = await bundledProgram(root, join(root, 'main.ts'));
    assert.equal(run(first), 'abab');
    const builtAt = (await stat(first)).mtimeMs;

    // Unchanged sources: the same file, not rebuilt.
    assert.equal(await bundledProgram(root, join(root, 'main.ts')), first);
    assert.equal((await stat(first)).mtimeMs, builtAt);

    // An imported module edited to the same size: rebuilt all the same (the manifest keeps contents' digests).
    await writeFile(join(root, 'word.ts'), "export const word: string = 'cd';\n");
    assert.equal(run(await bundledProgram(root, join(root, 'main.ts'))), 'cdcd');

    // A source that no longer compiles: the build's error, and no stale bundle taken as current.
    await writeFile(join(root, 'word.ts'), 'export const word: string = ;\n');
    await assert.rejects(bundledProgram(root, join(root, 'main.ts')));
    await writeFile(join(root, 'word.ts'), "export const word: string = 'ef';\n");
    assert.equal(run(await bundledProgram(root, join(root, 'main.ts'))), 'efef');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
