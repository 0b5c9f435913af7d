import { spawn } from 'node:child_process';
import { CliError, EXIT_OK, EXIT_USAGE, type Run, type Values } from '../cli-run';
import { quote } from '../output/text';
import { findRendererDir, RENDERER_MISSING } from '../../ui-host/find-renderer-dir';
import { serveQuireUi } from '../../ui-host/serve-quire-ui';

/**
 * `quire ui [--port <n>] [--open]`: the desktop app's UI in a browser, served on 127.0.0.1 with
 * the background sync running (as `sync --watch`) while logged in. The first line is the URL to
 * open, with its secret; Ctrl-C stops (the request in flight finishes).
 */
export async function ui(run: Run, values: Values, args: string[]): Promise<number> {
  if (args.length > 0) throw new CliError('ui takes no arguments', EXIT_USAGE);
  const port = parsePort(values.port);
  const onStop = run.io.onStop;
  if (onStop === undefined) throw new CliError('ui needs a terminal to stop it from');
  const rendererDir = findRendererDir(run.io.env);
  if (rendererDir === undefined) throw new CliError(RENDERER_MISSING);
  const session = await serveQuireUi({
    app: run.app,
    rendererDir,
    port,
    onWatching: (config) => run.out(`Syncing ${config.folder} in the background.`),
    onWatchStopped: (message) => run.warn(`background sync stopped: ${message}`),
  });
  run.out(`Quire UI: ${session.host.url}`);
  if (values.open) openInBrowser(session.host.url, run);
  await resumeDemo(run);
  await session.startWatching();
  await new Promise<void>((resolve) => {
    const off = onStop(() => {
      off();
      resolve();
    });
  });
  run.out('Stopping after the current request…');
  await session.close();
  run.out('Stopped.');
  return EXIT_OK;
}

/** A home that tried the demo last time syncs with it again: its server starts first. */
async function resumeDemo(run: Run): Promise<void> {
  const connection = await run.app.connection({});
  if (run.demo === undefined || connection.state === 'new') return;
  if (!(await run.demo.serves(connection.server))) return;
  run.out('Starting the demo server…');
  await run.demo.start().catch((error: unknown) => {
    run.warn(`the demo server did not start: ${error instanceof Error ? error.message : error}`);
  });
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new CliError(
      `--port takes a port number (0 picks a free one), not ${quote(value)}`,
      EXIT_USAGE,
    );
  }
  return port;
}

/** The system's browser; a failure only says so (the URL is printed anyway). */
function openInBrowser(url: string, run: Run): void {
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : ['xdg-open', url];
  const child = spawn(command!, args, { detached: true, stdio: 'ignore' });
  child.once('error', () => run.warn(`could not open a browser (${command}): open the URL above`));
  child.unref();
}
