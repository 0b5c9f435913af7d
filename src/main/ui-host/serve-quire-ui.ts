import { CommandFailedError } from '../../shared/contract/command-error';
import { COMMAND_NAMES, type QuireCommandHandlers } from '../../shared/contract/quire-commands';
import type { QuireConfig } from '../config/quire-home';
import type { QuireApp } from '../app/quire-app';
import { startUiHost, type UiHost, type UiHostApp } from './ui-host';

export interface QuireUiOptions {
  readonly app: QuireApp;
  readonly rendererDir: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** The watcher holds the drain lock and runs. */
  readonly onWatching?: (config: QuireConfig) => void;
  /** The watcher stopped on a failure (token rejected, another process syncing, folder gone…). */
  readonly onWatchStopped?: (message: string) => void;
}

export interface QuireUi {
  readonly host: UiHost;
  /** Starts the background sync when logged in (and again after every login through the UI). */
  startWatching(): Promise<void>;
  /** Stops the watcher (the request in flight finishes), then the HTTP server. */
  close(): Promise<void>;
}

/**
 * `quire ui` around one QuireApp: the UI host carrying its commands and events, and the
 * background sync (as `quire sync --watch`) while logged in. A login made from the UI's first-run
 * screen starts the sync; a rejected token stops it until the next login.
 */
export async function serveQuireUi(options: QuireUiOptions): Promise<QuireUi> {
  const { app } = options;
  const stop = new AbortController();
  let running: Promise<void> | undefined;
  const startWatching = async (): Promise<void> => {
    if (running !== undefined || stop.signal.aborted) return;
    if ((await app.connection({})).state !== 'logged-in') return;
    if (running !== undefined) return;
    running = app
      .watch({
        signal: stop.signal,
        ...(options.onWatching ? { onLocked: options.onWatching } : {}),
      })
      .then(
        () => undefined,
        (error: unknown) => {
          const message = error instanceof CommandFailedError ? error.message : String(error);
          options.onWatchStopped?.(message);
        },
      )
      .finally(() => (running = undefined));
  };
  const host = await startUiHost({
    app: withLoginStartingWatch(app, startWatching),
    rendererDir: options.rendererDir,
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
  return {
    host,
    startWatching,
    close: async () => {
      stop.abort();
      await running;
      await host.close();
    },
  };
}

/** The app's commands, a successful login (or demo start) also starting the background sync. */
function withLoginStartingWatch(app: QuireApp, startWatching: () => Promise<void>): UiHostApp {
  const handlers = Object.fromEntries(
    COMMAND_NAMES.map((name) => [name, (args: never) => app[name](args)]),
  ) as unknown as QuireCommandHandlers;
  return {
    ...handlers,
    login: async (request) => {
      const result = await app.login(request);
      void startWatching();
      return result;
    },
    startDemo: async (args) => {
      const result = await app.startDemo(args);
      void startWatching();
      return result;
    },
    on: (event, listener) => app.on(event, listener),
  };
}
