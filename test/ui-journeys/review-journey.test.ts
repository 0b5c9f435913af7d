/**
 * The review screens against the real engine: `quire ui` (bin/quire.mjs) signed in to the real
 * server, where another user opened change requests and asked for a review. The inbox, a change
 * request and its diff (both layouts) render what the engine mirrored; every screen is captured
 * light and dark (test-results/ui-journeys), checked with axe-core, and shows hostile names
 * (the other user's display name is an XSS payload) as text.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus, type ChangeRequestContentChange } from '@gitbook/api';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { CHROMIUM, buildRenderer } from '../ui/renderer-harness';
import { XSS_PAYLOADS } from '../ui/xss-payloads';
import { GUIDE, HOSTILE_SPACE, JOURNEY_TOKENS, journeyFixture } from './journey-fixture';
import {
  JOURNEY_INIT_SCRIPT,
  JOURNEY_SCREENSHOTS,
  captureScreen,
  startQuireUi,
  waitForHeader,
  xssHits,
  type QuireUiProcess,
  type ScreenCheck,
} from './journey-kit';

const available = existsSync(CHROMIUM);

let t: TestServer;
let dir: string;
let browser: Browser;
let ui: QuireUiProcess;
let page: Page;
const checks: ScreenCheck = { screenshots: [], axe: [], injected: [] };
const pageErrors: string[] = [];

/** Bob opens a change request on the Guide (open, or left a draft) and asks Ada to review it. */
async function bobOpens(
  subject: string,
  changes: ChangeRequestContentChange[],
  open: boolean,
  space = GUIDE,
): Promise<number> {
  const api = t.client(JOURNEY_TOKENS.bob).spaces;
  const { data: cr } = await api.createChangeRequest(space, { subject });
  await api.updateChangeRequestContent(space, cr.id, { changes }, { compat: false });
  if (open) {
    await api.updateChangeRequestById(space, cr.id, { status: ChangeRequestStatus.Open });
    await api.requestReviewersForChangeRequest(space, cr.id, { users: ['u-ada'] });
  }
  return cr.number;
}

