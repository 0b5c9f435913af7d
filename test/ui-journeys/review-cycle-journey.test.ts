/**
 * The two-user review cycle through the UI in Chromium: Dora (A) and Cleo (B) each run their own
 * `quire ui` (own home, own mirror) against one real server, each behind a proxy that can cut
 * them off, so "offline" is real. A checks a change request out, edits it on disk offline, marks
 * it ready; B reviews offline, comments on two pages, requests changes; A replies offline and
 * fixes the pages; B approves; Ada merges something else into main; A updates from main; B
 * merges; both mirrors converge. Then a merge that conflicts, an offline merge, and a comment
 * edited locally while deleted remotely. Every screen and dialog is captured into
 * test-results/ui/review-cycle-*.png and checked with axe-core.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus, type ChangeRequestContentChange } from '@gitbook/api';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { startSwitchableProxy, type SwitchableProxy } from '../support/switchable-proxy';
import { TOKENS, testFixture } from '../support/test-fixture';
import { eventually } from '../ui-host/ui-host-kit';
import { CHROMIUM, SCREENSHOT_DIR, buildRenderer } from '../ui/renderer-harness';
import { waitForHeader } from './journey-kit';
import {
  actions,
  expectCleanRun,
  markdownIn,
  onServer,
  openChangeRequest,
  shoot,
  signIn,
  startUser,
  syncNow,
  treeOf,
  type CycleChecks,
  type ReviewUser,
} from './review-cycle-kit';

const available = existsSync(CHROMIUM);
const SPACE = 's-handbook';
const SUBJECT = 'Clearer setup guide';

let t: TestServer;
let dir: string;
let browser: Browser;
let a: ReviewUser;
let b: ReviewUser;
const proxies: SwitchableProxy[] = [];
const checks: CycleChecks = { screenshots: [], axe: [], injected: [] };
let cr = { id: '', number: 0 };

/** A change request on the Handbook by `token`, with these changes, left a draft or opened. */
async function changeRequest(
  token: string,
  subject: string,
  changes: ChangeRequestContentChange[],
  open: boolean,
): Promise<{ id: string; number: number }> {
  const api = t.client(token).spaces;
  const { data } = await api.createChangeRequest(SPACE, { subject });
  await api.updateChangeRequestContent(SPACE, data.id, { changes }, { compat: false });
  if (open) await api.updateChangeRequestById(SPACE, data.id, { status: ChangeRequestStatus.Open });
  return { id: data.id, number: data.number };
}

const edit = (page: string, markdown: string): ChangeRequestContentChange => ({
  operation: 'update_page',
  page,
  document: { markdown },
});

/** A's checkout folder of the cycle's change request (undefined once it is gone). */
function checkoutFolder(): string | undefined {
  const parent = join(a.mirror, 'Acme', 'Handbook (change requests)');
  if (!existsSync(parent)) return undefined;
  const name = readdirSync(parent).find((entry) => entry.startsWith(`${cr.number} `));
  return name === undefined ? undefined : join(parent, name);
}

/** Rewrites a file of A's checkout, as an editor saves it. */
async function editOnDisk(path: string, change: (text: string) => string): Promise<void> {
  const file = join(checkoutFolder()!, path);
  await writeFile(file, change(readFileSync(file, 'utf8')));
}

async function serverComments(): Promise<{ id: string; replies?: number }[]> {
  const { data } = await t.client(TOKENS.ada).spaces.listCommentsInChangeRequest(SPACE, cr.id);
  return data.items as unknown as { id: string; replies?: number }[];
}

/** The "Comments on this page" box beside a page's diff: selects the page, writes, sends. */
async function commentOnPage(user: ReviewUser, title: RegExp, body: string): Promise<void> {
  const { page } = user;
  await page
    .getByRole('navigation', { name: /^Changed pages/ })
    .getByRole('button', { name: title })
    .click();
  await page.getByRole('region', { name: new RegExp(`^Diff of ${title.source}`) }).waitFor();
  const comments = page.getByRole('region', { name: 'Comments on this page' });
  await comments.getByLabel('New comment').fill(body);
  await comments.getByRole('button', { name: 'Comment', exact: true }).click();
  await comments
    .getByRole('article', { name: `Comment by ${user.name}` })
    .getByText('Not sent yet')
    .waitFor();
}

