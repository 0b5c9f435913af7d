#!/usr/bin/env node
// The `quire` command. It runs the bundle `npm install` (and `npm run build`) writes into
// out/cli/quire.mjs, which starts without a TypeScript loader. When the bundle is missing or any
// of its sources was saved after it was built (a checkout being edited), it runs the TypeScript
// sources in place through tsx instead, so `npx quire …` and the tests always run the code as it is.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'out', 'cli', 'quire.mjs');

/** Whether the bundle exists and no source it was built from changed since (as build-cli.mjs). */
function bundleIsCurrent() {
  if (process.env.QUIRE_CLI_FROM_SOURCE) return false;
  try {
    const { builtAt, inputs } = JSON.parse(
      readFileSync(join(root, 'out', 'cli', 'quire.inputs.json'), 'utf8'),
    );
    statSync(bundle);
    return inputs.every((file) => statSync(join(root, file)).mtimeMs < builtAt);
  } catch {
    return false; // no bundle, or a source was removed
  }
}

/** The bundle's main, or undefined when it is stale or cannot be loaded (a rebuild under way). */
async function bundledMain() {
  if (!bundleIsCurrent()) return undefined;
  try {
    return (await import(pathToFileURL(bundle).href)).main;
  } catch {
    return undefined;
  }
}

let main = await bundledMain();
if (main === undefined) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/main/cli/quire-main.ts'));
}
await main(process.argv.slice(2));
