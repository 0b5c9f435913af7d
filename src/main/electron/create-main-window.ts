import { join } from 'node:path';
import { BrowserWindow } from 'electron';

/** Opens the main window with the hardened defaults from the security checklist. */
export function createMainWindow(outDir: string, devServerUrl: string | undefined): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    show: false,
    webPreferences: {
      preload: join(outDir, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  // Never let content navigate the privileged window or open new ones.
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  if (devServerUrl) void window.loadURL(devServerUrl);
  else void window.loadFile(join(outDir, '../renderer/index.html'));
  return window;
}
