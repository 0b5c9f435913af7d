/**
 * The UI as a user gets it, end to end: `quire ui` (bin/quire.mjs, the real engine) against the
 * real server, driven in Chromium. Each journey checks what the page shows and what it did to the
 * folder and the server. The journeys run in order over one Quire home: the first run signs in,
 * the last one has its token revoked. Every screen is captured light and dark
 * (test-results/ui-journeys), checked with axe-core, and shows hostile titles that must stay text.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangeRequestContentChange } from '@gitbook/api';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCommands } from '../../src/server/admin/admin-commands';
import { startTestServer, type TestServer } from '../support/start-test-server';
import type { SyncStatusSnapshot } from '../../src/shared/contract/sync-status';
import { eventually, invokeOverHttp, parseUiUrl } from '../ui-host/ui-host-kit';
import { CHROMIUM, buildRenderer } from '../ui/renderer-harness';
import { XSS_PAYLOADS } from '../ui/xss-payloads';
import {
  ARCHIVE,
  ARCHIVE_PAGES,
  GUIDE,
  HOSTILE_MARKDOWN,
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
const pageErrors: string[] = [];

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

/** The one file under `root` whose text matches. */
function findFile(root: string, matches: (text: string) => boolean): string {
  const found = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((name) => join(root, name))
    .filter((path) => path.endsWith('.md') && matches(readFileSync(path, 'utf8')));
  if (found.length !== 1) throw new Error(`expected one matching file, found ${found.join(', ')}`);
  return found[0]!;
}

/** Runs `act`, then waits until a sync that started after it finished (the engine's word). */
async function syncedOnce(act: () => Promise<void>): Promise<void> {
  const { origin, secret } = parseUiUrl(ui.url);
  const lastSync = async () => {
    const status = await invokeOverHttp(origin, secret, 'status');
    return (status.result as SyncStatusSnapshot).lastSync ?? '';
  };
  const before = await lastSync();
  await act();
  await eventually(
    'a sync to finish',
    async () => ((await lastSync()) > before ? true : undefined),
    20_000,
  );
}

async function syncNow(): Promise<void> {
  await page.getByRole('button', { name: 'Sync now' }).click();
}

