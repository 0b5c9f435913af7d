import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { quireHome } from '../../src/main/config/quire-home';
import { QuireApp } from '../../src/main/app/quire-app';
import type { ChangeRequestRef } from '../../src/shared/contract/change-requests';
import { CommandFailedError, type CommandError } from '../../src/shared/contract/command-error';
import type { QuireEvents } from '../../src/shared/contract/quire-events';
import { startSwitchableProxy, type SwitchableProxy } from '../support/switchable-proxy';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { remoteEdit } from './sync-test-kit';

/**
 * The review actions through QuireApp over the real services and the real server, reached through
 * a proxy that can cut the connection: Dora (the author) renames, marks ready and asks reviewers;
 * Cleo (a reviewer) reviews and merges; offline, what needs the server is refused and nothing is
 * queued, while a subject and a status wait for the next sync.
 */
const SPACE = 's-handbook';
let t: TestServer;
let proxy: SwitchableProxy;
let dir: string;
let dora: QuireApp;
let cleo: QuireApp;
/** Edits the setup page (conflicts once main edits it too); starts as a draft. */
let setup: ChangeRequestRef & { id: string };
/** Edits the welcome page only; starts as a draft. */
let welcome: ChangeRequestRef & { id: string };

function newApp(home: string): QuireApp {
  return new QuireApp({
    services: createQuireServices(quireHome(join(dir, home))),
    appInfo: { name: 'Quire', version: 'test' },
    env: {},
  });
}

async function failure(command: Promise<unknown>): Promise<CommandError> {
  const error = await command.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CommandFailedError);
  return (error as CommandFailedError).error;
}

function collect<E extends keyof QuireEvents>(app: QuireApp, event: E): QuireEvents[E][] {
  const seen: QuireEvents[E][] = [];
  app.on(event, (payload) => seen.push(payload));
  return seen;
}

async function draft(subject: string, page: string, markdown: string) {
  const api = t.client(TOKENS.dora).spaces;
  const { data: cr } = await api.createChangeRequest(SPACE, { subject });
  await api.updateChangeRequestContent(
    SPACE,
    cr.id,
    { changes: [{ operation: 'update_page', page, document: { markdown } }] },
    { compat: false },
  );
  return { space: 'Handbook', number: cr.number, id: cr.id };
}

async function onServer(cr: { id: string }) {
  return (await t.client(TOKENS.ada).spaces.getChangeRequestById(SPACE, cr.id)).data;
}

beforeAll(async () => {
  const fixture = testFixture();
  // A second "Cleo Review": a display name alone cannot say which one is meant.
  fixture.users.push({ id: 'u-cleo-two', displayName: 'Cleo Review', email: 'cleo.two@acme.test' });
  fixture.organizations[0]!.members!.push({ user: 'u-cleo-two', role: 'comment' });
  t = await startTestServer({ fixture });
  proxy = await startSwitchableProxy(t.url);
  dir = mkdtempSync(join(tmpdir(), 'quire-review-actions-'));
  setup = await draft('Clearer setup', 'p-setup', '# Setup\n\nInstall it with npm.\n');
  welcome = await draft('Welcome tweak', 'p-welcome', '# Welcome\n\nHello, reader.\n');
  dora = newApp('dora');
  cleo = newApp('cleo');
  await dora.login({ server: proxy.url, token: TOKENS.dora, folder: join(dir, 'dora-mirror') });
  await cleo.login({ server: proxy.url, token: TOKENS.cleo, folder: join(dir, 'cleo-mirror') });
  await dora.syncNow({});
}, 60_000);

