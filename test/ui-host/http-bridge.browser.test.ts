import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppEvents } from '../../src/main/app/app-events';
import { startUiHost, type UiHost } from '../../src/main/ui-host/ui-host';
import { COMMAND_NAMES, type QuireCommandHandlers } from '../../src/shared/contract/quire-commands';
import type { SyncStatusSnapshot } from '../../src/shared/contract/sync-status';
import { eventually } from './ui-host-kit';

/**
 * The renderer's transport in a real browser: a page served by the UI host under its CSP gets
 * `getBridge()`, which (no preload here) is the HTTP bridge keyed by the URL's secret: commands
 * over fetch, events over EventSource, the secret gone from the address bar and kept for a reload.
 */
const CHROMIUM = '/usr/bin/chromium';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const PAGE_SCRIPT = `
import { getBridge } from './src/renderer/src/bridge/get-bridge';
const out = document.getElementById('out');
const bridge = getBridge();
bridge.on('status', (status) => { out.dataset.status = status.state; });
void bridge.invoke('appInfo', {}).then((outcome) => {
  out.dataset.info = JSON.stringify(outcome);
  out.dataset.hash = location.hash;
});
`;

let dir: string;
let host: UiHost;
let browser: Browser;
const events = new AppEvents();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-http-bridge-'));
  const bundle = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  });
  writeFileSync(join(dir, 'page.js'), bundle.outputFiles[0]!.contents);
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>t</title><div id="out"></div><script type="module" src="/page.js"></script>',
  );
  const handlers = Object.fromEntries(
    COMMAND_NAMES.map((name) => [name, () => Promise.reject(new Error('not faked'))]),
  ) as unknown as QuireCommandHandlers;
  host = await startUiHost({
    app: {
      ...handlers,
      appInfo: async () => ({ name: 'Quire', version: 'browser' }),
      on: events.on.bind(events),
    },
    rendererDir: dir,
  });
  if (existsSync(CHROMIUM)) {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox'],
    });
  }
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!existsSync(CHROMIUM))('the HTTP bridge in Chromium', () => {
  it('runs commands and receives events, and keeps the secret across a reload', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('404'))
        errors.push(message.text());
    });
    // The browser asks for /favicon.ico, which this page has none of; nothing else may fail.
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) {
        errors.push(`${response.status()} ${response.url()}`);
      }
    });
    await page.goto(host.url);
    const out = page.locator('#out');
    await expect
      .poll(() => out.getAttribute('data-info'))
      .toBe(JSON.stringify({ ok: true, result: { name: 'Quire', version: 'browser' } }));
    // The secret left the address bar (and the history) once read.
    expect(await out.getAttribute('data-hash')).toBe('');
    expect(page.url()).toBe(`http://127.0.0.1:${host.port}/`);

    await eventually('the event stream', () => (events.listened('status') ? true : undefined));
    events.emit('status', { state: 'idle' } as SyncStatusSnapshot);
    await expect.poll(() => out.getAttribute('data-status')).toBe('idle');

    await page.reload();
    await expect.poll(() => page.locator('#out').getAttribute('data-info')).toContain('"ok":true');
    expect(errors).toEqual([]);
    await page.close();
  });
});
