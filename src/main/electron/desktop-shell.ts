import path from 'node:path';
import {
  app,
  dialog,
  ipcMain,
  session,
  shell,
  type BrowserWindow,
  type MessageBoxOptions,
} from 'electron';
import type { DesktopSettings, DesktopSettingsUpdate } from '../../shared/contract/host';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import type { DesktopSettingsPort } from '../app/host-ports';
import type { QuireApp } from '../app/quire-app';
import { APP_URL, isAppUrl } from './app-protocol';
import { BackgroundSync } from './background-sync';
import { hideOnClose } from './desktop-lifecycle';
import { DesktopNotifier } from './desktop-notifier';
import { DesktopPreferences } from './desktop-preferences';
import type { DesktopStatus, SyncRunnerState } from './desktop-status';
import { forwardEvents, registerCommandHandlers } from './ipc-bridge';
import type { LaunchAtLogin } from './launch-at-login';
import { createMainWindow, denyPermissions } from './main-window';
import type { NotificationScreen } from './notification-for-change';
import { observeCommands } from './observe-commands';
import { QuireTray } from './quire-tray';
import type { TrayAction } from './tray-menu-model';

export interface DesktopShellOptions {
  readonly app: QuireApp;
  /** out/main: the preload and renderer are its siblings. */
  readonly outDir: string;
  /** electron-vite's dev server (`npm run dev`); undefined in a build. */
  readonly devServerUrl: string | undefined;
  readonly iconDir: string;
  readonly launchAtLogin: LaunchAtLogin;
  /** Notifications on or off; default: in memory only (tests). */
  readonly preferences?: DesktopPreferences;
}

const MINUTE = 60_000;

/** Commands after which the background sync starts again (a new connection or interval). */
const RESTARTS_WATCHER: ReadonlySet<string> = new Set(['login', 'logout', 'startDemo']);

/**
 * The desktop app around one QuireApp: the background sync, the tray, the notifications, the
 * window (created on demand, hidden on close) and the IPC bridge to it.
 */
export class DesktopShell {
  private window: BrowserWindow | undefined;
  private tray: QuireTray | undefined;
  private readonly background: BackgroundSync;
  private readonly notifier: DesktopNotifier;
  private readonly preferences: DesktopPreferences;
  private status: DesktopStatus = {
    runner: { kind: 'starting' },
    snapshot: null,
    folder: null,
    openAtLogin: false,
  };
  private quitting = false;
  private readonly cleanups: (() => void)[] = [];

  constructor(private readonly options: DesktopShellOptions) {
    this.background = new BackgroundSync(options.app, {
      onState: (runner) => void this.runnerChanged(runner),
    });
    this.preferences = options.preferences ?? new DesktopPreferences();
    this.notifier = new DesktopNotifier(
      (screen) => this.showWindow(screen),
      () => this.preferences.current().notifications,
    );
  }

  /** The window's Settings for launch at login and notifications (QuireApp's host port). */
  desktopSettingsPort(): DesktopSettingsPort {
    return {
      read: () => this.desktopSettings(),
      update: async (update: DesktopSettingsUpdate) => {
        if (update.launchAtLogin !== undefined) {
          await this.options.launchAtLogin.set(update.launchAtLogin);
          await this.refreshOpenAtLogin();
        }
        if (update.notifications !== undefined) {
          await this.preferences.update({ notifications: update.notifications });
        }
        return this.desktopSettings();
      },
    };
  }

  /** Opens a file or folder with the system (QuireApp's host port; the path is checked there). */
  async openPath(target: string): Promise<void> {
    const failure = await shell.openPath(target);
    if (failure !== '') throw new Error(`cannot open ${target}: ${failure}`);
  }

  /** Once the app is ready: IPC, permissions, tray, watcher; the window when asked to show it. */
  start(showWindow: boolean): void {
    const quire = this.options.app;
    denyPermissions(session.defaultSession);
    const handlers = observeCommands(quire, (name) => {
      if (RESTARTS_WATCHER.has(name)) {
        this.background.restart();
      }
    });
    this.cleanups.push(
      registerCommandHandlers(ipcMain, handlers, (url) => isAppUrl(url, this.options.devServerUrl)),
      forwardEvents(quire, () =>
        this.window === undefined || this.window.isDestroyed() ? [] : [this.window.webContents],
      ),
      quire.on('status', (snapshot) => this.snapshotChanged(snapshot)),
      quire.on('notification', (note) => this.notifier.review(note)),
    );
    this.tray = new QuireTray(this.options.iconDir, this.trayActions());
    void this.refreshOpenAtLogin();
    void this.preferences.read().catch(() => undefined);
    this.background.start();
    if (showWindow) this.showWindow();
  }

