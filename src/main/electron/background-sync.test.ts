import { describe, expect, it, vi } from 'vitest';
import { CommandFailedError } from '../../shared/contract/command-error';
import type { ConnectionInfo } from '../../shared/contract/connection';
import type { AppWatchOptions } from '../app/quire-app';
import { snapshot } from '../../../test/electron/status-snapshot';
import { BackgroundSync } from './background-sync';
import type { SyncRunnerState } from './desktop-status';

const loggedIn: ConnectionInfo = {
  state: 'logged-in',
  server: 'http://127.0.0.1:8787',
  folder: '/home/ada/Quire',
  user: { id: 'u1', displayName: 'Ada' },
  runner: null,
};
const cli = { pid: 4242, host: 'h', command: 'quire sync --watch', since: '2026-11-26T12:00:00Z' };

/** A fake app whose watch() runs the scripted steps in order. */
function fakeApp(connection: ConnectionInfo, steps: ('busy' | 'watch' | 'token-rejected')[]) {
  const finishedWatch = vi.fn();
  const app = {
    connection: vi.fn(async () => connection),
    watch: vi.fn(async (options: AppWatchOptions) => {
      const step = steps.shift() ?? 'watch';
      if (step === 'busy') {
        throw new CommandFailedError({ kind: 'busy', message: 'held', runner: cli });
      }
      if (step === 'token-rejected') {
        throw new CommandFailedError({ kind: 'token-rejected', message: 'rejected' });
      }
      options.onLocked?.({} as never);
      await new Promise((resolve) => options.signal.addEventListener('abort', resolve));
      // The request in flight is answered before watch() returns.
      await new Promise((resolve) => setTimeout(resolve, 5));
      finishedWatch();
      return snapshot();
    }),
  };
  return { app, finishedWatch };
}

function recorder() {
  const states: SyncRunnerState[] = [];
  const next = (kind: SyncRunnerState['kind']) =>
    vi.waitFor(() => expect(states.at(-1)?.kind).toBe(kind));
  return { states, onState: (state: SyncRunnerState) => states.push(state), next };
}

describe('BackgroundSync', () => {
  it('tells a CLI holding the drain lock apart, and takes over once it is free', async () => {
    const { app } = fakeApp(loggedIn, ['busy', 'watch']);
    const { states, onState, next } = recorder();
    const sync = new BackgroundSync(app, { onState, lockRetryMs: 10 });
    sync.start();
    await next('watching');
    expect(states[0]).toEqual({ kind: 'other-process', runner: cli });
    expect(app.watch).toHaveBeenCalledTimes(2);
    await sync.stop();
  });

  it('waits for a login, then syncs on restart', async () => {
    const { app } = fakeApp({ state: 'new' }, []);
    const { onState, next } = recorder();
    const sync = new BackgroundSync(app, { onState });
    sync.start();
    await next('not-connected');
    expect(app.watch).not.toHaveBeenCalled();
    app.connection.mockResolvedValue(loggedIn);
    sync.restart();
    await next('watching');
    await sync.stop();
  });

  it('stops on a rejected token until restarted', async () => {
    const { app } = fakeApp(loggedIn, ['token-rejected', 'watch']);
    const { onState, next } = recorder();
    const sync = new BackgroundSync(app, { onState, failureRetryMs: 1 });
    sync.start();
    await next('stopped');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.watch).toHaveBeenCalledTimes(1);
    sync.restart();
    await next('watching');
    await sync.stop();
  });

  it('stop() resolves after the request in flight finished', async () => {
    const { app, finishedWatch } = fakeApp(loggedIn, ['watch']);
    const { onState, next } = recorder();
    const sync = new BackgroundSync(app, { onState });
    sync.start();
    await next('watching');
    await sync.stop();
    expect(finishedWatch).toHaveBeenCalledTimes(1);
    expect(app.watch).toHaveBeenCalledTimes(1);
  });

  it('stop() before the watcher started ends at once', async () => {
    const { app } = fakeApp({ state: 'new' }, []);
    const sync = new BackgroundSync(app, { onState: () => undefined });
    sync.start();
    await sync.stop();
    expect(app.watch).not.toHaveBeenCalled();
  });
});
