import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSwitchableProxy, type SwitchableProxy } from '../support/switchable-proxy';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { inProcessQuire, type QuireRun } from './in-process-quire';
import { remoteEdit } from './sync-test-kit';

/**
 * `quire cr subject|ready|archive|review|reviewers|update|merge|pdf` over the real services and
 * the real server (behind a proxy that can cut it): Dora is the author, Cleo the reviewer.
 */
const SPACE = 's-handbook';
let t: TestServer;
let proxy: SwitchableProxy;
let dir: string;
let dora: (...args: string[]) => Promise<QuireRun>;
let cleo: (...args: string[]) => Promise<QuireRun>;
let setup: { number: string; id: string };
let archived: { number: string; id: string };

async function draft(subject: string, page: string, markdown: string) {
  const api = t.client(TOKENS.dora).spaces;
  const { data: cr } = await api.createChangeRequest(SPACE, { subject });
  await api.updateChangeRequestContent(
    SPACE,
    cr.id,
    { changes: [{ operation: 'update_page', page, document: { markdown } }] },
    { compat: false },
  );
  return { number: String(cr.number), id: cr.id };
}

async function onServer(cr: { id: string }) {
  return (await t.client(TOKENS.ada).spaces.getChangeRequestById(SPACE, cr.id)).data;
}

function ok(run: QuireRun): QuireRun {
  expect(run.code, run.stderr).toBe(0);
  return run;
}

beforeAll(async () => {
  t = await startTestServer({ fixture: testFixture() });
  proxy = await startSwitchableProxy(t.url);
  dir = mkdtempSync(join(tmpdir(), 'quire-review-cli-'));
  setup = await draft('Clearer setup', 'p-setup', '# Setup\n\nInstall it with npm.\n');
  archived = await draft('Not needed', 'p-welcome', '# Welcome\n\nHi.\n');
  dora = inProcessQuire(dir, 'dora');
  cleo = inProcessQuire(dir, 'cleo');
  const login = (token: string, folder: string) =>
    ['login', '--server', proxy.url, '--token', token, '--folder', join(dir, folder)] as const;
  ok(await dora(...login(TOKENS.dora, 'dora-mirror')));
  ok(await cleo(...login(TOKENS.cleo, 'cleo-mirror')));
  ok(await dora('sync', '--once'));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('quire cr review actions', () => {
  it('renames, marks ready and archives', async () => {
    const subject = ok(await dora('cr', 'subject', 'Handbook', setup.number, 'Clearer', 'setup'));
    expect(subject.stdout).toContain(`Subject of Handbook #${setup.number} set to "Clearer setup"`);
    ok(await dora('cr', 'subject', 'Handbook', setup.number, 'Setup with npm'));
    const ready = ok(await dora('cr', 'ready', 'Handbook', setup.number));
    expect(ready.stdout).toContain(`Handbook #${setup.number} is ready for review`);
    expect(await onServer(setup)).toMatchObject({
      subject: 'Setup with npm',
      status: ChangeRequestStatus.Open,
    });
    ok(await dora('cr', 'archive', 'Handbook', archived.number));
    expect((await onServer(archived)).status).toBe(ChangeRequestStatus.Archived);
  });

  it('lists, asks and unasks reviewers; says who is unknown', async () => {
    const none = ok(await dora('cr', 'reviewers', 'Handbook', setup.number));
    expect(none.stdout).toContain(`Nobody is asked to review Handbook #${setup.number}.`);
    const add = ok(
      await dora(
        'cr',
        'reviewers',
        'Handbook',
        setup.number,
        '--add',
        'cleo@acme.test,Finn Comment',
      ),
    );
    expect(add.stdout).toContain(
      `Asked to review Handbook #${setup.number}: Cleo Review, Finn Comment.`,
    );
    const remove = ok(
      await dora('cr', 'reviewers', 'Handbook', setup.number, '--remove', 'u-finn'),
    );
    expect(remove.stdout).toContain(`Asked to review Handbook #${setup.number}: Cleo Review.`);
    const unknown = await dora('cr', 'reviewers', 'Handbook', setup.number, '--add', 'Zed');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('nobody in the organization is "Zed"');
  });

  it('reviews with a comment; refuses a review of one’s own and a bad command line', async () => {
    const own = await dora('cr', 'review', 'Handbook', setup.number, '--approve');
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('the server refused: You cannot review your own change request');
    expect((await cleo('cr', 'review', 'Handbook', setup.number)).code).toBe(2);
    ok(await cleo('sync', '--once'));
    const review = ok(
      await cleo(
        'cr',
        'review',
        'Handbook',
        setup.number,
        '--request-changes',
        '--comment',
        'Which npm?',
      ),
    );
    expect(review.stdout).toContain(
      `Requested changes on Handbook #${setup.number}, with your comment.`,
    );
  });

  it('refuses merge and update offline, nothing queued', async () => {
    proxy.cut();
    try {
      const merge = await cleo('cr', 'merge', 'Handbook', setup.number);
      expect(merge.code).toBe(1);
      expect(merge.stderr).toContain(
        `Merging needs a connection to ${proxy.url}; nothing was queued`,
      );
      const update = await dora('cr', 'update', 'Handbook', setup.number);
      expect(update.stderr).toContain('Updating from main needs a connection');
    } finally {
      proxy.restore();
    }
    ok(await cleo('sync', '--once'));
    expect((await onServer(setup)).status).toBe(ChangeRequestStatus.Open);
  });

  it('prints the pages of a conflicting merge and exits 2; updates and merges once clear', async () => {
    const update = ok(await dora('cr', 'update', 'Handbook', setup.number));
    expect(update.stdout).toContain(`Handbook #${setup.number} is up to date with main already.`);
    await remoteEdit(t, SPACE, [
      {
        operation: 'update_page',
        page: 'p-setup',
        document: { markdown: '# Setup\n\nUse yarn.\n' },
      },
    ]);
    const merge = await cleo('cr', 'merge', 'Handbook', setup.number);
    expect(merge.code, merge.stderr).toBe(2);
    expect(merge.stdout).toContain(
      `Handbook #${setup.number} was not merged: 1 page changed on both sides:\n  Setup (guides/setup)`,
    );
  });

  it('shows what the server refuses in its words: merging an archived change request', async () => {
    ok(await cleo('cr', 'pin', 'Handbook', archived.number));
    ok(await cleo('sync', '--once'));
    const merge = await cleo('cr', 'merge', 'Handbook', archived.number);
    expect(merge.code).toBe(1);
    expect(merge.stderr).toContain(
      `Change request ${archived.number} is archived: it cannot be merged (set its status to open or draft first)`,
    );
  });

  it('saves the PDF to --out, never overwriting', async () => {
    const first = ok(await dora('cr', 'pdf', 'Handbook', setup.number, '--out', 'setup.pdf'));
    expect(first.stdout).toContain(
      `Saved Handbook #${setup.number} as ${join(dir, 'setup.pdf')} (`,
    );
    const second = ok(
      await dora('cr', 'pdf', 'Handbook', setup.number, '--out', 'setup.pdf', '--page', 'p-setup'),
    );
    expect(second.stdout).toContain(join(dir, 'setup (2).pdf'));
    expect(readFileSync(join(dir, 'setup (2).pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
