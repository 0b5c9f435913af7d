import { describe, expect, it, vi } from 'vitest';
import { commandChannel, eventChannel } from '../../shared/contract/quire-bridge';
import { COMMAND_NAMES, type QuireCommandHandlers } from '../../shared/contract/quire-commands';

vi.mock('electron', () => ({}));

const { forwardEvents, registerCommandHandlers } = await import('./ipc-bridge');
const { isAppUrl } = await import('./app-protocol');

type Listener = (event: { senderFrame: unknown }, args: unknown) => Promise<unknown>;

function fakeIpc() {
  const handlers = new Map<string, Listener>();
  return {
    handlers,
    handle: vi.fn((channel: string, listener: Listener) => handlers.set(channel, listener)),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
}

function fakeApp() {
  return {
    setSpaceEnabled: vi.fn(async () => null),
    appInfo: vi.fn(async () => ({ name: 'Quire', version: '1.2.3' })),
  } as unknown as QuireCommandHandlers & {
    setSpaceEnabled: ReturnType<typeof vi.fn>;
  };
}

const appFrame = { url: 'app://quire/index.html', parent: null };
const trusted = (url: string) => isAppUrl(url);

function setup() {
  const ipc = fakeIpc();
  const app = fakeApp();
  const remove = registerCommandHandlers(ipc as never, app, trusted);
  const call = (name: string, frame: unknown, args: unknown) =>
    ipc.handlers.get(`quire:command:${name}`)!({ senderFrame: frame }, args);
  return { ipc, app, remove, call };
}

describe('registerCommandHandlers', () => {
  it('registers one handler per command, and removes them all', () => {
    const { ipc, remove } = setup();
    expect([...ipc.handlers.keys()]).toEqual(COMMAND_NAMES.map((name) => commandChannel(name)));
    remove();
    expect(ipc.handlers.size).toBe(0);
  });

  it('dispatches a valid call from the app frame', async () => {
    const { app, call } = setup();
    await expect(
      call('setSpaceEnabled', appFrame, { spaceId: 's1', enabled: true }),
    ).resolves.toEqual({ ok: true, result: null });
    expect(app.setSpaceEnabled).toHaveBeenCalledWith({ spaceId: 's1', enabled: true });
    await expect(call('appInfo', appFrame, {})).resolves.toEqual({
      ok: true,
      result: { name: 'Quire', version: '1.2.3' },
    });
  });

  it('refuses other senders before looking at the arguments', async () => {
    const { app, call } = setup();
    const senders = [
      null,
      { url: 'app://quire/index.html', parent: { url: 'app://quire/' } },
      { url: 'https://evil.example/', parent: null },
      { url: 'file:///tmp/index.html', parent: null },
      { url: 'app://other/index.html', parent: null },
      { url: 'not a url', parent: null },
    ];
    for (const frame of senders) {
      await expect(
        call('setSpaceEnabled', frame, { spaceId: 's1', enabled: true }),
      ).rejects.toThrow(/refused setSpaceEnabled/);
    }
    expect(app.setSpaceEnabled).not.toHaveBeenCalled();
  });

  it('answers an invalid argument without running the command', async () => {
    const { app, call } = setup();
    for (const args of [
      undefined,
      'x',
      { spaceId: 's1' },
      { spaceId: 's1', enabled: 'yes' },
      { spaceId: 's1', enabled: true, extra: 1 },
    ]) {
      const outcome = (await call('setSpaceEnabled', appFrame, args)) as {
        ok: boolean;
        error?: { kind: string };
      };
      expect(outcome.ok).toBe(false);
      expect(outcome.error?.kind).toBe('invalid-argument');
    }
    expect(app.setSpaceEnabled).not.toHaveBeenCalled();
  });

  it('accepts the dev server only when one is given', () => {
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5173/')).toBe(false);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
  });
});

describe('forwardEvents', () => {
  it('sends each event to every live window until unsubscribed', () => {
    const listeners = new Map<string, (payload: unknown) => void>();
    const source = {
      on: vi.fn((name: string, listener: (payload: unknown) => void) => {
        listeners.set(name, listener);
        return () => listeners.delete(name);
      }),
    };
    const live = { send: vi.fn(), isDestroyed: () => false };
    const gone = { send: vi.fn(), isDestroyed: () => true };
    const off = forwardEvents(source as never, () => [live, gone]);
    listeners.get('conflicts')!([]);
    expect(live.send).toHaveBeenCalledWith(eventChannel('conflicts'), []);
    expect(gone.send).not.toHaveBeenCalled();
    off();
    expect(listeners.size).toBe(0);
  });
});
