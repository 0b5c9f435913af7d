/**
 * The review screens in Chromium with the canned bridge: inbox, change request and diff render
 * (light and dark, screenshots in test-results/ui), empty and error states, every action asks
 * first where it destroys and shows its outcome (success, conflicts, offline, refused), comment
 * threads act through the contract, hostile text stays text, and axe finds nothing serious.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CannedBridge } from './canned-quire-data';
import { emptyReview, failingReview, refusingReview, reviewWorkspace } from './canned-review-data';
import {
  CHROMIUM,
  INJECTED_MARKUP,
  SCREENSHOT_DIR,
  axeFindings,
  buildRenderer,
  fakeBridgeScript,
  serveRenderer,
} from './renderer-harness';
import { XSS_PAYLOADS, payload } from './xss-payloads';

type Scheme = 'light' | 'dark';
type Call = { name: string; args: unknown };

const CR = '#/review/s1/4';
const available = existsSync(CHROMIUM);
let browser: Browser;
let server: Awaited<ReturnType<typeof serveRenderer>>;

async function open(canned: CannedBridge, hash: string, scheme: Scheme = 'light'): Promise<Page> {
  const context = await browser.newContext({
    colorScheme: scheme,
    bypassCSP: true,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  (page as Page & { errors?: string[] }).errors = errors;
  await page.addInitScript({ content: fakeBridgeScript(canned) });
  await page.goto(server.url + hash);
  return page;
}

async function close(page: Page): Promise<void> {
  expect((page as Page & { errors?: string[] }).errors).toEqual([]);
  await page.context().close();
}

const heading = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 5_000 });

const shoot = (page: Page, name: string, scheme: Scheme) =>
  page.screenshot({ path: join(SCREENSHOT_DIR, `review-${name}-${scheme}.png`), fullPage: true });

async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await axeFindings(page), where).toEqual([]);
}

const calls = async (page: Page): Promise<Call[]> =>
  (await page.evaluate('window.__quireCalls')) as Call[];

async function lastCall(page: Page, name: string): Promise<unknown> {
  await expect.poll(async () => (await calls(page)).some((c) => c.name === name)).toBe(true);
  return (await calls(page)).filter((c) => c.name === name).at(-1)?.args;
}

describe.skipIf(!available)('the review screens in Chromium', () => {
  beforeAll(async () => {
    buildRenderer();
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    server = await serveRenderer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`renders the inbox, a change request and its diff both ways, accessible (${scheme})`, async () => {
      const page = await open(reviewWorkspace(), '#/spaces', scheme);
      await page
        .getByRole('navigation', { name: 'Screens' })
        .getByRole('link', { name: 'Review' })
        .click();
      await heading(page, 'Review');
      // The navigation counts what waits for the user.
      await page.getByRole('link', { name: /^Review 2 waiting for you/ }).waitFor();
      const waiting = page.getByRole('region', { name: 'Waiting for you' });
      await waiting.getByRole('link', { name: /#4 Fix the install guide/ }).waitFor();
      await waiting.getByText('Your review is requested').waitFor();
      await shoot(page, 'inbox', scheme);
      await expectAccessible(page, `inbox (${scheme})`);

      await waiting.getByRole('link', { name: /#4 Fix the install guide/ }).click();
      await heading(page, /Fix the install guide/);
      await page.getByRole('heading', { name: 'Reviews and reviewers' }).waitFor();
      await page.getByRole('article', { name: 'Comment by Cy' }).waitFor();
      await shoot(page, 'change-request', scheme);
      await expectAccessible(page, `change request (${scheme})`);

      await page.getByRole('link', { name: 'Changes' }).click();
      await page.getByRole('region', { name: 'Diff of Install' }).waitFor();
      await shoot(page, 'diff-split', scheme);
      await expectAccessible(page, `diff split (${scheme})`);
      await page.getByRole('button', { name: 'Unified' }).click();
      await shoot(page, 'diff-unified', scheme);
      await expectAccessible(page, `diff unified (${scheme})`);
      await page.getByRole('button', { name: /^FAQ/ }).click();
      await page.getByRole('region', { name: 'Diff of FAQ' }).waitFor();
      await close(page);
    });
  }

  it('shows the diff with word highlights, skipped lines and page badges; remembers the layout', async () => {
    const page = await open(reviewWorkspace(), `${CR}/changes`);
    const diff = page.getByRole('region', { name: 'Diff of Install' });
    await diff.waitFor();
    expect(await diff.locator('mark').allTextContents()).toEqual(
      expect.arrayContaining(['npm install', 'pnpm install']),
    );
    await diff.getByText('12 unchanged lines').waitFor();
    const pages = page.getByRole('navigation', { name: 'Changed pages (3)' });
    await pages.getByRole('button', { name: /Install.*Renamed.*Edited/ }).waitFor();
    await pages.getByRole('button', { name: /FAQ.*Added.*Moved/ }).waitFor();
    await pages.getByRole('button', { name: /Legacy setup.*Removed/ }).waitFor();
    await page.getByText('Renamed from “Installation”.').waitFor();
    // Split: old and new of a changed line share a row.
    expect(await diff.locator('tr').filter({ hasText: 'npm install' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Unified' }).click();
    expect(await diff.locator('tr').filter({ hasText: 'npm install' }).count()).toBe(2);
    await page.reload();
    await expect
      .poll(() => page.getByRole('button', { name: 'Unified' }).getAttribute('aria-pressed'))
      .toBe('true');
    // The page's comments beside its diff, read for that page.
    await page.getByRole('heading', { name: 'Comments on this page' }).waitFor();
    expect(await lastCall(page, 'comments')).toEqual({
      space: 's1',
      number: 4,
      pageId: 'p-install',
    });
    await close(page);
  });

  it('shows the inbox empty, failing, and a change request that is not mirrored, in words', async () => {
    const empty = await open(emptyReview(), '#/review');
    await empty.getByRole('heading', { name: 'No change requests' }).waitFor();
    await shoot(empty, 'inbox-empty', 'light');
    await expectAccessible(empty, 'empty inbox');
    await close(empty);
    const failing = await open(failingReview(), '#/review');
    await failing
      .getByRole('alert')
      .filter({ hasText: 'Change requests could not be read' })
      .waitFor();
    await shoot(failing, 'inbox-error', 'light');
    await failing.goto(server.url + CR);
    await failing
      .getByRole('alert')
      .filter({ hasText: 'This change request is not mirrored' })
      .waitFor();
    await expectAccessible(failing, 'unknown change request');
    await close(failing);
    // A host whose engine has no comments yet says so quietly, with no box to write in.
    const noComments = reviewWorkspace();
    noComments.errors.comments = failingReview().errors.comments!;
    const page = await open(noComments, CR);
    await page.getByText('Comments are not available here').waitFor();
    expect(await page.getByLabel('New comment').count()).toBe(0);
    await close(page);
  });

  it('asks before merging and archiving, and shows each action’s outcome', async () => {
    const page = await open(reviewWorkspace(), CR);
    await heading(page, /Fix the install guide/);
    const ref = { space: 's1', number: 4 };

    await page.getByRole('button', { name: 'Merge…' }).click();
    const merge = page.getByRole('dialog', { name: 'Merge #4 into main?' });
    await merge.waitFor();
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
    await shoot(page, 'confirm-merge', 'light');
    await expectAccessible(page, 'merge dialog');
    await page.keyboard.press('Escape');
    await merge.waitFor({ state: 'hidden' });
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Merge…');
    expect((await calls(page)).some((c) => c.name === 'mergeChangeRequest')).toBe(false);
    await page.getByRole('button', { name: 'Merge…' }).click();
    await merge.getByRole('button', { name: 'Merge' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Merged. Main gets it on the next sync.' })
      .waitFor();
    expect(await lastCall(page, 'mergeChangeRequest')).toEqual(ref);

    await page.getByRole('button', { name: 'Archive…' }).click();
    await page
      .getByRole('dialog', { name: 'Archive #4?' })
      .getByRole('button', { name: 'Archive' })
      .click();
    expect(await lastCall(page, 'setChangeRequestStatus')).toEqual({ ...ref, status: 'archived' });

    await page.getByRole('button', { name: 'Update from main' }).click();
    const conflicts = page.getByRole('alert', { name: 'Conflicts' });
    await conflicts.getByText('getting-started/install.md').waitFor();
    await page.getByText('1 page changed on both sides').waitFor();
    await shoot(page, 'update-conflicts', 'light');
    await expectAccessible(page, 'update conflicts');

    await page.getByRole('button', { name: 'Review…' }).click();
    await page.getByLabel('Review comment (optional)').fill('Step 3 is wrong.');
    await page.getByRole('button', { name: 'Request changes' }).click();
    expect(await lastCall(page, 'reviewChangeRequest')).toEqual({
      ...ref,
      verdict: 'changes-requested',
      comment: 'Step 3 is wrong.',
    });
    await page.getByRole('status').filter({ hasText: 'Changes requested.' }).waitFor();

    await page.getByRole('button', { name: 'Rename…' }).click();
    await page.getByLabel('Subject').fill('Fix the install guide for pnpm');
    await page.getByRole('button', { name: 'Save subject' }).click();
    expect(await lastCall(page, 'setChangeRequestSubject')).toEqual({
      ...ref,
      subject: 'Fix the install guide for pnpm',
    });
    await page.getByRole('status').filter({ hasText: 'Subject changed.' }).waitFor();

    await page.getByRole('button', { name: 'Remove reviewer Dee' }).click();
    expect(await lastCall(page, 'setReviewers')).toEqual({ ...ref, add: [], remove: ['u4'] });
    await page.getByRole('status').filter({ hasText: 'Dee is no longer asked.' }).waitFor();
    await page.getByLabel('Add a reviewer').fill('eve@example.com');
    await page.getByRole('button', { name: 'Add reviewer' }).click();
    expect(await lastCall(page, 'setReviewers')).toEqual({
      ...ref,
      add: ['eve@example.com'],
      remove: [],
    });

    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    expect(await lastCall(page, 'pinChangeRequest')).toEqual({ ...ref, pinned: true });
    await page.getByRole('status').filter({ hasText: 'Pinned: it stays mirrored' }).waitFor();

    await page.getByRole('button', { name: 'Export PDF' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'PDF saved to /home/me/Downloads/cr-4.pdf' })
      .waitFor();
    expect(await lastCall(page, 'exportChangeRequestPdf')).toEqual({
      ...ref,
      pageId: null,
      file: null,
    });
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByRole('status').filter({ hasText: 'Checked out to /home/me/Quire' }).waitFor();
    expect(await lastCall(page, 'checkoutChangeRequest')).toEqual(ref);
    await close(page);
  });

  it('offers Ready for review on a draft; offline, says it waits for the next sync', async () => {
    const canned = reviewWorkspace();
    canned.results.changeRequest = { ...canned.results.changeRequest!, status: 'draft' };
    canned.results.setChangeRequestStatus = { delivery: 'queued' };
    const page = await open(canned, CR);
    await page.getByRole('button', { name: 'Ready for review' }).click();
    expect(await lastCall(page, 'setChangeRequestStatus')).toEqual({
      space: 's1',
      number: 4,
      status: 'open',
    });
    await page
      .getByRole('status')
      .filter({ hasText: 'Marked ready for review. The server cannot be reached' })
      .waitFor();
    await close(page);
  });

  it('shows a merge that conflicts, with the pages concerned', async () => {
    const canned = reviewWorkspace();
    canned.results.mergeChangeRequest = {
      result: 'conflicts',
      pages: [
        { pageId: 'p-install', title: 'Install', path: 'getting-started/install.md' },
        { pageId: null, title: 'FAQ', path: 'faq.md' },
      ],
    };
    const page = await open(canned, CR);
    await page.getByRole('button', { name: 'Merge…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Merge' }).click();
    const conflicts = page.getByRole('alert', { name: 'Conflicts' });
    await conflicts.getByText('Not merged: these pages changed both').waitFor();
    expect(await conflicts.getByRole('listitem').allTextContents()).toEqual([
      'Install getting-started/install.md',
      'FAQ faq.md',
    ]);
    await page.getByText('2 pages changed on both sides').waitFor();
    await shoot(page, 'merge-conflicts', 'light');
    await close(page);
  });

  it('notes where it is checked out, and saves one page as a PDF', async () => {
    const canned = reviewWorkspace();
    canned.results.checkouts = [
      { ...canned.results.checkoutChangeRequest!, pending: 2, closedWithPendingEdits: true },
    ];
    const page = await open(canned, CR);
    await page.getByText('2 edits waiting to be sent').waitFor();
    await page.getByRole('alert').filter({ hasText: 'closed on the server' }).waitFor();
    await expectAccessible(page, 'checkout note');
    await page.getByRole('link', { name: 'Changes' }).click();
    await page.getByRole('button', { name: 'Export page PDF' }).click();
    expect(await lastCall(page, 'exportChangeRequestPdf')).toEqual({
      space: 's1',
      number: 4,
      pageId: 'p-install',
      file: null,
    });
    await page.getByRole('status').filter({ hasText: 'PDF of Install saved to' }).waitFor();
    await shoot(page, 'diff-page-pdf', 'light');
    await close(page);
  });

  it('says why an action was refused: offline, or by the server', async () => {
    const page = await open(refusingReview(), CR);
    await heading(page, /Fix the install guide/);
    await page.getByRole('button', { name: 'Merge…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Merge' }).click();
    const offline = page
      .getByRole('alert')
      .filter({ hasText: 'This needs a connection to the server' });
    await offline.getByText(/merging needs the server/).waitFor();
    await shoot(page, 'merge-offline', 'light');
    await expectAccessible(page, 'merge offline');
    await page.getByRole('button', { name: 'Rename…' }).click();
    await page.getByLabel('Subject').fill('x'.repeat(150));
    await page.getByRole('button', { name: 'Save subject' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The server refused it' })
      .getByText('The subject is too long.')
      .waitFor();
    await close(page);
  });

  it('acts on comment threads: post, reply, edit, delete (asked first), react, resolve', async () => {
    const page = await open(reviewWorkspace(), CR);
    await heading(page, /Fix the install guide/);
    const where = { space: 's1', number: 4 };
    // Markdown drawn as elements: bold, code, a list, a web link.
    const cy = page.getByRole('article', { name: 'Comment by Cy' });
    await cy.locator('strong', { hasText: 'the commands' }).waitFor();
    expect(await cy.locator('a').getAttribute('href')).toBe('https://docs.example.com/install');
    expect(await cy.locator('li').count()).toBe(2);
    // What is still queued is marked; a problem keeps the text and says why.
    await page.getByText('Not sent yet').first().waitFor();
    await page.getByRole('alert').filter({ hasText: 'deleted on the server' }).waitFor();

    await page.getByLabel('New comment').fill('A **general** remark');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    expect(await lastCall(page, 'postComment')).toEqual({
      ...where,
      pageId: null,
      body: 'A **general** remark',
    });

    await page.getByLabel('Reply to Cy').fill('Done.');
    await page.getByRole('button', { name: 'Reply', exact: true }).first().click();
    expect(await lastCall(page, 'replyToComment')).toEqual({
      ...where,
      commentId: 'c1',
      body: 'Done.',
    });

    await page.getByRole('button', { name: '👍 2, yours' }).click();
    expect(await lastCall(page, 'reactToComment')).toEqual({
      ...where,
      commentId: 'c1',
      replyId: null,
      emoji: '👍',
      add: false,
    });
    await cy.getByRole('button', { name: 'React with 🎉' }).click();
    expect(await lastCall(page, 'reactToComment')).toMatchObject({ emoji: '🎉', add: true });

    await page.getByRole('button', { name: 'Resolve' }).click();
    expect(await lastCall(page, 'setCommentResolved')).toEqual({
      ...where,
      commentId: 'c1',
      resolved: true,
    });
    await page.getByRole('button', { name: 'Reopen' }).click();
    expect(await lastCall(page, 'setCommentResolved')).toEqual({
      ...where,
      commentId: 'c2',
      resolved: false,
    });

    const reply = page.getByRole('article', { name: 'Comment by Ada' }).first();
    await reply.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edit the comment').fill('Fixed in step 3.');
    await page.getByRole('button', { name: 'Save edit' }).click();
    expect(await lastCall(page, 'editComment')).toEqual({
      ...where,
      commentId: 'c1',
      replyId: 'r1',
      body: 'Fixed in step 3.',
    });

    await reply.getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this comment?' });
    await shoot(page, 'confirm-delete-comment', 'light');
    await expectAccessible(page, 'delete comment dialog');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    expect((await calls(page)).some((c) => c.name === 'deleteComment')).toBe(false);
    await reply.getByRole('button', { name: 'Delete…' }).click();
    await confirm.getByRole('button', { name: 'Delete comment' }).click();
    expect(await lastCall(page, 'deleteComment')).toEqual({
      ...where,
      commentId: 'c1',
      replyId: 'r1',
    });

    // A reply kept only here (deleted on the server): it can be discarded, asked first.
    const stranded = page.getByRole('article', { name: 'Comment by Ada' }).nth(1);
    await stranded.getByRole('button', { name: 'Discard…' }).click();
    await page
      .getByRole('dialog', { name: 'Discard what was not sent?' })
      .getByRole('button', { name: 'Discard', exact: true })
      .click();
    expect(await lastCall(page, 'deleteComment')).toEqual({
      ...where,
      commentId: 'c1',
      replyId: 'r2',
    });
    await close(page);
  });

  it('reads again when the engine says a change request changed, and moves through the inbox by keyboard', async () => {
    const page = await open(reviewWorkspace(), '#/review');
    await heading(page, 'Review');
    const reads = async () => (await calls(page)).filter((c) => c.name === 'changeRequests').length;
    const before = await reads();
    await page.evaluate(`window.__emit('reviewChanged', { spaceId: 's1', number: 4 })`);
    await expect.poll(reads).toBeGreaterThan(before);
    // A notification while the app is open: a line linking to the change request.
    const note = {
      kind: 'comment',
      spaceId: 's1',
      number: 4,
      title: 'Bo commented on #4 Fix the install guide',
      body: 'Step 3 needs sudo.',
    };
    await page.evaluate(`window.__emit('notification', ${JSON.stringify(note)})`);
    const toasts = page.getByRole('region', { name: 'Review notifications' });
    await toasts.getByText('Step 3 needs sudo.').waitFor();
    await shoot(page, 'notification', 'light');
    await expectAccessible(page, 'notification');
    await toasts.getByRole('link', { name: note.title }).click();
    await heading(page, /Fix the install guide/);
    expect(await toasts.getByRole('link').count()).toBe(0);
    await page.goBack();
    await heading(page, 'Review');
    await page.getByRole('link', { name: /#4 Fix the install guide/ }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement?.textContent')).toContain('New onboarding');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate('document.activeElement?.textContent')).toContain(
      'Fix the install guide',
    );
    await close(page);
  });

  it(`executes none of ${XSS_PAYLOADS.length} XSS payloads in subjects, names, diffs and comments`, async () => {
    let n = 0;
    const hostile = reviewWorkspace((plain) => `${plain} ${payload(n++)}`);
    // Comment bodies that are nothing but a payload, too (Markdown with raw HTML and bad links).
    const thread = hostile.results.comments![0]!;
    hostile.results.comments = [
      ...hostile.results.comments!,
      ...XSS_PAYLOADS.map((body, i) => ({ ...thread, id: `x${i}`, body, replies: [] })),
      // A body the Markdown parser would take seconds on: shown at once, as plain text.
      { ...thread, id: 'slow', body: `${'- '.repeat(4_000)}__xss(slow)`, replies: [] },
    ];
    const page = await open(hostile, '#/review');
    const note = { kind: 'reply', spaceId: 's1', number: 4, title: payload(3), body: payload(4) };
    await page.evaluate(`window.__emit('notification', ${JSON.stringify(note)})`);
    for (const hash of ['#/review', CR, `${CR}/changes`]) {
      await page.goto(server.url + hash);
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 5_000 });
      await page.waitForTimeout(100);
      await shoot(page, `xss-${hash.split('/').length}`, 'light');
      expect(await page.locator(INJECTED_MARKUP).count(), hash).toBe(0);
      expect(await page.locator('#root').innerText(), hash).toContain('__xss(');
    }
    expect(await page.evaluate('window.__xssHits')).toEqual([]);
    await page.goto(server.url + CR);
    await page.getByText('__xss(slow)').waitFor({ timeout: 3_000 });
    await close(page);
  });
});
