import { ChangeRequestStatus } from '@gitbook/api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalComments } from '../../src/main/comments/local-comments';
import { WorkspaceCommentRemote } from '../../src/main/comments/workspace-comment-remote';
import { DELETED_REMOTELY } from '../../src/main/comments/drain-comment-outbox';
import { WorkspaceChangeRequestRemote } from '../../src/main/change-requests/workspace-change-request-remote';
import { WorkspaceOutboxRemote } from '../../src/main/outbox/workspace-outbox-remote';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { SyncEngine } from '../../src/main/sync/sync-engine';
import type { CommentsRef } from '../../src/shared/contract/review';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { engineFor, type EngineKit } from './sync-test-kit';

/**
 * Comments through the comment outbox against the real server, with real cache files: Dora
 * comments on her change request offline, then syncs; Cleo comments and replies on the server.
 */
let t: TestServer;
let number: number;
let ref: CommentsRef;
const SPACE = 's-handbook';

beforeAll(async () => {
  t = await startTestServer({ fixture: testFixture() });
  const api = t.client(TOKENS.dora).spaces;
  const { data: cr } = await api.createChangeRequest(SPACE, { subject: 'Clearer setup' });
  await api.updateChangeRequestById(SPACE, cr.id, { status: ChangeRequestStatus.Open });
  number = cr.number;
  ref = { space: SPACE, number };
}, 60_000);

afterAll(async () => {
  await t.close();
});

/** Dora's engine: pushes, mirrors change requests at every run, syncs comments. */
interface DoraKit {
  kit: EngineKit;
  engine: SyncEngine;
  local: LocalComments;
  offline: { value: boolean };
  /** Fetches that reach the server but whose answers are lost (a crash before the ack). */
  loseAnswers: { value: number };
}

function doraEngine(kit: EngineKit): DoraKit {
  const offline = { value: false };
  const loseAnswers = { value: 0 };
  const faulty: typeof fetch = async (input, init) => {
    if (offline.value) throw new TypeError('fetch failed');
    const response = await fetch(input, init);
    const method = init?.method ?? 'GET';
    if (method === 'POST' && loseAnswers.value > 0 && String(input).includes('/comments')) {
      loseAnswers.value--;
      throw new TypeError('fetch failed');
    }
    return response;
  };
  const client = new WorkspaceClient({
    endpoint: t.url,
    token: TOKENS.dora,
    fetch: faulty,
    http: { maxAttempts: 1 },
  });
  const engine = new SyncEngine({
    cache: kit.cache,
    remote: client,
    folder: kit.folder,
    clock: { now: () => new Date() },
    push: { remote: new WorkspaceOutboxRemote(client), deviceName: 'test', maxOfflineWaits: 0 },
    changeRequests: { remote: new WorkspaceChangeRequestRemote(client), intervalMs: 0 },
    comments: { remote: new WorkspaceCommentRemote(client), userId: 'u-dora' },
  });
  const user = { id: 'u-dora', displayName: 'Dora Edit' };
  const local = new LocalComments(kit.cache, user, () => new Date().toISOString());
  return { kit, engine, local, offline, loseAnswers };
}

async function serverThreads() {
  const api = t.client(TOKENS.ada).spaces;
  const { data } = await api.listCommentsInChangeRequest(SPACE, String(number), { order: 'asc' });
  return Promise.all(
    data.items.map(async (comment) => {
      const replies = await api.listCommentRepliesInChangeRequest(
        SPACE,
        String(number),
        comment.id,
      );
      return {
        id: comment.id,
        body: (comment.body as unknown as { markdown: string }).markdown,
        status: comment.status,
        reactions: comment.reactions.map((reaction) => reaction.emoji),
        replies: replies.data.items.map(
          (reply) => (reply.body as unknown as { markdown: string }).markdown,
        ),
      };
    }),
  );
}

async function deleteAllComments(): Promise<void> {
  const api = t.client(TOKENS.ada).spaces;
  for (const comment of await serverThreads()) {
    await api.deleteCommentInChangeRequest(SPACE, String(number), comment.id);
  }
}

let dora: DoraKit;
beforeEach(async () => {
  await deleteAllComments();
  dora = doraEngine(engineFor(t, TOKENS.dora));
  const first = await dora.engine.syncOnce();
  expect(first.errors).toEqual([]);
}, 60_000);
afterEach(() => dora.kit.close());

