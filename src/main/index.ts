// Composition root of the desktop app: the only place (with src/main/electron/) that touches Electron.
import { app, ipcMain } from 'electron';
import { APP_NAME, commandChannel } from '../shared/contract/quire-bridge';
import type { CommandOutcome } from '../shared/contract/quire-commands';
import { createMainWindow } from './electron/create-main-window';

app.setName(APP_NAME);

ipcMain.handle(commandChannel('appInfo'), (): CommandOutcome<'appInfo'> => ({
  ok: true,
  result: { name: APP_NAME, version: app.getVersion() },
}));

void app.whenReady().then(() => {
  createMainWindow(__dirname, process.env['ELECTRON_RENDERER_URL']);
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
