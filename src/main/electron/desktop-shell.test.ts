import { describe, expect, it, vi } from 'vitest';
import type { QuireApp } from '../app/quire-app';
import type { ConnectionInfo } from '../../shared/contract/connection';
import type { EventName } from '../../shared/contract/quire-events';
import { snapshot } from '../../../test/electron/status-snapshot';

// Electron as far as the shell touches it: what it was given is recorded for the assertions.
const electron = vi.hoisted(() => {
  const handlers = new Map<string, (event: unknown, args: unknown) => Promise<unknown>>();
  const trays: {
    tooltip: string;
    image: string;
    menu: { label?: string; click?: () => void }[];
  }[] = [];
  const notifications: { title: string; shown: boolean }[] = [];
  return { handlers, trays, notifications, loginItem: { openAtLogin: false } };
});

vi.mock('electron', () => ({
  app: { quit: vi.fn() },
  ipcMain: {
    handle: (channel: string, handler: (event: unknown, args: unknown) => Promise<unknown>) =>
      electron.handlers.set(channel, handler),
    removeHandler: (channel: string) => electron.handlers.delete(channel),
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
    },
  },
  nativeImage: { createFromPath: (file: string) => file },
  Menu: { buildFromTemplate: (items: unknown[]) => items },
  Tray: class {
    readonly state = { tooltip: '', image: '', menu: [] as never[] };
    constructor() {
      electron.trays.push(this.state);
    }
    on() {}
    setImage(image: string) {
      this.state.image = image;
    }
    setToolTip(tooltip: string) {
      this.state.tooltip = tooltip;
    }
    setContextMenu(menu: never[]) {
      this.state.menu = menu;
    }
    destroy() {}
  },
  Notification: class {
    static isSupported = () => true;
    constructor(private readonly options: { title: string }) {}
    on() {}
    show() {
      electron.notifications.push({ title: this.options.title, shown: true });
    }
  },
  BrowserWindow: class {},
  shell: { openPath: vi.fn(), openExternal: vi.fn() },
  dialog: { showMessageBox: vi.fn() },
}));

const { DesktopShell } = await import('./desktop-shell');
const { shell: electronShell } = await import('electron');

const user = { id: 'u1', displayName: 'Ada' };
const loggedIn: ConnectionInfo = {
  state: 'logged-in',
  server: 'http://127.0.0.1:8787',
  folder: '/home/ada/Quire',
  user,
  runner: null,
};

/** A QuireApp whose watcher runs until aborted, with its event listeners at hand. */
function fakeQuire() {
  const listeners = new Map<EventName, (payload: unknown) => void>();
  const quire = {
    on: vi.fn((event: EventName, listener: (payload: unknown) => void) => {
      listeners.set(event, listener);
      return () => listeners.delete(event);
    }),
    connection: vi.fn(async () => loggedIn),
    status: vi.fn(async () => snapshot()),
    watch: vi.fn(async (options: { signal: AbortSignal; onLocked?: () => void }) => {
      options.onLocked?.();
      await new Promise((resolve) => options.signal.addEventListener('abort', resolve));
      return snapshot();
    }),
    pause: vi.fn(async () => ({ paused: true, until: null })),
    login: vi.fn(async () => ({ server: '', folder: '', user, warnings: [] })),
    close: vi.fn(async () => undefined),
  };
  const emit = (event: EventName, payload: unknown) => listeners.get(event)?.(payload);
  return { quire, emit };
}

function startShell() {
  const { quire, emit } = fakeQuire();
  const shell = new DesktopShell({
    app: quire as unknown as QuireApp,
    outDir: '/app/out/main',
    devServerUrl: undefined,
    iconDir: '/app/resources/tray',
    launchAtLogin: {
      enabled: async () => electron.loginItem.openAtLogin,
      set: async (enabled: boolean) => void (electron.loginItem.openAtLogin = enabled),
    },
  });
  shell.start(false);
  const tray = electron.trays.at(-1)!;
  return { quire, emit, shell, tray };
}

