import type { App } from 'electron';

/**
 * One app per user: a second launch hands over to the first (which shows its window) and quits.
 * Returns false in the second instance.
 */
export function claimSingleInstance(
  app: Pick<App, 'requestSingleInstanceLock' | 'on' | 'quit'>,
  showFirst: () => void,
): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => showFirst());
  return true;
}

/**
 * Quit finishes the request in flight: the first `before-quit` is held back while `finish` stops
 * the watcher and closes the cache (at most `timeoutMs`), then the app quits for real.
 */
export function finishBeforeQuit(
  app: Pick<App, 'on' | 'quit'>,
  finish: () => Promise<void>,
  timeoutMs = 30_000,
): void {
  let state: 'running' | 'finishing' | 'done' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'done') return;
    event.preventDefault();
    if (state === 'finishing') return;
    state = 'finishing';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    void Promise.race([finish().catch(() => undefined), timeout]).then(() => {
      clearTimeout(timer);
      state = 'done';
      app.quit();
    });
  });
}

/** Closing the window hides it (syncing goes on in the tray) unless the app is quitting. */
export function hideOnClose(
  window: {
    on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
    hide(): void;
  },
  quitting: () => boolean,
): void {
  window.on('close', (event) => {
    if (quitting()) return;
    event.preventDefault();
    window.hide();
  });
}
