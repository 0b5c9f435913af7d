import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Vitest global setup: builds the app (`electron-vite build` into out/) once, before any test,
 * when a source changed since the last build. The tests that load the renderer, serve it through
 * `quire ui` or `npm start`, or check the main bundle all read this one build; none rebuilds out/
 * while another reads it (test files run in parallel).
 */
export default function buildApp(): void {
  if (!stale()) return;
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (result.status !== 0) {
    throw new Error(`electron-vite build failed:\n${result.stderr || result.error?.message}`);
  }
}

/** Whether a built file is missing or older than the newest source. */
function stale(): boolean {
  const built = ['out/main/index.js', 'out/renderer/index.html'].map((file) => join(ROOT, file));
  if (!built.every((file) => existsSync(file))) return true;
  const oldest = Math.min(...built.map((file) => statSync(file).mtimeMs));
  const sources = Math.max(
    newest(join(ROOT, 'src')),
    statSync(join(ROOT, 'electron.vite.config.ts')).mtimeMs,
    statSync(join(ROOT, 'package.json')).mtimeMs,
  );
  return sources > oldest;
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}
