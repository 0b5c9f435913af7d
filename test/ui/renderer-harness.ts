import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import type { CannedBridge } from './canned-quire-data';

export const ROOT = resolve(import.meta.dirname, '../..');
export const RENDERER_DIR = join(ROOT, 'out/renderer');
export const SCREENSHOT_DIR = join(ROOT, 'test-results/ui');
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Builds the app as a user gets it (`electron-vite build`), for out/renderer/index.html. Under
 * vitest the global setup (test/support/app-build-setup.ts) has built it once for every test
 * file: rebuilding here would rewrite out/ while other files read it.
 */
export function buildRenderer(): void {
  if (process.env['VITEST'] !== undefined) return;
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`electron-vite build failed:\n${result.stderr}`);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves the built renderer on 127.0.0.1 (module scripts do not load from file://). */
export async function serveRenderer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const file = normalize(join(RENDERER_DIR, path === '/' ? 'index.html' : path));
    if (!file.startsWith(RENDERER_DIR)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/**
 * The page script that stands in for the preload: `window.quire` answers from `canned`, records
 * each call in `__quireCalls`, and `__emit(event, payload)` fires an event. `__xss(n)` records a
 * payload that ran (in any frame: init scripts run in every frame).
 */
export function fakeBridgeScript(canned: CannedBridge): string {
  return `(() => {
  const canned = ${JSON.stringify(canned)};
  const listeners = {};
  window.__xssHits = [];
  window.__xss = (n) => { (window.top || window).__xssHits.push(n); };
  if (window !== window.top) return;
  window.__quireCalls = [];
  window.__emit = (event, payload) => (listeners[event] || []).slice().forEach((l) => l(payload));
  window.quire = {
    invoke: async (name, args) => {
      window.__quireCalls.push({ name, args });
      if (Object.hasOwn(canned.errors, name)) return { ok: false, error: canned.errors[name] };
      if (Object.hasOwn(canned.results, name)) return { ok: true, result: canned.results[name] };
      return { ok: false, error: { kind: 'unexpected', message: 'Not canned: ' + name } };
    },
    on: (event, listener) => {
      (listeners[event] = listeners[event] || []).push(listener);
      return () => { listeners[event] = listeners[event].filter((l) => l !== listener); };
    },
  };
})();`;
}

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

let axeSource: string | null = null;

/** axe-core's serious and critical findings on the page as it is now. */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  axeSource ??= await readFile(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate('typeof window.axe !== "undefined"')))
    await page.addScriptTag({ content: axeSource });
  return (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`)) as AxeFinding[];
}

/** Elements and attributes that mean server text became markup. */
export const INJECTED_MARKUP =
  '#root img, #root iframe, #root svg, #root object, #root embed, #root script, #root video, ' +
  '#root math, #root details, #root [onerror], #root [onload], #root a[href^="javascript:" i], ' +
  '#root a[href^="data:" i]';