describe.skipIf(!available)(
  'the two-user review cycle through quire ui, in Chromium',
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      buildRenderer();
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      t = await startTestServer({ fixture: testFixture() });
      dir = mkdtempSync(join(tmpdir(), 'quire-review-cycle-'));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox'],
      });
      proxies.push(await startSwitchableProxy(t.url), await startSwitchableProxy(t.url));
      a = await startUser(browser, dir, 'Dora Edit', TOKENS.dora, proxies[0]!);
      b = await startUser(browser, dir, 'Cleo Review', TOKENS.cleo, proxies[1]!);
      cr = await changeRequest(
        TOKENS.dora,
        SUBJECT,
        [edit('p-setup', '# Setup\n\nInstall it.\n\nThen run it.\n')],
        false,
      );
      await t.client(TOKENS.dora).spaces.requestReviewersForChangeRequest(SPACE, cr.id, {
        users: ['u-cleo'],
      });
      await Promise.all([signIn(a), signIn(b)]);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      const codes = await Promise.all([a?.ui.stop(), b?.ui.stop()]);
      for (const proxy of proxies) await proxy.close();
      await t?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      expect(codes).toEqual([0, 0]);
    }, 30_000);

    it('A checks the change request out, edits it offline on disk and marks it ready', async () => {
      await openChangeRequest(a, cr.number);
      // Her own: no "Review…" (the server refuses a review by its author).
      await actions(a).getByRole('button', { name: 'Rename…' }).waitFor();
      await expect.poll(() => actions(a).getByRole('button', { name: 'Review…' }).count()).toBe(0);
      await shoot(a.page, 'a-overview-draft', checks, true);
      await actions(a).getByRole('button', { name: 'Check out' }).click();
      await a.page
        .getByRole('status')
        .filter({ hasText: /Checked out/ })
        .waitFor();
      await eventually('the checkout folder', () => checkoutFolder(), 20_000);
      await shoot(a.page, 'a-checked-out', checks);

      a.proxy.cut();
      await editOnDisk('guides/setup.md', (text) => `${text}\nCheck the version first.\n`);
      await editOnDisk('README.md', (text) => text.replace('Hello.', 'Hello, and welcome.'));
      await actions(a).getByRole('button', { name: 'Ready for review' }).click();
      await a.page
        .getByRole('status')
        .filter({ hasText: 'Marked ready for review. The server cannot be reached' })
        .waitFor();
      // The folder watcher tries to push the saved files: the header and the checks say so.
      await waitForHeader(a.page, 'Offline');
      await a.page
        .getByRole('region', { name: 'Checks' })
        .getByText(/2 edits waiting to be sent/)
        .waitFor();
      await shoot(a.page, 'a-ready-offline', checks, true);

      a.proxy.restore();
      await syncNow(a);
      await onServer('the edits and the status on the server', async () => {
        const { data } = await t.client(TOKENS.ada).spaces.getChangeRequestById(SPACE, cr.id);
        const setup = await markdownIn(t, TOKENS.ada, SPACE, cr.id, 'p-setup');
        const welcome = await markdownIn(t, TOKENS.ada, SPACE, cr.id, 'p-welcome');
        return (
          data.status === ChangeRequestStatus.Open &&
          (setup?.includes('Check the version first.') ?? false) &&
          (welcome?.includes('Hello, and welcome.') ?? false)
        );
      });
    });

    it('B opens the review, reads the diff both ways, comments on two pages offline, requests changes', async () => {
      await syncNow(b);
      const { page } = b;
      await page
        .getByRole('navigation', { name: 'Screens' })
        .getByRole('link', { name: /^Review/ })
        .click();
      const waiting = page.getByRole('region', { name: 'Waiting for you' });
      await waiting.getByRole('link', { name: new RegExp(`^#${cr.number} ${SUBJECT}`) }).waitFor();
      await shoot(page, 'b-inbox', checks, true);
      await openChangeRequest(b, cr.number);
      await shoot(page, 'b-overview', checks, true);
      await page.getByRole('link', { name: 'Changes' }).click();
      await page.getByRole('navigation', { name: 'Changed pages (2)' }).waitFor();
      await page.getByRole('button', { name: 'Side by side' }).click();
      await shoot(page, 'b-diff-split', checks, true);
      await page.getByRole('button', { name: 'Unified' }).click();
      await shoot(page, 'b-diff-unified', checks, true);

      b.proxy.cut();
      await commentOnPage(b, /Setup/, 'Which **version**? Say how to check it.');
      await commentOnPage(b, /Welcome/, 'A comma too many?');
      await shoot(page, 'b-comments-offline', checks);
      b.proxy.restore();
      await syncNow(b);
      await onServer(
        'both comments on the server',
        async () => (await serverComments()).length === 2,
      );

      await page.getByRole('link', { name: 'Overview' }).click();
      await actions(b).getByRole('button', { name: 'Review…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Review this change request' });
      await dialog.getByLabel('Review comment (optional)').fill('Almost: see the two comments.');
      await shoot(page, 'b-review-dialog', checks);
      await dialog.getByRole('button', { name: 'Request changes' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /changes/i })
        .waitFor();
      await shoot(page, 'b-changes-requested', checks);
    });

    it('A sees the comments and the notification, replies offline, fixes the pages on disk', async () => {
      await syncNow(a);
      const { page } = a;
      const notes = page.getByRole('region', { name: 'Review notifications' });
      await notes
        .getByRole('link', { name: `Cleo Review commented on #${cr.number} ${SUBJECT}` })
        .first()
        .waitFor();
      await openChangeRequest(a, cr.number);
      await page.getByRole('article', { name: 'Comment by Cleo Review' }).first().waitFor();
      await shoot(page, 'a-comments-arrived', checks, true);

      a.proxy.cut();
      await page.getByLabel('Reply to Cleo Review').first().fill('Done: `npm -v`.');
      await page.getByRole('button', { name: 'Reply', exact: true }).first().click();
      await page.getByText('Not sent yet').first().waitFor();
      await editOnDisk('guides/setup.md', (text) =>
        text.replace('Check the version first.', 'Check the version first: `npm -v`.'),
      );
      await editOnDisk('README.md', (text) =>
        text.replace('Hello, and welcome.', 'Hello and welcome.'),
      );
      await shoot(page, 'a-reply-offline', checks);
      a.proxy.restore();
      await syncNow(a);
      await onServer('the reply and the fixes on the server', async () => {
        const replies = (await serverComments()).reduce((n, c) => n + (c.replies ?? 0), 0);
        const setup = await markdownIn(t, TOKENS.ada, SPACE, cr.id, 'p-setup');
        const welcome = await markdownIn(t, TOKENS.ada, SPACE, cr.id, 'p-welcome');
        return (
          replies === 1 &&
          (setup?.includes('`npm -v`') ?? false) &&
          (welcome?.includes('Hello and welcome.') ?? false)
        );
      });
    });

    it('B approves; main moves; A updates from main; B merges', async () => {
      await syncNow(b);
      await openChangeRequest(b, cr.number);
      await actions(b).getByRole('button', { name: 'Review…' }).click();
      const dialog = b.page.getByRole('dialog', { name: 'Review this change request' });
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await b.page
        .getByRole('status')
        .filter({ hasText: /approved/i })
        .waitFor();
      await shoot(b.page, 'b-approved', checks);

      const other = await changeRequest(
        TOKENS.ada,
        'Guides intro',
        [edit('p-guides', '# Guides\n\nEvery guide, in order.\n')],
        true,
      );
      await t.client(TOKENS.ada).spaces.mergeChangeRequest(SPACE, other.id);

      await syncNow(a);
      await openChangeRequest(a, cr.number);
      const checksPanel = a.page.getByRole('region', { name: 'Checks' });
      await checksPanel.getByText('Outdated', { exact: true }).waitFor();
      await shoot(a.page, 'a-outdated', checks, true);
      await checksPanel.getByRole('button', { name: 'Update from main' }).click();
      await a.page.getByRole('status').filter({ hasText: /main/i }).waitFor();
      await shoot(a.page, 'a-updated', checks);

      await syncNow(b);
      await openChangeRequest(b, cr.number);
      await actions(b).getByRole('button', { name: 'Merge…' }).click();
      const merge = b.page.getByRole('dialog', { name: `Merge #${cr.number} into main?` });
      await shoot(b.page, 'b-merge-dialog', checks);
      await merge.getByRole('button', { name: 'Merge', exact: true }).click();
      await b.page
        .getByRole('status')
        .filter({ hasText: /merged/i })
        .waitFor();
      await shoot(b.page, 'b-merged', checks, true);
    });

    it("both mirrors converge, and A's checkout folder is gone", async () => {
      await syncNow(a);
      await syncNow(b);
      await syncNow(a);
      await eventually(
        'the checkout folder to go',
        () => (checkoutFolder() === undefined ? true : undefined),
        20_000,
      );
      // Every space of the organization, byte for byte (checkout folders aside: A's is gone).
      const mirror = (user: ReviewUser) =>
        treeOf(join(user.mirror, 'Acme'), / \(change requests\)$/);
      expect(mirror(a)).toEqual(mirror(b));
      expect(mirror(a).get('Handbook/guides/setup.md')).toContain('`npm -v`');
      expect(mirror(a).get('Handbook/guides/README.md')).toContain('Every guide, in order.');
      expect(mirror(a).get('Handbook/README.md')).toContain('Hello and welcome.');
      await shoot(a.page, 'a-after-merge', checks, true);
    });

    it('a merge that conflicts shows its pages; offline, a merge is refused with its message', async () => {
      const first = await changeRequest(
        TOKENS.ada,
        'Welcome, shorter',
        [edit('p-welcome', '# Welcome\n\nHi.\n')],
        true,
      );
      const second = await changeRequest(
        TOKENS.ada,
        'Welcome, longer',
        [edit('p-welcome', '# Welcome\n\nHello there, reader.\n')],
        true,
      );
      await t.client(TOKENS.ada).spaces.mergeChangeRequest(SPACE, first.id);
      await syncNow(b);
      await openChangeRequest(b, second.number);

      b.proxy.cut();
      await actions(b).getByRole('button', { name: 'Merge…' }).click();
      await b.page
        .getByRole('dialog', { name: `Merge #${second.number} into main?` })
        .getByRole('button', { name: 'Merge', exact: true })
        .click();
      const refused = b.page.getByRole('alert').filter({ hasText: /needs a connection/ });
      await refused.waitFor();
      await shoot(b.page, 'b-merge-offline', checks);
      b.proxy.restore();

      await actions(b).getByRole('button', { name: 'Merge…' }).click();
      await b.page
        .getByRole('dialog', { name: `Merge #${second.number} into main?` })
        .getByRole('button', { name: 'Merge', exact: true })
        .click();
      const conflicts = b.page.getByRole('alert', { name: 'Conflicts' });
      await conflicts
        .getByText(/Welcome/)
        .first()
        .waitFor();
      await shoot(b.page, 'b-merge-conflicts', checks, true);
    });

    it('a comment edited offline while deleted on the server shows its problem, text kept', async () => {
      const { page } = b;
      await page.getByLabel('New comment').last().fill('To be reworded.');
      await page.getByRole('button', { name: 'Comment', exact: true }).last().click();
      await syncNow(b);
      const number = Number(/#\/review\/[^/]+\/(\d+)/.exec(page.url())?.[1]);
      const mine = page.getByRole('article', { name: 'Comment by Cleo Review' }).last();
      await expect.poll(() => mine.getByText('Not sent yet').count()).toBe(0);

      b.proxy.cut();
      await mine.getByRole('button', { name: 'Edit', exact: true }).click();
      await mine.getByLabel('Edit the comment').fill('Reworded, offline.');
      await mine.getByRole('button', { name: 'Save edit' }).click();
      await mine.getByText('Edit not sent yet').waitFor();
      await deleteLatestCommentOnServer(number);
      b.proxy.restore();
      await syncNow(b);
      const problem = page.getByRole('alert').filter({ hasText: /deleted/i });
      await problem.waitFor();
      await page.getByText('Reworded, offline.').waitFor();
      await shoot(page, 'b-comment-problem', checks, true);
      // Kept until the user lets it go: then it leaves the thread and nothing is sent.
      const stranded = page.getByRole('article', { name: 'Comment by Cleo Review' }).last();
      await stranded.getByRole('button', { name: 'Discard…' }).click();
      const discard = page.getByRole('dialog', { name: 'Discard what was not sent?' });
      await shoot(page, 'b-discard-dialog', checks);
      await discard.getByRole('button', { name: 'Discard', exact: true }).click();
      await expect.poll(() => page.getByText('Reworded, offline.').count()).toBe(0);
    });

    it('rendered nothing hostile, axe found nothing serious, no page error', () => {
      expectCleanRun(checks, [a, b]);
    });
  },
);

/** Cleo, in the browser, deletes her comment "To be reworded." on change request `number`. */
async function deleteLatestCommentOnServer(number: number): Promise<void> {
  const api = t.client(TOKENS.cleo).spaces;
  const { data: crs } = await api.listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Open,
  });
  const target = (crs.items as { id: string; number: number }[]).find(
    (item) => item.number === number,
  )!;
  const { data } = await api.listCommentsInChangeRequest(SPACE, target.id);
  const comment = (data.items as { id: string }[]).find((item) =>
    JSON.stringify(item).includes('To be reworded.'),
  )!;
  await api.deleteCommentInChangeRequest(SPACE, target.id, comment.id);
}
