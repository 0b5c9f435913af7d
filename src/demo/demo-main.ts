import path from 'node:path';
import { parseArgs } from 'node:util';
import { findRendererDir, RENDERER_MISSING } from '../main/ui-host/find-renderer-dir';
import { startDemoHost } from './demo-host';

const USAGE = `Usage: npm start -- [--folder <dir>] [--data <dir>] [--port <n>]
  --folder <dir>  where the demo workspace is mirrored (default ./quire-demo)
  --data <dir>    the demo server's database and the demo's Quire home (default ./.quire-demo)
  --port <n>      the UI's port (default: a free one)`;

/**
 * The demo host's process (`npm start` where Electron's binary is missing): prints the UI's URL,
 * runs until Ctrl-C. scripts/start.mjs has already said which of the two it started.
 */
export async function demoMain(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      folder: { type: 'string', default: 'quire-demo' },
      data: { type: 'string', default: '.quire-demo' },
      port: { type: 'string', default: '0' },
      // Where relative paths start: the user's folder (npm runs scripts in the package's).
      cwd: { type: 'string', default: process.cwd() },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535)
    return fail(`--port ${values.port} is not a port number`);
  const rendererDir = findRendererDir(process.env);
  if (rendererDir === undefined) return fail(RENDERER_MISSING);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const host = await startDemoHost({
    dataDir: path.resolve(values.cwd, values.data),
    folder: path.resolve(values.cwd, values.folder),
    rendererDir,
    uiPort: port,
    env: process.env,
    log,
    onWatchStopped: (message) =>
      process.stderr.write(`quire demo: background sync stopped: ${message}\n`),
  });
  log(`Quire UI: ${host.url}`);
  log('Open it in a browser (the secret in it stands for a password). Ctrl-C stops.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log('Stopping after the current request…');
  await host.close();
  log('Stopped.');
  return 0;
}

function fail(message: string): number {
  process.stderr.write(`quire demo: ${message}\n`);
  return 2;
}
