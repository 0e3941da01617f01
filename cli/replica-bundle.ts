/**
 * The replica program as one JavaScript file, so a replica process starts without compiling TypeScript.
 *
 * Started through tsx, a replica spent about 1.4 s of CPU loading its 207 modules (tsx resolves and loads
 * each one through its loader thread); from one esbuild bundle it spends about 0.35 s (decision 0075). A
 * local cluster starts six at once on two cores, and every `pesto start` and every integration test
 * starts one.
 *
 * The bundle lives in `node_modules/.cache/pesto/` with a manifest of the source files it was built from
 * (the SHA-256 of each as esbuild read it). It is reused while every one of them is unchanged, and rebuilt
 * (about 0.5 s) otherwise; a source edit therefore reaches the next replica started, as it did through
 * tsx. Where the bundle cannot be built or written (a read-only install), the supervisor starts replicas
 * through tsx as before. Packages stay outside the bundle and load from node_modules as before. Several
 * processes may build at once: each writes its own temporary files and renames them into place, bundle
 * before manifest, so a reader that trusts a manifest finds a bundle at least as new.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';

import { build, type BuildOptions, type Plugin } from 'esbuild';

/** The SHA-256 of each source file (hex), by path relative to the repository root. */
type Manifest = Record<string, string>;

/** How our programs are bundled: ESM for Node 20, packages loaded from node_modules, names and source maps kept. */
export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  keepNames: true,
  sourcemap: 'linked',
} as const satisfies BuildOptions;

/** Where bundles are kept under the repository root. */
export const BUNDLE_CACHE = join('node_modules', '.cache', 'pesto');

/**
 * The path of an up-to-date bundle of `entry` (a TypeScript program under `root`), building it first when
 * a source file changed since the last build, or when there is none.
 */
export async function bundledProgram(root: string, entry: string): Promise<string> {
  const dir = join(root, BUNDLE_CACHE);
  const name = relative(root, entry).replace(/[\\/]/g, '-').replace(/\.ts$/, '');
  const out = join(dir, `${name}.mjs`);
  const manifestPath = join(dir, `${name}.json`);
  if (await isCurrent(root, manifestPath, out)) return out;

  await mkdir(dir, { recursive: true });
  const tmp = `${out}.${process.pid}.tmp.mjs`;
  // The digest of each source as esbuild read it: a file edited during the build is not taken as built.
  const manifest: Manifest = {};
  const digests: Plugin = {
    name: 'source-digests',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes('/node_modules/')) return undefined;
        const contents = await readFile(args.path);
        manifest[relative(root, args.path)] = digestOf(contents);
        return { contents, loader: 'ts' };
      });
    },
  };
  await build({ ...NODE_BUNDLE, absWorkingDir: root, entryPoints: [entry], outfile: tmp, logLevel: 'silent', plugins: [digests] });
  // The map is named after the temporary file; point the bundle at the map's final name.
  const code = (await readFile(tmp, 'utf8')).replace(`//# sourceMappingURL=${basename(tmp)}.map`, `//# sourceMappingURL=${basename(out)}.map`);
  await writeFile(tmp, code);
  await rename(`${tmp}.map`, `${out}.map`);
  await rename(tmp, out);
  const manifestTmp = `${manifestPath}.${process.pid}.tmp`;
  await writeFile(manifestTmp, JSON.stringify(manifest));
  await rename(manifestTmp, manifestPath);
  return out;
}

const digestOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Whether the bundle and its manifest exist and every source file listed still has the content it was built from. */
async function isCurrent(root: string, manifestPath: string, out: string): Promise<boolean> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
    await stat(out);
  } catch {
    return false;
  }
  const entries = Object.entries(manifest);
  if (entries.length === 0) return false;
  const same = await Promise.all(
    entries.map(async ([path, digest]) => {
      try {
        return digestOf(await readFile(join(root, path))) === digest;
      } catch {
        return false;
      }
    }),
  );
  return same.every((x) => x);
}
