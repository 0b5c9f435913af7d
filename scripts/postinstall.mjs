// Runs after `npm install`: bundles the `quire` CLI, then fetches Electron's binary. Electron's own
// install script (denied in package.json's allowScripts) downloads it from the internet. We try it
// here instead so an offline machine still finishes `npm install`: the server, the CLI, the tests
// and `electron-vite build` need only the package, not the binary.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildCli } from './build-cli.mjs';

// First the `quire` bundle (out/cli): without it the CLI still runs, through tsx, only slower.
try {
  await buildCli();
} catch (error) {
  console.log(`quire: could not bundle the CLI (${error.message}); \`quire\` runs through tsx.`);
}

const require = createRequire(import.meta.url);
let electronDir;
try {
  electronDir = dirname(require.resolve('electron/package.json'));
} catch {
  process.exit(0); // production install without devDependencies
}

if (existsSync(join(electronDir, 'path.txt'))) process.exit(0);
if (process.env.QUIRE_SKIP_ELECTRON_DOWNLOAD) {
  console.log('quire: QUIRE_SKIP_ELECTRON_DOWNLOAD set; not downloading the Electron binary.');
  process.exit(0);
}

const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
  stdio: ['ignore', 'pipe', 'pipe'],
  timeout: 120_000,
  encoding: 'utf8',
});
if (result.status === 0 && existsSync(join(electronDir, 'path.txt'))) {
  console.log('quire: Electron binary installed.');
} else {
  const lines = (result.stderr || result.error?.message || '')
    .split('\n')
    .map((line) => line.trim());
  const reason = lines.find((line) => /error/i.test(line)) ?? lines.find(Boolean) ?? '';
  console.log(
    [
      'quire: could not download the Electron binary (offline?) — continuing without it.',
      `       reason: ${reason || 'unknown'}`,
      '       The server, the `quire` CLI, the tests and `npm run build` work without it;',
      '       `npm start` runs the demo in a browser meanwhile. To get the desktop window, run',
      '       node node_modules/electron/install.js where github.com (or ELECTRON_MIRROR) is reachable',
    ].join('\n'),
  );
}
