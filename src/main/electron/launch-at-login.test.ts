import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { autostartEntry, launchAtLogin } from './launch-at-login';

describe('launchAtLogin', () => {
  it('uses the login items on macOS and Windows, starting hidden', async () => {
    let settings = { openAtLogin: false };
    const app = {
      getLoginItemSettings: vi.fn(() => settings),
      setLoginItemSettings: vi.fn((next: { openAtLogin: boolean }) => (settings = next)),
    };
    const login = launchAtLogin(app as never, { platform: 'win32' });
    expect(await login.enabled()).toBe(false);
    await login.set(true);
    expect(app.setLoginItemSettings).toHaveBeenCalledWith({
      openAtLogin: true,
      openAsHidden: true,
      args: ['--hidden'],
    });
    expect(await login.enabled()).toBe(true);
  });

  it('writes and removes an XDG autostart entry on Linux', async () => {
    const config = await mkdtemp(path.join(tmpdir(), 'quire-xdg-'));
    const app = { getLoginItemSettings: vi.fn(), setLoginItemSettings: vi.fn() };
    const login = launchAtLogin(app as never, {
      platform: 'linux',
      env: { XDG_CONFIG_HOME: config, APPIMAGE: '/home/ada/Apps/Quire.AppImage' },
    });
    expect(await login.enabled()).toBe(false);
    await login.set(true);
    expect(await login.enabled()).toBe(true);
    const entry = await readFile(path.join(config, 'autostart', 'quire.desktop'), 'utf8');
    expect(entry).toContain('Exec="/home/ada/Apps/Quire.AppImage" --hidden');
    await login.set(false);
    expect(await login.enabled()).toBe(false);
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it('quotes the executable for the Exec key', () => {
    expect(autostartEntry('/opt/My "Apps"/$quire')).toContain(
      'Exec="/opt/My \\"Apps\\"/\\$quire" --hidden',
    );
  });
});
