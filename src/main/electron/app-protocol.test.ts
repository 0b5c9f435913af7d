import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({}));

const { CONTENT_SECURITY_POLICY, registerAppScheme, rendererFile, rendererResponse } =
  await import('./app-protocol');

describe('the app:// protocol', () => {
  it('registers a standard, secure scheme', () => {
    const protocol = { registerSchemesAsPrivileged: vi.fn() };
    registerAppScheme(protocol);
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
  });

  it('maps URLs inside the renderer folder only', () => {
    const root = path.resolve('/srv/renderer');
    expect(rendererFile(root, 'app://quire/')).toBe(path.join(root, 'index.html'));
    expect(rendererFile(root, 'app://quire/assets/a.js?x=1#y')).toBe(
      path.join(root, 'assets', 'a.js'),
    );
    // The URL parser resolves a literal `..` before we see it: it stays inside.
    expect(rendererFile(root, 'app://quire/../x.js')).toBe(path.join(root, 'x.js'));
    expect(rendererFile(root, 'app://quire/%2e%2e/%2e%2e/etc/passwd')).toBe(
      path.join(root, 'etc', 'passwd'),
    );
    for (const url of [
      'app://quire/assets/..%2f..%2fx',
      'app://quire/a%00b',
      'app://quire/%E0%A4%A',
      'app://other/index.html',
      'file:///srv/renderer/index.html',
    ]) {
      expect(rendererFile(root, url), url).toBeUndefined();
    }
  });

  it('serves files with the CSP header, 404 otherwise', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'quire-renderer-'));
    await mkdir(path.join(root, 'assets'));
    await writeFile(path.join(root, 'index.html'), '<!doctype html><title>Quire</title>');
    await writeFile(path.join(root, 'assets', 'app.js'), 'console.log(1)');
    const page = await rendererResponse(root, 'app://quire/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain('<title>Quire</title>');
    const script = await rendererResponse(root, 'app://quire/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await rendererResponse(root, 'app://quire/missing.js')).status).toBe(404);
    expect((await rendererResponse(root, 'app://quire/assets')).status).toBe(404);
  });

  it('allows no inline script, eval or remote origin', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|https?:|\*/);
  });
});
