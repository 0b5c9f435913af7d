import { BrowserWindow, type Session, type WebContents } from 'electron';
import { isAppUrl } from './app-protocol';
import { safeExternalUrl } from './safe-external-url';

export interface ContentsPolicy {
  /** electron-vite's dev server in `npm run dev`; undefined in a build. */
  readonly devServerUrl?: string;
  /** shell.openExternal, called only with a parsed https:/mailto: URL. */
  readonly openExternal: (url: string) => void;
}

/**
 * The page can never leave the app: navigation, redirects and new windows are denied; a link to
 * an https: or mailto: URL opens in the user's browser or mail client instead.
 */
export function hardenContents(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  policy: ContentsPolicy,
): void {
  const deny = (event: { preventDefault(): void }, url: string) => {
    if (isAppUrl(url, policy.devServerUrl)) return;
    event.preventDefault();
    const external = safeExternalUrl(url);
    if (external !== undefined) policy.openExternal(external);
  };
  contents.on('will-navigate', deny);
  contents.on('will-redirect', deny);
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame || !isAppUrl(event.url, policy.devServerUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const external = safeExternalUrl(url);
    if (external !== undefined) policy.openExternal(external);
    return { action: 'deny' };
  });
}

/** Camera, notifications from the page, clipboard, geolocation…: the UI needs none. */
export function denyPermissions(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

export interface MainWindowOptions extends ContentsPolicy {
  readonly preloadPath: string;
  /** What to load: app://quire/index.html, or the dev server. */
  readonly url: string;
}

/**
 * Opens the app's window, hardened (Electron's security checklist), showing it once painted. The
 * options are spelled out here, at the constructor, so electronegativity's static checks see them.
 */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: 'Quire',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      // A middle click would otherwise try to open a window (denied below anyway).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  hardenContents(window.webContents, options);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.url);
  return window;
}
