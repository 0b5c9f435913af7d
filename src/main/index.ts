// Composition root of the desktop app: one QuireApp (the CLI's engine, home and drain lock, the
// token in safeStorage), its watcher in the background, the tray, and the hardened window; the
// window's host ports (opener, demo server, desktop settings) wired here.
import path from 'node:path';
import { app, protocol } from 'electron';
import { demoLauncher, type DemoLauncher } from '../demo/demo-launcher';
import { APP_NAME } from '../shared/contract/quire-bridge';
import { QuireApp } from './app/quire-app';
import { quireHome, resolveQuireHomeDir } from './config/quire-home';
import { registerAppScheme, serveRenderer } from './electron/app-protocol';
import { createDesktopServices } from './electron/create-desktop-services';
import { claimSingleInstance, finishBeforeQuit } from './electron/desktop-lifecycle';
import { DesktopPreferences } from './electron/desktop-preferences';
import { DesktopShell } from './electron/desktop-shell';
import { HIDDEN_FLAG, launchAtLogin } from './electron/launch-at-login';

const DESKTOP_RUNNER = 'Quire app';

app.setName(APP_NAME);
// Before ready: app:// is a standard, secure scheme with its own origin.
registerAppScheme(protocol);

let shell: DesktopShell | undefined;

if (claimSingleInstance(app, () => shell?.showWindow())) {
  const home = quireHome(resolveQuireHomeDir(undefined, process.env));
  const services = createDesktopServices(home, app.getVersion(), () =>
    shell === undefined ? Promise.resolve(false) : shell.confirmPlainText(),
  );
  // The bundle has no TypeScript loader: the demo server's CPU workers run the compiled entry
  // built beside this file (electron.vite.config.ts).
  const demo = demoLauncher(path.join(app.getPath('userData'), 'demo'), {
    cpuWorkerFile: new URL('./cpu-worker.js', import.meta.url).href,
  });
  const quire = new QuireApp({
    services,
    appInfo: { name: APP_NAME, version: app.getVersion() },
    env: process.env,
    runnerNames: { sync: DESKTOP_RUNNER, watch: DESKTOP_RUNNER },
    host: {
      openPath: (target) => (shell ? shell.openPath(target) : Promise.reject(notReady())),
      startDemoServer: () => demo.start(),
      desktopSettings: {
        read: () => (shell ? shell.desktopSettingsPort().read() : Promise.reject(notReady())),
        update: (update) =>
          shell ? shell.desktopSettingsPort().update(update) : Promise.reject(notReady()),
      },
      plainTextSecrets: () => services.plainTextSecrets(),
    },
  });
  const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
  shell = new DesktopShell({
    app: quire,
    outDir: __dirname,
    devServerUrl,
    iconDir: app.isPackaged
      ? path.join(process.resourcesPath, 'tray')
      : path.join(app.getAppPath(), 'resources', 'tray'),
    launchAtLogin: launchAtLogin(app),
    preferences: DesktopPreferences.in(app.getPath('userData')),
  });
  finishBeforeQuit(app, async () => {
    await shell?.stop();
    await demo.close();
  });

  void app.whenReady().then(() => {
    serveRenderer(protocol, path.join(__dirname, '../renderer'));
    // Started at login: the tray only; launched by the user: the window too.
    const atLogin =
      process.argv.includes(HIDDEN_FLAG) || app.getLoginItemSettings().wasOpenedAtLogin === true;
    // A home that tried the demo last time syncs with it again: its server starts first.
    void resumeDemo(quire, demo).finally(() => shell?.start(!atLogin));
  });

  app.on('activate', () => shell?.showWindow());
  // The tray keeps the app (and the sync) running with no window.
  app.on('window-all-closed', () => undefined);
}

function notReady(): Error {
  return new Error('the app is still starting');
}

async function resumeDemo(quire: QuireApp, demo: DemoLauncher): Promise<void> {
  const connection = await quire.connection({}).catch(() => undefined);
  if (connection === undefined || connection.state === 'new') return;
  if (await demo.serves(connection.server)) await demo.start().catch(() => undefined);
}
