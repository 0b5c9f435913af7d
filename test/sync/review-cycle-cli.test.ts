import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommentThread } from '../../src/shared/contract/review';
import { startSwitchableProxy, type SwitchableProxy } from '../support/switchable-proxy';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { changeRequestMarkdown, mainMarkdown } from './checkout-kit';
import { inProcessQuire, type QuireRun } from './in-process-quire';
import { remoteEdit } from './sync-test-kit';

/**
 * The full review cycle by two users through the `quire` CLI (in-process, real services) over the
 * real server, each behind a proxy that can cut them off: Dora (A) writes a change request in a
 * checkout, partly offline; Cleo (B) reviews it, partly offline; main moves meanwhile; Cleo
 * merges and both mirrors converge on the server's content. The steps run in order.
 */
const SPACE = 's-handbook';
let t: TestServer;
let dir: string;
/** A user: their own Quire home and folder, reaching the server through their own proxy. */
interface User {
  proxy: SwitchableProxy;
  quire: (...args: string[]) => Promise<QuireRun>;
}
let a: User;
let b: User;
let cr: { id: string; number: string };
let checkout: string;
let subject: string;

function ok(run: QuireRun): QuireRun {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  return run;
}

/** Runs `work` with the user's server cut off: what it does must not need the network. */
async function offline<T>(user: User, work: () => Promise<T>): Promise<T> {
  user.proxy.cut();
  try {
    return await work();
  } finally {
    user.proxy.restore();
  }
}

async function threads(user: User): Promise<CommentThread[]> {
  return JSON.parse(ok(await user.quire('cr', 'comments', 'Handbook', cr.number, '--json')).stdout);
}

const markdownOf = (body: unknown) => (body as { markdown: string }).markdown;

/** The change request's comment threads as the server holds them, oldest first. */
async function serverThreads() {
  const api = t.client(TOKENS.ada).spaces;
  const { data } = await api.listCommentsInChangeRequest(SPACE, cr.id, { order: 'asc' });
  return Promise.all(
    data.items.map(async (comment) => {
      const replies = await api.listCommentRepliesInChangeRequest(SPACE, cr.id, comment.id);
      return {
        page: (comment.target as { page?: { id: string } }).page?.id,
        body: markdownOf(comment.body),
        replies: replies.data.items.map((reply) => markdownOf(reply.body)),
      };
    }),
  );
}

async function onServer() {
  return (await t.client(TOKENS.ada).spaces.getChangeRequestById(SPACE, cr.id)).data;
}