afterAll(async () => {
  await dora?.close();
  await cleo?.close();
  await proxy?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('review actions', () => {
  it('renames a change request and marks it ready, sent at once and shown', async () => {
    const changed = collect(dora, 'reviewChanged');
    expect(await dora.setChangeRequestSubject({ ...setup, subject: 'Clearer setup guide' })).toBe(
      'sent',
    );
    expect(await dora.setChangeRequestStatus({ ...setup, status: 'open' })).toBe('sent');
    const detail = await dora.changeRequest(setup);
    expect(detail).toMatchObject({ subject: 'Clearer setup guide', status: 'open' });
    expect(await onServer(setup)).toMatchObject({
      subject: 'Clearer setup guide',
      status: ChangeRequestStatus.Open,
    });
    expect(changed).toEqual([
      { spaceId: SPACE, number: setup.number },
      { spaceId: SPACE, number: setup.number },
    ]);
  });

  it('asks and unasks reviewers by email or name; an unknown or ambiguous one is refused', async () => {
    const reviewers = async () =>
      (await dora.changeRequest(setup)).requestedReviewers.map((r) => r.user.id).sort();
    await dora.setReviewers({ ...setup, add: ['cleo@acme.test', 'Finn Comment'], remove: [] });
    expect(await reviewers()).toEqual(['u-cleo', 'u-finn']);
    await dora.setReviewers({ ...setup, add: [], remove: ['finn comment'] });
    expect(await reviewers()).toEqual(['u-cleo']);

    const unknown = await failure(dora.setReviewers({ ...setup, add: ['Zed Nobody'], remove: [] }));
    expect(unknown).toMatchObject({ kind: 'invalid-argument', field: 'reviewers' });
    expect(unknown.message).toContain('nobody in the organization is "Zed Nobody"');
    const ambiguous = await failure(
      dora.setReviewers({ ...setup, add: ['u-finn', 'Cleo Review'], remove: [] }),
    );
    expect(ambiguous.message).toBe(
      '"Cleo Review" names 2 members (cleo.two@acme.test, cleo@acme.test): give an email or a user id',
    );
    // Nothing was sent: Finn (named first, resolvable) was not asked either.
    expect(await reviewers()).toEqual(['u-cleo']);
  });

  it('submits verdicts with a comment; the server refuses a review of one’s own', async () => {
    const own = await failure(
      dora.reviewChangeRequest({ ...setup, verdict: 'approved', comment: null }),
    );
    expect(own).toEqual({
      kind: 'forbidden',
      message: 'You cannot review your own change request',
    });

    await cleo.syncNow({});
    const detail = await cleo.reviewChangeRequest({
      ...setup,
      verdict: 'changes-requested',
      comment: 'Say which npm version.',
    });
    expect(detail.reviews).toEqual([
      expect.objectContaining({
        reviewer: { id: 'u-cleo', displayName: 'Cleo Review' },
        status: 'changes-requested',
      }),
    ]);
    expect(detail.requestedReviewers).toEqual([]);
    const comments = await t.request(
      'GET',
      `/v1/spaces/${SPACE}/change-requests/${setup.id}/comments`,
      TOKENS.ada,
    );
    expect(JSON.stringify(await comments.json())).toContain('Say which npm version.');
  });

  it('shows a merge and an update that conflict with the pages concerned', async () => {
    await remoteEdit(t, SPACE, [
      {
        operation: 'update_page',
        page: 'p-setup',
        document: { markdown: '# Setup\n\nInstall it with yarn.\n' },
      },
    ]);
    const conflict = {
      result: 'conflicts',
      pages: [{ pageId: 'p-setup', title: 'Setup', path: 'guides/setup' }],
    };
    expect(await cleo.mergeChangeRequest(setup)).toEqual(conflict);
    expect(await dora.updateChangeRequest(setup)).toEqual(conflict);
    expect((await onServer(setup)).status).toBe(ChangeRequestStatus.Open);
  });

  it('refuses merge, update, verdicts and reviewers offline, queuing nothing', async () => {
    proxy.cut();
    try {
      const needs = (what: string) => ({
        kind: 'offline',
        message: `${what} needs a connection to ${proxy.url}; nothing was queued`,
      });
      expect(await failure(cleo.mergeChangeRequest(setup))).toEqual(needs('Merging'));
      expect(await failure(dora.updateChangeRequest(setup))).toEqual(needs('Updating from main'));
      expect(
        await failure(cleo.reviewChangeRequest({ ...setup, verdict: 'approved', comment: null })),
      ).toEqual(needs('Approving'));
      expect(await failure(dora.setReviewers({ ...setup, add: ['u-finn'], remove: [] }))).toEqual(
        needs('Changing reviewers'),
      );
    } finally {
      proxy.restore();
    }
    await cleo.syncNow({});
    await dora.syncNow({});
    expect(await onServer(setup)).toMatchObject({ status: ChangeRequestStatus.Open });
    expect((await dora.changeRequest(setup)).reviews).toHaveLength(1);
    expect((await dora.changeRequest(setup)).requestedReviewers).toEqual([]);
  });

  it('queues a subject and "ready" offline, shows them at once, and sends them on the next sync', async () => {
    proxy.cut();
    try {
      expect(await dora.setChangeRequestSubject({ ...welcome, subject: 'Warmer welcome' })).toBe(
        'queued',
      );
      expect(await dora.setChangeRequestStatus({ ...welcome, status: 'open' })).toBe('queued');
      expect(await dora.changeRequest(welcome)).toMatchObject({
        subject: 'Warmer welcome',
        status: 'open',
      });
    } finally {
      proxy.restore();
    }
    expect(await onServer(welcome)).toMatchObject({
      subject: 'Welcome tweak',
      status: ChangeRequestStatus.Draft,
    });
    await dora.syncNow({});
    expect(await onServer(welcome)).toMatchObject({
      subject: 'Warmer welcome',
      status: ChangeRequestStatus.Open,
    });
    // Sent once: a second sync has nothing left to send.
    await dora.syncNow({});
    expect(await dora.changeRequest(welcome)).toMatchObject({ subject: 'Warmer welcome' });
  });

  it('merges; the mirror says merged and the next sync brings main', async () => {
    await cleo.syncNow({});
    const merged = await cleo.mergeChangeRequest(welcome);
    expect(merged).toMatchObject({ result: 'merge' });
    expect((await cleo.changeRequest(welcome)).status).toBe('merged');
    await cleo.syncNow({});
    const space = (await cleo.spaceStatuses({})).find((item) => item.id === SPACE)!;
    const readme = readFileSync(join(dir, 'cleo-mirror', space.folder, 'README.md'), 'utf8');
    expect(readme).toContain('Hello, reader.');
  });

  it('keeps a queued change the server refuses, and says so in the activity log', async () => {
    proxy.cut();
    try {
      // Dora's mirror still has it open: the merge is news to her.
      await dora.setChangeRequestStatus({ ...welcome, status: 'draft' });
    } finally {
      proxy.restore();
    }
    await dora.syncNow({});
    expect((await onServer(welcome)).status).toBe(ChangeRequestStatus.Merged);
    const [latest] = (await dora.activity({ limit: 20 })).filter(
      (entry) => entry.kind === 'failed',
    );
    expect(latest).toMatchObject({
      spaceId: SPACE,
      spaceTitle: 'Handbook',
      summary:
        `The server refused the status draft of change request #${welcome.number}, set offline: ` +
        `Change request ${welcome.number} is merged: its status cannot change (kept queued, not sent again)`,
    });
  });

  it('saves the PDF without ever overwriting, to a file or to Downloads', async () => {
    const file = join(dir, 'setup.pdf');
    const first = await dora.exportChangeRequestPdf({ ...setup, pageId: null, file });
    expect(first.file).toBe(file);
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(first.bytes).toBe(readFileSync(file).length);
    const second = await dora.exportChangeRequestPdf({ ...setup, pageId: 'p-setup', file });
    expect(second.file).toBe(join(dir, 'setup (2).pdf'));
    expect(readFileSync(file).length).toBe(first.bytes);

    const home = join(dir, 'user-home');
    mkdirSync(join(home, 'Downloads'), { recursive: true });
    const previous = process.env['HOME'];
    process.env['HOME'] = home;
    try {
      const saved = await dora.exportChangeRequestPdf({ ...setup, pageId: null, file: null });
      const name = `Handbook #${setup.number} Clearer setup guide.pdf`;
      expect(saved.file).toBe(join(home, 'Downloads', name));
      expect(readdirSync(join(home, 'Downloads'))).toEqual([name]);
    } finally {
      process.env['HOME'] = previous;
    }
    const relative = await failure(
      dora.exportChangeRequestPdf({ ...setup, pageId: null, file: 'setup.pdf' }),
    );
    expect(relative).toMatchObject({ kind: 'invalid-argument', field: 'file' });
    expect(readdirSync(dir).filter((name) => name.includes('.part'))).toEqual([]);
  });
});
