import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { App } from 'electron';

/** The flag a login start passes: the app starts in the tray, without its window. */
export const HIDDEN_FLAG = '--hidden';

/** Where the setting lives: Electron's login items (macOS, Windows) or an XDG autostart entry. */
export interface LaunchAtLogin {
  enabled(): Promise<boolean>;
  set(enabled: boolean): Promise<void>;
}

/**
 * Launch at login, per OS: Electron's login items on macOS and Windows; on Linux (which Electron's
 * API does not cover) a `~/.config/autostart/quire.desktop` entry, the freedesktop.org way.
 */
export function launchAtLogin(
  app: Pick<App, 'getLoginItemSettings' | 'setLoginItemSettings'>,
  options: {
    platform?: NodeJS.Platform;
    env?: NodeJS.ProcessEnv;
    execPath?: string;
  } = {},
): LaunchAtLogin {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    return {
      enabled: async () => app.getLoginItemSettings({ args: [HIDDEN_FLAG] }).openAtLogin,
      set: async (enabled) =>
        app.setLoginItemSettings({ openAtLogin: enabled, openAsHidden: true, args: [HIDDEN_FLAG] }),
    };
  }
  const env = options.env ?? process.env;
  const configHome = env['XDG_CONFIG_HOME'] || path.join(homedir(), '.config');
  const entry = path.join(configHome, 'autostart', 'quire.desktop');
  // An AppImage runs from a temporary mount: its own path is in APPIMAGE.
  const exec = env['APPIMAGE'] || options.execPath || process.execPath;
  return {
    enabled: async () => (await stat(entry).catch(() => undefined))?.isFile() === true,
    set: async (enabled) => {
      if (!enabled) return rm(entry, { force: true });
      await mkdir(path.dirname(entry), { recursive: true });
      await writeFile(entry, autostartEntry(exec));
    },
  };
}

/** The XDG autostart entry that starts Quire in the tray. */
export function autostartEntry(exec: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Quire',
    'Comment=Keeps your documentation folder in sync',
    `Exec=${desktopExecArgument(exec)} ${HIDDEN_FLAG}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** A path as one argument of a desktop entry's Exec key (quoted, with its escapes). */
function desktopExecArgument(value: string): string {
  return `"${value.replace(/[\\"`$]/g, (char) => `\\${char}`)}"`;
}