beforeAll(async () => {
  t = await startTestServer({ fixture: testFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-review-cycle-'));
  a = { proxy: await startSwitchableProxy(t.url), quire: inProcessQuire(dir, 'dora') };
  b = { proxy: await startSwitchableProxy(t.url), quire: inProcessQuire(dir, 'cleo') };
  for (const [user, token, name] of [
    [a, TOKENS.dora, 'dora'],
    [b, TOKENS.cleo, 'cleo'],
  ] as const) {
    const folder = join(dir, `${name}-mirror`);
    ok(await user.quire('login', '--server', user.proxy.url, '--token', token, '--folder', folder));
    ok(await user.quire('sync', '--once'));
  }
}, 60_000);

afterAll(async () => {
  await a.proxy?.close();
  await b.proxy?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const space = (name: string) => join(dir, `${name}-mirror`, 'Acme', 'Handbook');

describe('the review cycle through the CLI', () => {
  it('1. A edits, checks the change request out, edits there offline, marks it ready', async () => {
    writeFileSync(join(space('dora'), 'README.md'), '# Welcome\n\nHello, readers.\n');
    const first = ok(await a.quire('sync', '--once'));
    expect(first.stdout).toContain('Handbook (s-handbook): 1 change pushed, up to date');
    const number = /change request #(\d+) "Edits from /.exec(first.stdout)?.[1];
    expect(number).toBeDefined();
    const { data } = await t
      .client(TOKENS.ada)
      .spaces.listChangeRequestsForSpace(SPACE, { status: ChangeRequestStatus.Draft });
    const made = data.items.find((item) => String(item.number) === number)!;
    cr = { id: made.id, number: number! };
    subject = made.subject!;
    expect(made.status).toBe(ChangeRequestStatus.Draft);

    const out = ok(await a.quire('cr', 'checkout', 'Handbook', cr.number));
    checkout = join(
      dir,
      'dora-mirror',
      'Acme',
      'Handbook (change requests)',
      `${cr.number} ${made.subject}`,
    );
    expect(out.stdout).toContain(checkout);
    expect(readFileSync(join(checkout, 'README.md'), 'utf8')).toContain('Hello, readers.');

    await offline(a, async () => {
      writeFileSync(join(checkout, 'guides/README.md'), '# Guides\n\nStart with setup.\n');
      writeFileSync(join(checkout, 'guides/setup.md'), '# Setup\n\nInstall it with npm.\n');
      const ready = ok(await a.quire('cr', 'ready', 'Handbook', cr.number));
      expect(ready.stdout).toContain(
        `Handbook #${cr.number} is ready for review here; the server cannot be reached: queued, the next sync sends it`,
      );
      const shown = ok(await a.quire('cr', 'show', 'Handbook', cr.number));
      expect(shown.stdout).toContain('status: open');
      const asked = await a.quire('cr', 'reviewers', 'Handbook', cr.number, '--add', 'Cleo');
      expect(asked.stderr).toContain('Changing reviewers needs a connection');
    });
    expect((await onServer()).status).toBe(ChangeRequestStatus.Draft);
    const back = ok(await a.quire('sync', '--once'));
    expect(back.stdout).toContain(`Handbook #${cr.number} (checked out): 2 changes pushed`);
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-guides')).toContain('Start with setup.');
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-setup')).toContain('with npm');
    expect((await onServer()).status).toBe(ChangeRequestStatus.Open);
    const asked = ok(await a.quire('cr', 'reviewers', 'Handbook', cr.number, '--add', 'Cleo'));
    expect(asked.stdout).toContain(`Asked to review Handbook #${cr.number}: Cleo Review.`);
  });

  it('2. B finds it waiting, reads the diff, comments offline on two pages, requests changes', async () => {
    ok(await b.quire('sync', '--once'));
    const inbox = ok(await b.quire('cr', 'list'));
    expect(inbox.stdout).toContain(`Handbook #${cr.number} [open] Edits from `);
    expect(inbox.stdout).toMatch(/— Dora Edit.* — waits for you: review requested\n/);
    const diff = ok(await b.quire('cr', 'diff', 'Handbook', cr.number));
    expect(diff.stdout).toContain('+ Install it with npm.');

    const comment = (page: string, body: string) =>
      b.quire('cr', 'comment', 'Handbook', cr.number, '--page', page, '--body', body);
    await offline(b, async () => {
      ok(await comment('guides/setup', 'Which npm version?'));
      ok(await comment('guides', 'Link the setup page.'));
      const listed = ok(await b.quire('cr', 'comments', 'Handbook', cr.number));
      expect(listed.stdout).toContain('2 threads, 2 with changes not sent yet.');
      const verdict = await b.quire('cr', 'review', 'Handbook', cr.number, '--request-changes');
      expect(verdict.stderr).toContain('needs a connection');
    });
    const review = ok(
      await b.quire(
        'cr',
        'review',
        'Handbook',
        cr.number,
        '--request-changes',
        '--comment',
        'Two things, see the pages.',
      ),
    );
    expect(review.stdout).toContain(
      `Requested changes on Handbook #${cr.number}, with your comment.`,
    );
    expect(ok(await b.quire('sync', '--once')).stdout).toContain('Comments: 2 changes sent.');
    expect(await serverThreads()).toEqual([
      { page: undefined, body: 'Two things, see the pages.', replies: [] },
      { page: 'p-setup', body: 'Which npm version?', replies: [] },
      { page: 'p-guides', body: 'Link the setup page.', replies: [] },
    ]);
  });

  it('3. A reads both comments, replies offline to each, pushes the fixes', async () => {
    ok(await a.quire('sync', '--once'));
    const text = ok(await a.quire('cr', 'comments', 'Handbook', cr.number));
    expect(text.stdout).toContain('Which npm version?');
    expect(text.stdout).toContain('Link the setup page.');
    const onPages = (await threads(a)).filter((thread) => thread.page !== null);
    expect(onPages.map((thread) => thread.body)).toEqual([
      'Which npm version?',
      'Link the setup page.',
    ]);
    const [npm, link] = onPages;

    await offline(a, async () => {
      ok(
        await a.quire('cr', 'reply', 'Handbook', cr.number, npm!.id, '--body', 'npm 10, said now.'),
      );
      ok(await a.quire('cr', 'reply', 'Handbook', cr.number, link!.id, '--body', 'Linked.'));
      writeFileSync(join(checkout, 'guides/setup.md'), '# Setup\n\nInstall it with npm 10.\n');
      writeFileSync(
        join(checkout, 'guides/README.md'),
        '# Guides\n\nStart with [setup](setup.md).\n',
      );
      const pending = ok(await a.quire('cr', 'comments', 'Handbook', cr.number));
      expect(pending.stdout).toContain('3 threads, 2 with changes not sent yet.');
    });
    expect(ok(await a.quire('sync', '--once')).stdout).toContain('Comments: 2 changes sent.');
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-setup')).toBe(
      '# Setup\n\nInstall it with npm 10.\n',
    );
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-guides')).toContain('[setup](');
    expect((await serverThreads()).map((thread) => thread.replies)).toEqual([
      [],
      ['npm 10, said now.'],
      ['Linked.'],
    ]);
  });

  it('4. B reads the new diff and the replies, approves', async () => {
    ok(await b.quire('sync', '--once'));
    const diff = ok(await b.quire('cr', 'diff', 'Handbook', cr.number));
    expect(diff.stdout).toContain('+ Install it with npm 10.');
    const text = ok(await b.quire('cr', 'comments', 'Handbook', cr.number));
    expect(text.stdout).toMatch(/↳ \S+ {2}Dora Edit · .*\n {6}npm 10, said now\./);
    expect(text.stdout).toMatch(/↳ \S+ {2}Dora Edit · .*\n {6}Linked\./);
    const approve = ok(await b.quire('cr', 'review', 'Handbook', cr.number, '--approve'));
    expect(approve.stdout).toContain(`Approved Handbook #${cr.number}.`);
    const { data } = await t.client(TOKENS.ada).spaces.getReviewsByChangeRequestId(SPACE, cr.id);
    expect(data.items.map((review) => review.status)).toContain('approved');
  });

  it('5. main moves through another merge: outdated; A updates from main', async () => {
    await remoteEdit(t, SPACE, [
      { operation: 'insert_page', document: { markdown: '# FAQ\n\nAsk us.\n' } },
    ]);
    ok(await b.quire('sync', '--once'));
    const shown = ok(await b.quire('cr', 'show', 'Handbook', cr.number));
    expect(shown.stdout).toContain('status: open, outdated (main moved: update from main)');
    expect(ok(await b.quire('cr', 'list')).stdout).toContain('(outdated, 3 comments)');

    const update = ok(await a.quire('cr', 'update', 'Handbook', cr.number));
    expect(update.stdout).toContain(`Updated Handbook #${cr.number} from main.`);
    expect((await onServer()).outdated).toBe(false);
    const again = ok(await a.quire('cr', 'update', 'Handbook', cr.number));
    expect(again.stdout).toContain(`Handbook #${cr.number} is up to date with main already.`);
    ok(await a.quire('sync', '--once'));
    expect(readFileSync(join(checkout, 'faq.md'), 'utf8')).toBe('# FAQ\n\nAsk us.\n');
    const fresh = ok(await a.quire('cr', 'show', 'Handbook', cr.number));
    expect(fresh.stdout).toContain('status: open\n');
  });

  it('5b. main moves again while A has an edit waiting in the checkout: one sync brings both', async () => {
    writeFileSync(
      join(checkout, 'guides/setup.md'),
      '# Setup\n\nInstall it with npm 10.\nThen run it.\n',
    );
    const listed = ok(await a.quire('cr', 'checkouts'));
    expect(listed.stdout).toContain(`Handbook #${cr.number} ${subject} (open, 1 edit pending)`);
    const status = ok(await a.quire('status'));
    expect(status.stdout).toContain(`Handbook #${cr.number} (checked out): `);
    expect(status.stdout).not.toContain('checkout:');
    await remoteEdit(t, SPACE, [
      { operation: 'insert_page', document: { markdown: '# Glossary\n\nTerms.\n' } },
    ]);
    ok(await a.quire('sync', '--once'));
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-setup')).toBe(
      '# Setup\n\nInstall it with npm 10.\nThen run it.\n',
    );
    expect(readFileSync(join(checkout, 'glossary.md'), 'utf8')).toBe('# Glossary\n\nTerms.\n');
    expect((await onServer()).outdated).toBe(false);
    const json = JSON.parse(ok(await a.quire('status', '--json')).stdout) as { pending: number };
    expect(json.pending).toBe(0);
  });

  it('6. B merges; both mirrors converge on the server, the checkout folder goes', async () => {
    const merge = ok(await b.quire('cr', 'merge', 'Handbook', cr.number));
    expect(merge.stdout).toContain(`Merged Handbook #${cr.number}: main comes with the next sync.`);
    expect((await onServer()).status).toBe(ChangeRequestStatus.Merged);
    const closed = ok(await a.quire('sync', '--once'));
    expect(closed.stdout).toContain(
      `Handbook #${cr.number} (checked out): merged or archived on the server, or its folder deleted: the checkout is gone`,
    );
    ok(await b.quire('sync', '--once'));
    expect(existsSync(checkout)).toBe(false);
    expect(existsSync(dirname(checkout))).toBe(false);
    // Nothing left to send; the merged working change request is done with.
    const status = JSON.parse(ok(await a.quire('status', '--json')).stdout) as SpaceStatusJson;
    expect(status).toMatchObject({ state: 'idle', pending: 0, conflicts: 0, problems: [] });
    expect(status.spaces.find((one) => one.id === SPACE)?.changeRequest).toBeNull();
    const checkouts = ok(await a.quire('cr', 'checkouts'));
    expect(checkouts.stdout).not.toContain(`#${cr.number}`);
    const files = filesOf(space('dora'));
    expect(filesOf(space('cleo'))).toEqual(files);
    expect(files).toEqual({
      'SUMMARY.md': expect.stringContaining('* [FAQ](faq.md)'),
      'README.md': await mainMarkdown(t, SPACE, 'p-welcome'),
      'faq.md': '# FAQ\n\nAsk us.\n',
      'glossary.md': '# Glossary\n\nTerms.\n',
      // The server keeps the link as the page's reference; the folder, as Git Sync writes it.
      'guides/README.md': '# Guides\n\nStart with [setup](setup.md).\n',
      'guides/setup.md': await mainMarkdown(t, SPACE, 'p-setup'),
    });
    expect(await mainMarkdown(t, SPACE, 'p-guides')).toBe(
      '# Guides\n\nStart with [setup](/pages/p-setup).\n',
    );
    expect(files['guides/setup.md']).toBe('# Setup\n\nInstall it with npm 10.\nThen run it.\n');
  });
});

interface SpaceStatusJson {
  spaces: { id: string; changeRequest: unknown }[];
}

/** Every file under `root` (relative path → text). */
function filesOf(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(root, path)] = readFileSync(path, 'utf8');
  }
  return files;
}