describe('comments through the outbox', () => {
  it('shows changes made offline at once as pending, then sends each exactly once', async () => {
    dora.offline.value = true;
    const thread = dora.local.post(ref, null, 'First!');
    expect(thread).toMatchObject({ id: 'local-1', pending: 'create', body: 'First!' });
    const reply = dora.local.reply(ref, thread.id, 'And a reply');
    dora.local.edit({ ...ref, commentId: thread.id, replyId: null }, 'First, edited');
    dora.local.react({ ...ref, commentId: thread.id, replyId: null }, '👍', true);
    dora.local.resolve({ ...ref, commentId: thread.id }, true);
    dora.local.edit({ ...ref, commentId: thread.id, replyId: reply.id }, 'A better reply');
    const shown = dora.local.threads(ref);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      body: 'First, edited',
      pending: 'create',
      resolved: true,
      reactions: [{ emoji: '👍', count: 1, mine: true }],
    });
    expect(shown[0]!.replies).toMatchObject([{ body: 'A better reply', pending: 'create' }]);

    const offlineRun = await dora.engine.syncOnce();
    expect(offlineRun.offline).toBe(true);
    expect(await serverThreads()).toEqual([]);

    dora.offline.value = false;
    const online = await dora.engine.syncOnce();
    expect(online.comments?.sent).toBe(6);
    expect(await serverThreads()).toMatchObject([
      { body: 'First, edited', status: 'resolved', reactions: ['👍'], replies: ['A better reply'] },
    ]);
    const after = dora.local.threads(ref);
    expect(after[0]).toMatchObject({ pending: null, body: 'First, edited', resolved: true });
    expect(after[0]!.id).not.toMatch(/^local-/);
    expect(after[0]!.replies).toMatchObject([{ pending: null, body: 'A better reply' }]);
  });

  it('posts once when the answer to the POST is lost, resent by a later run', async () => {
    dora.local.post(ref, null, 'Only once');
    dora.loseAnswers.value = 1;
    const lost = await dora.engine.syncOnce();
    expect(lost.comments?.sent).toBe(0);
    expect(dora.local.threads(ref)[0]).toMatchObject({ pending: 'create' });
    // The server has it already; the resend carries the same Idempotency-Key.
    expect((await serverThreads()).map((c) => c.body)).toEqual(['Only once']);
    const again = await dora.engine.syncOnce();
    expect(again.comments?.sent).toBe(1);
    expect((await serverThreads()).map((c) => c.body)).toEqual(['Only once']);
    expect(dora.local.threads(ref)).toMatchObject([{ body: 'Only once', pending: null }]);
  });

  it('keeps and reports an edit of a comment deleted on the server', async () => {
    const api = t.client(TOKENS.dora).spaces;
    const { data: posted } = await api.postCommentInChangeRequest(SPACE, String(number), {
      body: { markdown: 'Draft note' } as never,
    });
    await dora.engine.syncOnce();
    dora.local.edit({ ...ref, commentId: posted.id, replyId: null }, 'My careful rewrite');
    await api.deleteCommentInChangeRequest(SPACE, String(number), posted.id);
    const run = await dora.engine.syncOnce();
    expect(run.comments?.refused).toHaveLength(1);
    expect(dora.local.threads(ref)).toMatchObject([
      { id: posted.id, body: 'My careful rewrite', pending: 'edit', problem: DELETED_REMOTELY },
    ]);
    // Until the user gives it up.
    dora.local.remove({ ...ref, commentId: posted.id, replyId: null });
    expect(dora.local.threads(ref)).toEqual([]);
  });

  it('sends the others when the server refuses one', async () => {
    dora.local.post(ref, 'p-nowhere', 'On a page that is not there');
    dora.local.post(ref, null, 'Fine');
    const run = await dora.engine.syncOnce();
    expect(run.comments?.sent).toBe(1);
    expect(run.comments?.refused).toEqual([expect.stringContaining('p-nowhere')]);
    expect((await serverThreads()).map((c) => c.body)).toEqual(['Fine']);
    const threads = dora.local.threads(ref);
    expect(threads.find((c) => c.body === 'On a page that is not there')).toMatchObject({
      pending: 'create',
      problem: expect.stringContaining('p-nowhere'),
    });
    // Refused, it stays refused: not sent again by the next run.
    expect((await dora.engine.syncOnce()).comments?.sent).toBe(0);
    // Deleting it gives it up: nothing of it is left queued.
    const refused = threads.find((c) => c.problem !== null)!;
    dora.local.remove({ ...ref, commentId: refused.id, replyId: null });
    expect(dora.local.threads(ref).map((c) => c.body)).toEqual(['Fine']);
    expect(dora.kit.cache.prepare('SELECT count(*) AS n FROM comment_outbox').get()).toEqual({
      n: 0,
    });
  });

  it('notifies once of a new comment on her change request and of a reply to her', async () => {
    const cleo = t.client(TOKENS.cleo).spaces;
    const { data: comment } = await cleo.postCommentInChangeRequest(SPACE, String(number), {
      body: { markdown: 'Please  explain\nthe second step' } as never,
    });
    const first = await dora.engine.syncOnce();
    expect(first.comments?.notifications).toEqual([
      {
        kind: 'comment',
        spaceId: SPACE,
        number,
        title: `Cleo Review commented on #${number} Clearer setup`,
        body: 'Please explain the second step',
      },
    ]);
    expect(first.comments?.changed).toEqual([{ spaceId: SPACE, changeRequest: number }]);
    expect((await dora.engine.syncOnce()).comments?.notifications).toEqual([]);

    dora.local.post(ref, null, 'Mine');
    await dora.engine.syncOnce();
    const mine = dora.local.threads(ref).find((c) => c.body === 'Mine')!;
    await cleo.postCommentReplyInChangeRequest(SPACE, String(number), mine.id, {
      body: { markdown: 'Agreed' } as never,
    });
    await cleo.postCommentReplyInChangeRequest(SPACE, String(number), comment.id, {
      body: { markdown: 'On my own comment: no notification' } as never,
    });
    const replies = await dora.engine.syncOnce();
    expect(replies.comments?.notifications).toMatchObject([{ kind: 'reply', body: 'Agreed' }]);
    expect((await dora.engine.syncOnce()).comments?.notifications).toEqual([]);
  });
});
