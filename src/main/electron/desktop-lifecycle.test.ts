import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({}));

const { claimSingleInstance, finishBeforeQuit, hideOnClose } = await import('./desktop-lifecycle');

function fakeApp(gotLock = true) {
  const emitter = new EventEmitter();
  return Object.assign(emitter, {
    requestSingleInstanceLock: vi.fn(() => gotLock),
    quit: vi.fn(() => {
      const event = { preventDefault: vi.fn() };
      emitter.emit('before-quit', event);
      return event;
    }),
  });
}

describe('claimSingleInstance', () => {
  it('the second instance quits; the first shows its window when launched again', () => {
    const second = fakeApp(false);
    const showSecond = vi.fn();
    expect(claimSingleInstance(second as never, showSecond)).toBe(false);
    expect(second.quit).toHaveBeenCalled();

    const first = fakeApp(true);
    const show = vi.fn();
    expect(claimSingleInstance(first as never, show)).toBe(true);
    expect(first.quit).not.toHaveBeenCalled();
    first.emit('second-instance', {}, ['quire'], '/');
    expect(show).toHaveBeenCalledTimes(1);
  });
});

describe('finishBeforeQuit', () => {
  it('holds the quit until the request in flight finished, then quits once', async () => {
    const app = fakeApp();
    let finished!: () => void;
    const finish = vi.fn(() => new Promise<void>((resolve) => (finished = resolve)));
    finishBeforeQuit(app as never, finish);
    const first = { preventDefault: vi.fn() };
    app.emit('before-quit', first);
    expect(first.preventDefault).toHaveBeenCalled();
    const again = { preventDefault: vi.fn() };
    app.emit('before-quit', again);
    expect(again.preventDefault).toHaveBeenCalled();
    expect(finish).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
    finished();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(app.quit.mock.results[0]!.value.preventDefault).not.toHaveBeenCalled();
  });

  it('quits anyway after the timeout or a failure', async () => {
    const hung = fakeApp();
    finishBeforeQuit(hung as never, () => new Promise<void>(() => undefined), 10);
    hung.emit('before-quit', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(hung.quit).toHaveBeenCalledTimes(1));
    const failing = fakeApp();
    finishBeforeQuit(failing as never, () => Promise.reject(new Error('disk')));
    failing.emit('before-quit', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(failing.quit).toHaveBeenCalledTimes(1));
  });
});

describe('hideOnClose', () => {
  it('hides the window instead of closing it, unless quitting', () => {
    const window = Object.assign(new EventEmitter(), { hide: vi.fn() });
    let quitting = false;
    hideOnClose(window, () => quitting);
    const close = { preventDefault: vi.fn() };
    window.emit('close', close);
    expect(close.preventDefault).toHaveBeenCalled();
    expect(window.hide).toHaveBeenCalled();
    quitting = true;
    const last = { preventDefault: vi.fn() };
    window.emit('close', last);
    expect(last.preventDefault).not.toHaveBeenCalled();
  });
});