describe('DesktopShell', () => {
  it('syncs in the background and draws the tray from the status events', async () => {
    const { quire, emit, shell, tray } = startShell();
    await vi.waitFor(() => expect(quire.watch).toHaveBeenCalled());
    emit('status', snapshot({ state: 'offline', pending: 2 }));
    expect(tray.tooltip).toBe('Quire: Offline · 2 changes pending');
    expect(tray.image).toBe('/app/resources/tray/offline.png');
    emit('status', snapshot({ state: 'conflicts', conflicts: 1 }));
    expect(electron.notifications.map((note) => note.title)).toEqual(['A page has a conflict']);
    expect(tray.image).toBe('/app/resources/tray/conflicts.png');
    emit('notification', {
      kind: 'review',
      spaceId: 's1',
      number: 4,
      title: 'Cleo approved #4 Clearer setup',
      body: '',
    });
    expect(electron.notifications.map((note) => note.title)).toEqual([
      'A page has a conflict',
      'Cleo approved #4 Clearer setup',
    ]);
    await shell.stop();
    expect(quire.close).toHaveBeenCalled();
    expect(electron.handlers.size).toBe(0);
  });

  it('carries the tray menu to the application layer', async () => {
    const { quire, shell, tray } = startShell();
    await vi.waitFor(() =>
      expect(tray.menu.find((item) => item.label === 'Pause Until Resumed')).toBeDefined(),
    );
    tray.menu.find((item) => item.label === 'Pause Until Resumed')!.click!();
    expect(quire.pause).toHaveBeenCalledWith({ until: null });
    tray.menu.find((item) => item.label === 'Open at Login')!.click!();
    expect(electron.loginItem.openAtLogin).toBe(true);
    await vi.waitFor(() =>
      expect(tray.menu.find((item) => item.label === 'Open at Login')).toMatchObject({
        checked: true,
      }),
    );
    await shell.stop();
  });

  it('answers IPC from the app page only, and restarts the watcher after a login', async () => {
    const { quire, shell } = startShell();
    await vi.waitFor(() => expect(quire.watch).toHaveBeenCalledTimes(1));
    const login = electron.handlers.get('quire:command:login')!;
    const args = { server: 'http://127.0.0.1:8787', token: 't', folder: '/home/ada/Quire' };
    await expect(
      login({ senderFrame: { url: 'https://evil.example/', parent: null } }, args),
    ).rejects.toThrow(/refused login/);
    expect(quire.login).not.toHaveBeenCalled();
    const outcome = await login(
      { senderFrame: { url: 'app://quire/index.html', parent: null } },
      args,
    );
    expect(outcome).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(quire.watch).toHaveBeenCalledTimes(2));
    await shell.stop();
  });

  it('keeps launch at login and notifications as the window sets them', async () => {
    electron.loginItem.openAtLogin = false;
    const { emit, shell } = startShell();
    const port = shell.desktopSettingsPort();
    expect(await port.read()).toEqual({ launchAtLogin: false, notifications: true });
    expect(await port.update({ launchAtLogin: true, notifications: false })).toEqual({
      launchAtLogin: true,
      notifications: false,
    });
    expect(electron.loginItem.openAtLogin).toBe(true);
    // The change that notified in the first test notifies no more.
    emit('status', snapshot({ state: 'offline', pending: 2 }));
    const shown = electron.notifications.length;
    emit('status', snapshot({ state: 'conflicts', conflicts: 1 }));
    expect(electron.notifications.length).toBe(shown);
    await port.update({ notifications: true });
    emit('status', snapshot({ state: 'offline', pending: 2 }));
    emit('status', snapshot({ state: 'conflicts', conflicts: 1 }));
    expect(electron.notifications.length).toBe(shown + 1);
    await shell.stop();
  });

  it("opens paths with Electron's shell, its failure as an error", async () => {
    const { shell } = startShell();
    vi.mocked(electronShell.openPath).mockResolvedValueOnce('');
    await expect(shell.openPath('/home/ada/Quire/Acme')).resolves.toBeUndefined();
    vi.mocked(electronShell.openPath).mockResolvedValueOnce('No application');
    await expect(shell.openPath('/home/ada/Quire/a.pdf')).rejects.toThrow(/No application/);
    await shell.stop();
  });
});
