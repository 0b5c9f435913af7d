/**
 * The UI as a user gets it, end to end: `quire ui` (bin/quire.mjs, the real engine) against the
 * real server, driven in Chromium. Each journey checks what the page shows and what it did to the
 * folder and the server. The journeys run in order over one Quire home: the first run signs in,
 * the last one has its token revoked. Every screen is captured light and dark
 * (test-results/ui-journeys), checked with axe-core, and shows hostile titles that must stay text.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
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

/** A loopback port nothing listens on (one just closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
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

    await page.getByLabel('Server address').fill(`http://127.0.0.1:${await closedPort()}`);
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

  it('an edit saved on disk: the header shows syncing, then up to date, and the server has it', async () => {
    await takePillStates(page);
    const edited = '# Setup\n\nOne.\n\nTwo, edited on disk.\n\nThree.\n';
    writeFileSync(guideFile('setup.md'), edited);
    await eventually('the edit on the server', async () =>
      (await pushedMarkdown(t, TOKEN, GUIDE, 'p-setup'))?.includes('Two, edited on disk.')
        ? true
        : undefined,
    );
    await waitForHeader(page, 'Up to date');
    expect(await takePillStates(page)).toEqual(expect.arrayContaining(['Syncing…', 'Up to date']));
    await openScreen(page, 'Activity');
    await page.getByText(/setup\.md|Setup/).first().waitFor();
    await captureScreen(page, 'activity', checks);
  });

  it('pause and resume from the header: edits wait while paused, and go out on resume', async () => {
    await page.getByRole('button', { name: 'Pause…' }).click();
    await page.getByRole('dialog', { name: 'Pause sending your edits' }).waitFor();
    await captureScreen(page, 'pause-dialog', checks);
    await page.getByRole('button', { name: 'Until I resume' }).click();
    await waitForHeader(page, 'Paused');
    const edited = '# Usage\n\nFirst.\n\nSecond, while paused.\n\nThird.\n';
    writeFileSync(guideFile('usage.md'), edited);
    await page.getByText('1 change waiting').waitFor();
    await captureScreen(page, 'paused', checks);
    expect(await pushedMarkdown(t, TOKEN, GUIDE, 'p-usage')).not.toContain('while paused');

    await page.getByRole('button', { name: 'Resume' }).click();
    await waitForHeader(page, 'Up to date');
    await page.getByText('Nothing waiting').waitFor();
    expect(await pushedMarkdown(t, TOKEN, GUIDE, 'p-usage')).toBe(edited);
  });

  it('selective sync: a space turned off is left alone, turned on again catches up', async () => {
    await openScreen(page, 'Spaces');
    const archive = page.getByRole('switch', { name: 'Sync Archive' });
    await archive.click();
    await expect.poll(() => archive.getAttribute('aria-checked')).toBe('false');
    const row = page.getByRole('row').filter({ has: archive });
    await row.getByText('Not synced').waitFor();
    await captureScreen(page, 'spaces-archive-off', checks);

    const note = join(mirror, 'Northwind', 'Archive', 'old-note-2.md');
    const before = fileText(note);
    expect(before).toContain('Kept for the record.');
    await remoteEdit(ARCHIVE, [
      {
        operation: 'update_page',
        page: ARCHIVE_PAGES[1],
        document: { markdown: '# Old note 2\n\nRewritten on the server.\n' },
      },
    ]);
    await takePillStates(page);
    await syncNow();
    await waitForHeader(page, 'Up to date');
    await eventually('a sync to run', async () =>
      (await takePillStates(page)).includes('Syncing…') ? true : undefined,
    );
    await waitForHeader(page, 'Up to date');
    expect(fileText(note)).toBe(before);

    await archive.click();
    await expect.poll(() => archive.getAttribute('aria-checked')).toBe('true');
    await syncNow();
    await eventually('the space to catch up', () =>
      fileText(note)?.includes('Rewritten on the server.') ? true : undefined,
    );
    await row.getByText('Synced').waitFor();
  });
});
