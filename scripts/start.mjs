// `npm start` and `npm run dev`. With Electron's binary installed: the desktop app
// (`electron-vite preview`, or `electron-vite dev` with hot reload for `--dev`). Without it (a
// machine that could not download it, or no display): `npm start` runs the demo host instead,
// the embedded server with the demo workspace synced into ./quire-demo and the same UI served on
// 127.0.0.1 (src/demo). The first line says which. `--demo` asks for the demo host whatever is
// installed; other arguments go to the demo host (see `npm start -- --demo --help`).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dev = args.includes('--dev');
const forceDemo = args.includes('--demo');
const rest = args.filter((arg) => arg !== '--dev' && arg !== '--demo');

/** What a user without the binary can do about it: one sentence, used by every message. */
const GET_ELECTRON =
  'to install it, run `node node_modules/electron/install.js` on a machine that can reach ' +
  'github.com (or set ELECTRON_MIRROR to a mirror first)';

/** Why Electron cannot start here, or undefined when it can. */
function electronUnavailable(env = process.env, platform = process.platform) {
  const require = createRequire(join(root, 'package.json'));
  let dir;
  try {
    dir = dirname(require.resolve('electron/package.json'));
  } catch {
    return 'the electron package is not installed (npm install --include=dev)';
  }
  const pathFile = join(dir, 'path.txt');
  const binary = existsSync(pathFile)
    ? join(dir, 'dist', readFileSync(pathFile, 'utf8').trim())
    : undefined;
  if (binary === undefined || !existsSync(binary)) {
    return `Electron's binary is not installed (its download was skipped or failed); ${GET_ELECTRON}`;
  }
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return 'no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set)';
  }
  return undefined;
}

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
  // Ctrl-C reaches the child from the terminal; a SIGTERM sent to this process is passed on.
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.on('SIGINT', () => undefined);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** The newest modification time under `dir` (files only). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      latest = Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
    }
  }
  return latest;
}

/** Whether out/renderer is missing or older than a renderer or shared source. */
function rendererStale() {
  const built = join(root, 'out', 'renderer', 'index.html');
  if (!existsSync(built)) return true;
  const sources = Math.max(
    newest(join(root, 'src', 'renderer')),
    newest(join(root, 'src', 'shared')),
    statSync(join(root, 'electron.vite.config.ts')).mtimeMs,
  );
  return sources > statSync(built).mtimeMs;
}

const electronVite = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
const unavailable = forceDemo ? '--demo asks for it' : electronUnavailable();

if (unavailable === undefined) {
  console.log(
    dev
      ? 'Quire: the desktop app in development mode (electron-vite dev, hot reload)'
      : 'Quire: starting the desktop app (electron-vite preview)',
  );
  run(process.execPath, [electronVite, dev ? 'dev' : 'preview', ...rest]);
} else if (dev) {
  console.error(`Quire: \`npm run dev\` needs Electron, but ${unavailable}.`);
  console.error('Meanwhile `npm start` serves the same UI in a browser, on the demo workspace.');
  process.exit(1);
} else {
  console.log(`Quire: running the demo in a browser instead of the desktop app: ${unavailable}`);
  if (rendererStale()) {
    console.log('Building the UI (electron-vite build)…');
    const build = spawn(process.execPath, [electronVite, 'build', '--logLevel', 'warn'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const code = await new Promise((resolve) => build.on('exit', resolve));
    if (code !== 0) {
      console.error('Quire: the UI did not build (see above); `npx electron-vite build` retries.');
      process.exit(1);
    }
  }
  // npm runs scripts in the package folder: relative paths are the user's, from INIT_CWD.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  run(process.execPath, [
    '--import',
    'tsx',
    join(root, 'src', 'demo', 'start-demo.ts'),
    '--cwd',
    cwd,
    ...rest,
  ]);
}
