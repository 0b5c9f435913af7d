// Bundles the `quire` CLI (src/main/cli/quire-main.ts) with esbuild into out/cli/quire.mjs, so
// the command starts without a TypeScript loader: tsx alone costs a few hundred milliseconds on
// every run. bin/quire.mjs runs the bundle while out/cli/quire.inputs.json says it is up to date
// and falls back to the TypeScript sources otherwise. Run by `postinstall`, `npm run build`, and
// (with --if-stale) vitest's global setup, so the tests spawn what a user runs.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_OUT = join(root, 'out', 'cli');
/** Chunks of earlier builds are kept this long: a `quire` started before a rebuild still loads its own. */
const OLD_CHUNK_MS = 60 * 60 * 1000;

/** Whether `outDir` holds a bundle built after every source it was built from was last saved. */
export function cliBundleIsCurrent(outDir = DEFAULT_OUT) {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(join(outDir, 'quire.inputs.json'), 'utf8'));
    statSync(join(outDir, 'quire.mjs'));
    return inputs.every((file) => statSync(join(root, file)).mtimeMs < builtAt);
  } catch {
    return false;
  }
}

/**
 * Builds the bundle into `outDir` (default out/cli); returns false (with a message) when esbuild
 * is not installed. Every file is written beside its place and renamed over it, the entry and
 * its list of inputs last, so a `quire` starting meanwhile runs either build, never half of one.
 */
export async function buildCli({ quiet = false, outDir = DEFAULT_OUT } = {}) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    console.log('quire: esbuild is not installed; `quire` runs through tsx instead.');
    return false;
  }
  // Sources saved after this instant make the bundle stale (bin/quire.mjs compares).
  const builtAt = Date.now();
  const result = await esbuild.build({
    absWorkingDir: root,
    // The demo server's CPU workers (`quire ui`) run their own compiled entry.
    entryPoints: {
      quire: 'src/main/cli/quire-main.ts',
      'cpu-worker': 'src/server/workers/cpu-worker-entry.ts',
    },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Chunks: `quire --help` loads the CLI alone, the engine only when a command needs it.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Native addons cannot be bundled; they load from node_modules as before.
    // piscina and pdfkit find their own files beside their code (a worker script, font data).
    external: ['better-sqlite3', 'fsevents', 'piscina', 'pdfkit'],
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire as __quireCreateRequire } from 'node:module'; const require = __quireCreateRequire(import.meta.url);",
    },
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  mkdirSync(outDir, { recursive: true });
  const entry = join(outDir, 'quire.mjs');
  const files = [...result.outputFiles].sort((a, b) => (a.path === entry) - (b.path === entry));
  for (const file of files) writeReplacing(file.path, file.contents);
  const inputs = Object.keys(result.metafile.inputs)
    .filter((file) => !file.includes('node_modules/'))
    .map((file) => relative(root, join(root, file)).split('\\').join('/'))
    .sort();
  writeReplacing(
    join(outDir, 'quire.inputs.json'),
    `${JSON.stringify({ builtAt, inputs }, null, 2)}\n`,
  );
  removeOldChunks(outDir, new Set(files.map((file) => basename(file.path))));
  if (!quiet) console.log(`quire: CLI bundled into ${relative(root, outDir)}/quire.mjs`);
  return true;
}

function writeReplacing(file, contents) {
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, contents);
  renameSync(temp, file);
}

function removeOldChunks(outDir, current) {
  for (const name of readdirSync(outDir)) {
    if (current.has(name) || !name.endsWith('.mjs')) continue;
    const file = join(outDir, name);
    if (Date.now() - statSync(file).mtimeMs > OLD_CHUNK_MS) unlinkSync(file);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      'if-stale': { type: 'boolean' },
      quiet: { type: 'boolean' },
    },
  });
  const outDir = values.out ? resolve(values.out) : DEFAULT_OUT;
  if (!(values['if-stale'] && cliBundleIsCurrent(outDir))) {
    await buildCli({ outDir, quiet: values.quiet === true });
  }
}
