import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../test/support/start-test-server';
import { TOKENS, testFixture } from '../../../../test/support/test-fixture';
import { CommandFailedError, type CommandError } from '../../../shared/contract/command-error';
import type { QuireEvents } from '../../../shared/contract/quire-events';
import { createQuireServices } from '../../cli/create-quire-services';
import { quireHome } from '../../config/quire-home';
import { QuireApp } from '../quire-app';

/**
 * The comment commands through QuireApp over the real services and server: Dora's change
 * request, commented on by her (queued, announced at once) and by Cleo (a notification).
 */
const SPACE = 's-handbook';
let t: TestServer;
let dir: string;
let app: QuireApp;
let number: number;

async function failure(command: Promise<unknown>): Promise<CommandError> {
  const error = await command.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CommandFailedError);
  return (error as CommandFailedError).error;
}

function collect<E extends keyof QuireEvents>(event: E): QuireEvents[E][] {
  const seen: QuireEvents[E][] = [];
  app.on(event, (payload) => seen.push(payload));
  return seen;
}

beforeAll(async () => {
  t = await startTestServer({ fixture: testFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-app-comments-'));
  const api = t.client(TOKENS.dora).spaces;
  const { data: cr } = await api.createChangeRequest(SPACE, { subject: 'Clearer setup' });
  await api.updateChangeRequestById(SPACE, cr.id, { status: ChangeRequestStatus.Open });
  number = cr.number;
  app = new QuireApp({
    services: createQuireServices(quireHome(join(dir, 'home'))),
    appInfo: { name: 'Quire', version: 'test' },
    env: {},
  });
  await app.login({ server: t.url, token: TOKENS.dora, folder: join(dir, 'mirror') });
  await app.syncNow({});
}, 60_000);

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

describe('CommentCommands', () => {
  it('queues a comment, announces it at once, and sends it with the sync', async () => {
    const changed = collect('reviewChanged');
    const thread = await app.postComment({
      space: 'Handbook',
      number,
      pageId: null,
      body: 'Ready?',
    });
    expect(thread).toMatchObject({ id: 'local-1', pending: 'create', author: { id: 'u-dora' } });
    expect(changed).toEqual([{ spaceId: SPACE, number }]);
    await app.syncNow({});
    const threads = await app.comments({ space: SPACE, number, pageId: null });
    expect(threads).toMatchObject([{ body: 'Ready?', pending: null }]);
  });

  it("notifies of Cleo's comment on Dora's change request, once", async () => {
    const notifications = collect('notification');
    const changed = collect('reviewChanged');
    await t.client(TOKENS.cleo).spaces.postCommentInChangeRequest(SPACE, String(number), {
      body: { markdown: 'Yes, one typo' } as never,
    });
    await app.syncNow({});
    await app.syncNow({});
    expect(notifications).toEqual([
      {
        kind: 'comment',
        spaceId: SPACE,
        number,
        title: `Cleo Review commented on #${number} Clearer setup`,
        body: 'Yes, one typo',
      },
    ]);
    expect(changed).toEqual([{ spaceId: SPACE, number }]);
  });

  it('fails with typed errors for an unknown comment or change request', async () => {
    const ref = { space: SPACE, number, commentId: 'c-none', replyId: null };
    expect(await failure(app.editComment({ ...ref, body: 'x' }))).toMatchObject({
      kind: 'unknown-comment',
      commentId: 'c-none',
    });
    expect(await failure(app.comments({ space: SPACE, number: 404, pageId: null }))).toMatchObject({
      kind: 'unknown-change-request',
      number: 404,
    });
    expect(
      await failure(app.comments({ space: 'Nowhere', number: null, pageId: null })),
    ).toMatchObject({ kind: 'unknown-change-request', space: 'Nowhere' });
    const cleos = (await app.comments({ space: SPACE, number, pageId: null })).find(
      (thread) => thread.author.id === 'u-cleo',
    )!;
    const edit = app.editComment({ ...ref, commentId: cleos.id, body: 'Mine now' });
    expect(await failure(edit)).toMatchObject({ kind: 'invalid-argument', field: 'commentId' });
  });
});
