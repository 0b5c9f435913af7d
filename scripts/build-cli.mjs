// Bundles the `quire` CLI (src/main/cli/quire-main.ts) with esbuild into out/cli/quire.mjs, so
// the command starts without a TypeScript loader: tsx alone costs a few hundred milliseconds on
// every run. bin/quire.mjs runs the bundle while out/cli/quire.inputs.json says it is up to date
// and falls back to the TypeScript sources otherwise. Run by `postinstall` and `npm run build`.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds the bundle into `outDir` (default out/cli; `node scripts/build-cli.mjs --out <dir>` for
 * another); returns false (with a message) when esbuild is not installed.
 */
export async function buildCli({ quiet = false, outDir = join(root, 'out', 'cli') } = {}) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    console.log('quire: esbuild is not installed; `quire` runs through tsx instead.');
    return false;
  }
  // Sources saved after this instant make the bundle stale (bin/quire.mjs compares).
  const builtAt = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { quire: 'src/main/cli/quire-main.ts' },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Chunks: `quire --help` loads the CLI alone, the engine only when a command needs it.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Native addons cannot be bundled; they load from node_modules as before.
    external: ['better-sqlite3', 'fsevents'],
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire as __quireCreateRequire } from 'node:module'; const require = __quireCreateRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((file) => !file.includes('node_modules/'))
    .map((file) => relative(root, join(root, file)).split('\\').join('/'))
    .sort();
  writeFileSync(
    join(outDir, 'quire.inputs.json'),
    `${JSON.stringify({ builtAt, inputs }, null, 2)}\n`,
  );
  if (!quiet) console.log(`quire: CLI bundled into ${relative(root, outDir)}/quire.mjs`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  await buildCli(values.out ? { outDir: resolve(values.out) } : {});
}
