// Bundles test files for `npm test` (scripts/test.sh): each `<path>.test.ts` becomes
// `<out>/<path>.test.mjs`, sharing chunks of the modules they have in common, with packages left to
// node_modules. A test process then starts from a few JavaScript files instead of resolving and
// compiling its modules one by one through tsx (about 1 s of CPU for a file that imports the SQL
// engine, decision 0075). Each module's `import.meta.url` and `import.meta.dirname` are replaced by
// its source file's, so fixtures, the corpus and REPO_ROOT resolve as they do from the sources.
//
// Usage: node --import tsx scripts/bundle-tests.ts <out-dir> <file.test.ts>...
import { readFile, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { build, type Plugin } from 'esbuild';

import { NODE_BUNDLE } from '../cli/replica-bundle.ts';

const [outDir, ...files] = process.argv.slice(2);
if (outDir === undefined || files.length === 0) {
  console.error('usage: bundle-tests.ts <out-dir> <file.test.ts>...');
  process.exit(2);
}

/** Our own TypeScript modules, loaded with their source location written in. */
const sourceLocations: Plugin = {
  name: 'source-locations',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      let contents = await readFile(args.path, 'utf8');
      if (contents.includes('import.meta.')) {
        contents = contents
          .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
          .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(args.path)));
      }
      return { contents, loader: 'ts' };
    });
  },
};

const root = resolve(import.meta.dirname, '..');
await rm(outDir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: files,
  outdir: outDir,
  outbase: root,
  outExtension: { '.js': '.mjs' },
  ...NODE_BUNDLE,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  plugins: [sourceLocations],
});