  /** Shows the window (creating it), on `screen` when given (the renderer's `#/<screen>`). */
  showWindow(screen?: NotificationScreen): void {
    const base = this.options.devServerUrl ?? APP_URL;
    if (this.window === undefined || this.window.isDestroyed()) {
      this.window = createMainWindow({
        preloadPath: path.join(this.options.outDir, '../preload/index.cjs'),
        url: screen === undefined ? base : `${base}#/${screen}`,
        ...(this.options.devServerUrl ? { devServerUrl: this.options.devServerUrl } : {}),
        openExternal: (url) => void shell.openExternal(url),
      });
      hideOnClose(this.window, () => this.quitting);
      return;
    }
    // Only the fragment changes: an in-page navigation, the UI keeps its state.
    if (screen !== undefined) void this.window.loadURL(`${base}#/${screen}`);
    if (this.window.isMinimized()) this.window.restore();
    this.window.show();
    this.window.focus();
  }

  /** Asks before saving a token where the OS offers no keyring (see SafeStorageSecretStore). */
  async confirmPlainText(): Promise<boolean> {
    const options: MessageBoxOptions = {
      type: 'warning',
      title: 'No keyring to protect your token',
      message: 'This system offers no keyring (Secret Service or KWallet) to encrypt your token.',
      detail:
        'Quire can still save the token, but anyone who can read your files could use it. ' +
        'Install and unlock a keyring (for example GNOME Keyring) to keep it encrypted.',
      buttons: ['Save Without Encryption', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
    };
    // Modal to the window the login came from, when it is open.
    const window = this.window?.isDestroyed() === false ? this.window : undefined;
    const choice = await (window
      ? dialog.showMessageBox(window, options)
      : dialog.showMessageBox(options));
    return choice.response === 0;
  }

  /** Stops the watcher after the request in flight, then closes the cache. */
  async stop(): Promise<void> {
    this.quitting = true;
    await this.background.stop();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    await this.options.app.close();
    this.tray?.destroy();
  }

  private trayActions(): Record<TrayAction, () => void> {
    const quire = this.options.app;
    const pauseFor = (ms: number) => () =>
      void quire.pause({ until: new Date(Date.now() + ms).toISOString() });
    return {
      'sync-now': () => void quire.syncNow({}),
      'pause-30m': pauseFor(30 * MINUTE),
      'pause-1h': pauseFor(60 * MINUTE),
      'pause-until-resumed': () => void quire.pause({ until: null }),
      resume: () => void quire.resume({}),
      'open-folder': () => {
        if (this.status.folder !== null) void shell.openPath(this.status.folder);
      },
      'open-app': () => this.showWindow(),
      'toggle-open-at-login': () =>
        void this.options.launchAtLogin
          .set(!this.status.openAtLogin)
          .catch(() => undefined)
          .then(() => this.refreshOpenAtLogin()),
      quit: () => app.quit(),
    };
  }

  private async desktopSettings(): Promise<DesktopSettings> {
    const launchAtLogin = await this.options.launchAtLogin.enabled();
    return { launchAtLogin, notifications: (await this.preferences.read()).notifications };
  }

  private async refreshOpenAtLogin(): Promise<void> {
    const openAtLogin = await this.options.launchAtLogin.enabled().catch(() => false);
    this.update({ openAtLogin });
  }

  private async runnerChanged(runner: SyncRunnerState): Promise<void> {
    this.update({ runner });
    const connection = await this.options.app.connection({}).catch(() => undefined);
    const folder =
      connection !== undefined && connection.state !== 'new' ? connection.folder : null;
    // Another process syncs: its progress is in the cache; show what it last recorded.
    const snapshot =
      runner.kind === 'other-process'
        ? await this.options.app.status({}).catch(() => null)
        : this.status.snapshot;
    this.update({ folder, snapshot });
  }

  private snapshotChanged(snapshot: SyncStatusSnapshot): void {
    this.notifier.update(snapshot);
    this.update({ snapshot });
  }

  private update(change: Partial<DesktopStatus>): void {
    this.status = { ...this.status, ...change };
    this.tray?.update(this.status);
  }
}
