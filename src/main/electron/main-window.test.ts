import { describe, expect, it, vi } from 'vitest';

const windows = vi.hoisted(() => [] as { options: unknown; loaded: string[] }[]);

vi.mock('electron', () => ({
  BrowserWindow: class {
    readonly loaded: string[] = [];
    readonly webContents = { on: () => undefined, setWindowOpenHandler: () => undefined };
    constructor(readonly options: unknown) {
      windows.push(this);
    }
    once() {}
    async loadURL(url: string) {
      this.loaded.push(url);
    }
  },
}));

const { createMainWindow, denyPermissions, hardenContents } = await import('./main-window');
const { safeExternalUrl } = await import('./safe-external-url');

type Handler = (
  event: { preventDefault(): void; isMainFrame?: boolean; url?: string },
  url: string,
) => void;

function fakeContents() {
  const handlers = new Map<string, Handler>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  return {
    handlers,
    open: (url: string) => openHandler!({ url }),
    on: vi.fn((name: string, handler: Handler) => handlers.set(name, handler)),
    setWindowOpenHandler: vi.fn((handler: typeof openHandler) => (openHandler = handler)),
  };
}

function event(extra: { isMainFrame?: boolean; url?: string } = {}) {
  return { preventDefault: vi.fn(), ...extra };
}

describe('createMainWindow', () => {
  it('turns on every isolation of the security checklist and loads the app', () => {
    createMainWindow({
      preloadPath: '/app/out/preload/index.cjs',
      url: 'app://quire/index.html',
      openExternal: vi.fn(),
    });
    const [window] = windows;
    expect(window!.loaded).toEqual(['app://quire/index.html']);
    const prefs = (window!.options as { webPreferences: Record<string, unknown> }).webPreferences;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
    });
  });
});

describe('hardenContents', () => {
  function setup() {
    const contents = fakeContents();
    const openExternal = vi.fn();
    hardenContents(contents as never, { openExternal });
    return { contents, openExternal };
  }

  it('denies navigation away from the app, opening only safe links outside', () => {
    const { contents, openExternal } = setup();
    const navigate = contents.handlers.get('will-navigate')!;
    const inApp = event();
    navigate(inApp, 'app://quire/index.html#/conflicts');
    expect(inApp.preventDefault).not.toHaveBeenCalled();
    for (const url of ['https://example.com/doc', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const away = event();
      navigate(away, url);
      expect(away.preventDefault).toHaveBeenCalled();
    }
    expect(openExternal.mock.calls).toEqual([['https://example.com/doc']]);
  });

  it('denies redirects, subframe navigation and webviews', () => {
    const { contents } = setup();
    const redirect = event();
    contents.handlers.get('will-redirect')!(redirect, 'https://evil.example/');
    expect(redirect.preventDefault).toHaveBeenCalled();
    const subframe = event({ isMainFrame: false, url: 'app://quire/index.html' });
    contents.handlers.get('will-frame-navigate')!(subframe, '');
    expect(subframe.preventDefault).toHaveBeenCalled();
    const webview = event();
    contents.handlers.get('will-attach-webview')!(webview, '');
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('never opens a window; safe links go to the browser', () => {
    const { contents, openExternal } = setup();
    expect(contents.open('https://example.com/')).toEqual({ action: 'deny' });
    expect(contents.open('mailto:team@example.com')).toEqual({ action: 'deny' });
    expect(contents.open('smb://host/share')).toEqual({ action: 'deny' });
    expect(contents.open('app://quire/index.html')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([
      ['https://example.com/'],
      ['mailto:team@example.com'],
    ]);
  });
});

describe('safeExternalUrl', () => {
  it('passes parsed https: and mailto: URLs only', () => {
    expect(safeExternalUrl('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(safeExternalUrl('mailto:a@example.com')).toBe('mailto:a@example.com');
    for (const url of [
      'http://example.com/',
      'file:///C:/Windows/calc.exe',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'ms-msdt:/id PCWDiagnostic',
      'https://user:pw@example.com/',
      'not a url',
      '',
    ]) {
      expect(safeExternalUrl(url)).toBeUndefined();
    }
  });
});

describe('denyPermissions', () => {
  it('answers no to every request and check', () => {
    let request:
      ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    denyPermissions({
      setPermissionRequestHandler: (handler: typeof request) => (request = handler),
      setPermissionCheckHandler: (handler: typeof check) => (check = handler),
    } as never);
    const callback = vi.fn();
    request!({}, 'media', callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect(check!()).toBe(false);
  });
});
