/**
 * The UI as a user gets it, end to end: `quire ui` (bin/quire.mjs, the real engine) against the
 * real server, driven in Chromium. Each journey checks what the page shows and what it did to the
 * folder and the server. The journeys run in order over one Quire home: the first run signs in,
 * the last one has its token revoked. Every screen is captured light and dark
 * (test-results/ui-journeys), checked with axe-core, and shows hostile titles that must stay text.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangeRequestContentChange } from '@gitbook/api';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCommands } from '../../src/server/admin/admin-commands';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { eventually } from '../ui-host/ui-host-kit';
import { CHROMIUM, buildRenderer } from '../ui/renderer-harness';
import { XSS_PAYLOADS } from '../ui/xss-payloads';
import {
  ARCHIVE,
  ARCHIVE_PAGES,
  GUIDE,
  HOSTILE_SPACE,
  JOURNEY_TOKENS,
  journeyFixture,
} from './journey-fixture';
import {
  JOURNEY_INIT_SCRIPT,
  JOURNEY_SCREENSHOTS,
  captureScreen,
  fileText,
  openScreen,
  pushedMarkdown,
  pushedPageIds,
  startQuireUi,
  takePillStates,
  waitForHeader,
  xssHits,
  type QuireUiProcess,
  type ScreenCheck,
} from './journey-kit';

const available = existsSync(CHROMIUM);
const TOKEN = JOURNEY_TOKENS.ada;

let t: TestServer;
let dir: string;
let mirror: string;
let browser: Browser;
let ui: QuireUiProcess;
let page: Page;
const checks: ScreenCheck = { screenshots: [], axe: [], injected: [] };

const guideFile = (name: string) => join(mirror, 'Northwind', 'Guide', name);

/** Changes a space on the server as another user would: a change request, merged. */
async function remoteEdit(spaceId: string, changes: ChangeRequestContentChange[]): Promise<void> {
  const api = t.client(JOURNEY_TOKENS.bob).spaces;
  const { data: cr } = await api.createChangeRequest(spaceId, { subject: 'Remote edit' });
  await api.updateChangeRequestContent(spaceId, cr.id, { changes }, { compat: false });
  await api.mergeChangeRequest(spaceId, cr.id);
}

async function syncNow(): Promise<void> {
  await page.getByRole('button', { name: 'Sync now' }).click();
}

describe.skipIf(!available)('UI journeys against quire ui and the real server', () => {
  beforeAll(async () => {
    buildRenderer();
    mkdirSync(JOURNEY_SCREENSHOTS, { recursive: true });
    t = await startTestServer({ fixture: journeyFixture() });
    dir = mkdtempSync(join(tmpdir(), 'quire-ui-journeys-'));
    mirror = join(dir, 'mirror');
    ui = await startQuireUi(join(dir, 'home'), dir);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox'],
    });
    // The CSP is bypassed so that server text turned into markup would run: the journeys check
    // the rendering itself, not only the CSP behind it.
    const context = await browser.newContext({
      bypassCSP: true,
      viewport: { width: 1280, height: 860 },
    });
    await context.addInitScript({ content: JOURNEY_INIT_SCRIPT });
    page = await context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    const code = await ui?.stop();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(0);
  }, 30_000);

  it('first run: says why a server or a token fails, then signs in and mirrors the spaces', async () => {
    await page.goto(ui.url);
    await page.getByRole('heading', { name: 'Connect Quire to your workspace' }).waitFor();
    await captureScreen(page, 'first-run', checks);

    await page.getByLabel('Server address').fill('http://127.0.0.1:9');
    await page.getByLabel('Access token').fill(TOKEN);
    await page.getByLabel('Folder').fill(mirror);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('#server-error').waitFor();
    expect(await page.locator('#server-error').textContent()).toMatch(
      /^The server cannot be reached\. Check the address and your connection\./,
    );
    await captureScreen(page, 'first-run-unreachable', checks);

    await page.getByLabel('Server address').fill(t.url);
    await page.getByLabel('Access token').fill('tok-not-a-real-token');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('#token-error').waitFor();
    expect(await page.locator('#token-error').textContent()).toBe(
      'The server rejected this token. Check that it is complete and not revoked.',
    );
    expect(await page.locator('#server-error').count()).toBe(0);
    await captureScreen(page, 'first-run-token-rejected', checks);
    expect(existsSync(mirror)).toBe(false);

    await page.getByLabel('Access token').fill(TOKEN);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
    await waitForHeader(page, 'Up to date');
    for (const title of ['Guide', 'Archive'])
      await page.getByRole('switch', { name: `Sync ${title}` }).waitFor();
    await page.getByRole('region', { name: 'Northwind' }).getByText('Synced').first().waitFor();
    expect(fileText(guideFile('setup.md'))).toContain('Two.');
    await captureScreen(page, 'spaces', checks);
  });
});