describe.skipIf(!available)(
  'the review screens against quire ui and the real server',
  { timeout: 60_000 },
  () => {
    let reviewNumber = 0;

    beforeAll(async () => {
      buildRenderer();
      mkdirSync(JOURNEY_SCREENSHOTS, { recursive: true });
      t = await startTestServer({ fixture: journeyFixture() });
      reviewNumber = await bobOpens(
        'Clearer setup steps',
        [
          {
            operation: 'update_page',
            page: 'p-setup',
            document: { markdown: '# Setup\n\nOne.\n\nTwo, in more words.\n\nThree.\n\nFour.\n' },
          },
          { operation: 'update_page', page: 'p-faq', title: 'Questions' },
          { operation: 'insert_page', document: { markdown: '# Glossary\n\nTerms.\n' } },
        ],
        true,
      );
      await bobOpens(
        'Usage notes (draft)',
        [
          {
            operation: 'update_page',
            page: 'p-usage',
            document: { markdown: '# Usage\n\nFirst.\n\nSecond, revised.\n\nThird.\n' },
          },
        ],
        false,
      );
      // Hostile text in a subject, a page and the lines of a diff.
      await bobOpens(
        XSS_PAYLOADS[0]!,
        [
          {
            operation: 'update_page',
            page: 'p-hostile',
            document: { markdown: `# Hostile\n\n${XSS_PAYLOADS.slice(0, 8).join('\n\n')}\n` },
          },
        ],
        true,
        HOSTILE_SPACE,
      );
      dir = mkdtempSync(join(tmpdir(), 'quire-review-journey-'));
      ui = await startQuireUi(join(dir, 'home'), dir);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox'],
      });
      const context = await browser.newContext({
        bypassCSP: true,
        viewport: { width: 1440, height: 900 },
      });
      await context.addInitScript({ content: JOURNEY_INIT_SCRIPT });
      page = await context.newPage();
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

    it('signs in and lists the mirrored change requests, the review asked of Ada first', async () => {
      await page.goto(ui.url);
      await page.getByLabel('Server address').fill(t.url);
      await page.getByLabel('Access token').fill(JOURNEY_TOKENS.ada);
      await page.getByLabel('Folder').fill(join(dir, 'mirror'));
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
      await waitForHeader(page, 'Up to date');

      await page
        .getByRole('navigation', { name: 'Screens' })
        .getByRole('link', { name: 'Review' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Review' }).waitFor();
      const waiting = page.getByRole('region', { name: 'Waiting for you' });
      await waiting.getByRole('link', { name: /Clearer setup steps/ }).waitFor();
      await waiting
        .getByRole('listitem')
        .filter({ hasText: 'Clearer setup steps' })
        .getByText('Your review is requested')
        .waitFor();
      const others = page.getByRole('region', { name: 'Other change requests' });
      await others.getByRole('link', { name: /Usage notes \(draft\)/ }).waitFor();
      await others.getByText('Draft', { exact: true }).waitFor();
      await page.getByRole('link', { name: /^Review 2 waiting for you/ }).waitFor();
      await captureScreen(page, 'review-inbox', checks);
    });

    it('pins the draft through the engine: the inbox shows it pinned', async () => {
      await page.getByRole('link', { name: /Usage notes \(draft\)/ }).click();
      await page.getByRole('heading', { level: 1, name: /Usage notes/ }).waitFor();
      await page.getByRole('button', { name: 'Pin', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Pinned: it stays mirrored' }).waitFor();
      await expect
        .poll(() =>
          page.getByRole('button', { name: 'Pin', exact: true }).getAttribute('aria-pressed'),
        )
        .toBe('true');
      await page.getByRole('link', { name: 'Back to the review inbox' }).click();
      const others = page.getByRole('region', { name: 'Other change requests' });
      await others
        .getByRole('listitem')
        .filter({ hasText: 'Usage notes' })
        .getByText('Pinned')
        .waitFor();
    });

    it('opens the change request: status, author, reviewers, checks', async () => {
      await page.getByRole('link', { name: /Clearer setup steps/ }).click();
      await page.getByRole('heading', { level: 1, name: /Clearer setup steps/ }).waitFor();
      expect(page.url()).toContain(`#/review/${GUIDE}/${reviewNumber}`);
      const reviewers = page.getByRole('list', { name: 'Requested reviewers' });
      await reviewers.getByText('Ada Lovelace').waitFor();
      await page.getByRole('heading', { name: 'Checks' }).waitFor();
      await page.getByText('Up to date', { exact: true }).first().waitFor();
      await page.getByRole('button', { name: 'Merge…' }).waitFor();
      await captureScreen(page, 'review-change-request', checks);
    });

    it('shows the diff per page, side by side and unified, computed offline', async () => {
      await page.getByRole('link', { name: 'Changes' }).click();
      const pages = page.getByRole('navigation', { name: /^Changed pages/ });
      await pages.getByRole('button', { name: /Setup.*Edited/ }).waitFor();
      await pages.getByRole('button', { name: /Questions.*Renamed/ }).waitFor();
      await pages.getByRole('button', { name: /Glossary.*Added/ }).waitFor();
      await pages.getByRole('button', { name: /Setup/ }).click();
      const diff = page.getByRole('region', { name: 'Diff of Setup' });
      await diff.locator('mark').first().waitFor();
      expect((await diff.locator('mark').allTextContents()).join(' ')).toContain('in more words');
      if (
        (await page.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')) !==
        'true'
      )
        await page.getByRole('button', { name: 'Side by side' }).click();
      await captureScreen(page, 'review-diff-split', checks);
      await page.getByRole('button', { name: 'Unified' }).click();
      await expect.poll(() => diff.locator('tr').filter({ hasText: 'Two' }).count()).toBe(2);
      await captureScreen(page, 'review-diff-unified', checks);
      await pages.getByRole('button', { name: /Questions/ }).click();
      await page.getByText('Renamed from “FAQ”.').waitFor();
    });

    it('shows a hostile subject, page and diff as text', async () => {
      await page
        .getByRole('navigation', { name: 'Screens' })
        .getByRole('link', { name: /^Review/ })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Review' }).waitFor();
      const link = page.getByRole('link', { name: XSS_PAYLOADS[0]!, exact: false });
      await link.waitFor();
      await link.click();
      await page.getByRole('heading', { level: 1, name: /onerror/ }).waitFor();
      await page.getByRole('link', { name: 'Changes' }).click();
      await page.getByRole('region', { name: /^Diff of / }).waitFor();
      await page.getByText('__xss(2)').first().waitFor();
      await captureScreen(page, 'review-hostile-diff', checks);
    });

    it('rendered nothing hostile, and axe found nothing serious', async () => {
      expect(await xssHits(page)).toEqual([]);
      expect(checks.injected).toEqual([]);
      expect(checks.axe).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  },
);