describe.skipIf(!available)(
  'UI journeys against quire ui and the real server',
  { timeout: 60_000 },
  () => {
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
      // Shorter than the test's timeout, so a failure names the step that waited.
      page.setDefaultTimeout(15_000);
      page.on('pageerror', (error) => pageErrors.push(error.message));
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
      expect(await takePillStates(page)).toEqual(
        expect.arrayContaining(['Syncing…', 'Up to date']),
      );
      await openScreen(page, 'Activity');
      await page
        .getByText(/setup\.md|Setup/)
        .first()
        .waitFor();
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
      await syncedOnce(() => syncNow());
      expect(fileText(note)).toBe(before);

      await archive.click();
      await expect.poll(() => archive.getAttribute('aria-checked')).toBe('true');
      await syncNow();
      await eventually('the space to catch up', () =>
        fileText(note)?.includes('Rewritten on the server.') ? true : undefined,
      );
      await row.getByText('Synced').waitFor();
    });

    it('conflicts made through the API, resolved three ways; the file changes only on a decision', async () => {
      const hostileFile = findFile(mirror, (text) => text.includes('Hostile page.'));
      const hostileMine = readFileSync(hostileFile, 'utf8').replace(
        'Two.',
        `Two ${XSS_PAYLOADS[1]}`,
      );
      writeFileSync(hostileFile, hostileMine);
      await eventually('the hostile edit on the server', async () =>
        (await pushedMarkdown(t, TOKEN, HOSTILE_SPACE, 'p-hostile'))?.includes(XSS_PAYLOADS[1]!)
          ? true
          : undefined,
      );
      // The same lines edited on the server meanwhile, as another user.
      await remoteEdit(GUIDE, [
        {
          operation: 'update_page',
          page: 'p-setup',
          document: { markdown: '# Setup\n\nOne.\n\nTwo, theirs.\n\nThree.\n' },
        },
        {
          operation: 'update_page',
          page: 'p-usage',
          document: { markdown: '# Usage\n\nFirst.\n\nSecond, theirs.\n\nThird.\n' },
        },
      ]);
      const hostileTheirs = HOSTILE_MARKDOWN.replace('Two.', `Two ${XSS_PAYLOADS[6]}`);
      await remoteEdit(HOSTILE_SPACE, [
        { operation: 'update_page', page: 'p-hostile', document: { markdown: hostileTheirs } },
      ]);
      const setupMine = fileText(guideFile('setup.md'));
      const usageMine = fileText(guideFile('usage.md'));
      await syncNow();
      await waitForHeader(page, '3 conflicts');
      await openScreen(page, 'Conflicts');
      await page.getByRole('link', { name: 'Setup' }).waitFor();
      await captureScreen(page, 'conflicts', checks);
      // Nothing was written over: the files are still this computer's.
      expect(fileText(guideFile('setup.md'))).toBe(setupMine);
      expect(fileText(guideFile('usage.md'))).toBe(usageMine);
      expect(readFileSync(hostileFile, 'utf8')).toBe(hostileMine);

      await page.getByRole('link', { name: 'Setup' }).click();
      await page.getByRole('heading', { level: 1, name: 'Setup' }).waitFor();
      await captureScreen(page, 'conflict', checks);
      await page.getByRole('button', { name: 'Keep mine' }).click();
      await page.getByRole('heading', { level: 1, name: 'Conflicts' }).waitFor();
      await page.getByRole('link', { name: 'Setup' }).waitFor({ state: 'detached' });
      expect(fileText(guideFile('setup.md'))).toBe(setupMine);

      await page.getByRole('link', { name: 'Usage' }).click();
      await page.getByRole('button', { name: 'Take theirs' }).click();
      await page.getByRole('heading', { level: 1, name: 'Conflicts' }).waitFor();
      await page.getByRole('link', { name: 'Usage' }).waitFor({ state: 'detached' });
      expect(fileText(guideFile('usage.md'))).toContain('Second, theirs.');
      expect(fileText(guideFile('usage.md'))).not.toContain('while paused');

      await page.getByRole('link', { name: XSS_PAYLOADS[5]! }).click();
      await page.getByRole('button', { name: 'Edit merged' }).click();
      const editor = page.getByRole('textbox', { name: 'Merged version' });
      await editor.waitFor();
      expect(await editor.inputValue()).toContain('<<<<<<< mine (this computer)');
      await captureScreen(page, 'conflict-edit-merged', checks);
      const merged = hostileMine.replace(`Two ${XSS_PAYLOADS[1]}`, 'Two, agreed on.');
      await editor.fill(merged);
      await page.getByRole('button', { name: 'Save merged version' }).click();
      await page.getByRole('heading', { name: 'No conflicts' }).waitFor();
      expect(readFileSync(hostileFile, 'utf8')).toBe(merged);
      await captureScreen(page, 'conflicts-none', checks);
      await waitForHeader(page, 'Up to date');
      await eventually('the merged text on the server', async () =>
        (await pushedMarkdown(t, TOKEN, HOSTILE_SPACE, 'p-hostile'))?.includes('Two, agreed on.')
          ? true
          : undefined,
      );
    });

    it('the mass-delete guard: nothing is deleted on the server until confirmed on Problems', async () => {
      const doomed = ARCHIVE_PAGES.slice(1);
      for (const n of [2, 3, 4, 5])
        unlinkSync(join(mirror, 'Northwind', 'Archive', `old-note-${n}.md`));
      await waitForHeader(page, '1 problem');
      await openScreen(page, 'Problems');
      const confirm = page.getByRole('button', { name: 'Confirm the deletions…' });
      await confirm.waitFor();
      await captureScreen(page, 'problems-mass-delete', checks);
      // Nothing was sent: no working change request exists for the space.
      expect(await pushedPageIds(t, TOKEN, ARCHIVE)).toEqual([]);

      await confirm.click();
      await page.getByRole('dialog', { name: 'Delete these pages on the server?' }).waitFor();
      await captureScreen(page, 'problems-confirm-deletes', checks);
      await page.getByRole('button', { name: 'Delete on the server' }).click();
      await page.getByRole('heading', { name: 'Nothing is stuck' }).waitFor();
      await eventually('the deletions on the server', async () => {
        const ids = await pushedPageIds(t, TOKEN, ARCHIVE);
        return ids.length > 0 && doomed.every((id) => !ids.includes(id)) ? ids : undefined;
      });
      await waitForHeader(page, 'Up to date');
      await captureScreen(page, 'problems-none', checks);
      await openScreen(page, 'Settings');
      await captureScreen(page, 'settings', checks);
    });

    it('a token revoked on the server: the header says to sign in again, and signing in resumes', async () => {
      new AdminCommands(t.db, { now: () => new Date() }).revokeToken(TOKEN);
      await syncNow();
      await waitForHeader(page, 'Token rejected');
      await page
        .getByText('The server rejected the token: nothing syncs until you sign in again.')
        .waitFor();
      await captureScreen(page, 'token-rejected', checks);

      await page.getByRole('link', { name: 'Sign in again' }).click();
      await page.getByRole('heading', { name: 'Connect Quire to your workspace' }).waitFor();
      expect(await page.getByLabel('Server address').inputValue()).toBe(t.url);
      expect(await page.getByLabel('Folder').inputValue()).toBe(mirror);
      await page.getByLabel('Access token').fill(JOURNEY_TOKENS.adaAgain);
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
      await syncNow();
      await waitForHeader(page, 'Up to date');
    });

    it('no hostile server text ran or became markup on any screen, and axe found nothing serious', async () => {
      expect(await xssHits(page)).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(checks.injected).toEqual([]);
      expect(checks.axe).toEqual([]);
      expect(checks.screenshots.length).toBeGreaterThanOrEqual(30);
    });
  },
);
