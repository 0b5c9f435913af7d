import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPIError, type Comment, type CommentReply } from '@gitbook/api';
import { ManualClock } from '../../src/server/clock';
import { RevisionStore } from '../../src/server/content/revision-store';
import type { RevisionTree } from '../../src/server/content/revision-tree';
import {
  ChangeRequestQueries,
  type ChangeRequestRow,
} from '../../src/server/resources/change-requests/change-request-queries';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

/**
 * The standard workspace plus two spaces of this file's own, so counts and lists there depend on
 * these tests only: `s-talk` (two pages, for filters) and `s-flood` (for the pagination walk).
 */
function commentFixture() {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    {
      id: 's-talk',
      title: 'Talk',
      pages: [
        { id: 'p-talk-a', title: 'Alpha', markdown: '# Alpha\n\nA.\n' },
        { id: 'p-talk-b', title: 'Beta', markdown: '# Beta\n\nB.\n' },
      ],
    },
    {
      id: 's-flood',
      title: 'Flood',
      pages: [{ id: 'p-flood', title: 'Flood', markdown: '# F\n' }],
    },
  );
  return fixture;
}

const clock = new ManualClock('2026-02-01T09:00:00.000Z');
let t: TestServer;
let cr: ChangeRequestRow;

beforeAll(async () => {
  t = await startTestServer({ fixture: commentFixture(), clock });
  // A change request whose content has one page more than the space (`p-cr-only`).
  const store = new RevisionStore(t.db);
  const spaceRevision = (
    t.db.prepare('SELECT revision_id FROM spaces WHERE id = ?').get('s-handbook') as {
      revision_id: string;
    }
  ).revision_id;
  const tree = store.tree(spaceRevision) as RevisionTree;
  const now = clock.now().toISOString();
  tree.pages.push({
    id: 'p-cr-only',
    type: 'document',
    title: 'Draft page',
    slug: 'draft-page',
    body: store.putBody('# Draft page\n'),
    createdAt: now,
    updatedAt: now,
    pages: [],
  });
  const queries = new ChangeRequestQueries(t.db);
  const created = queries.create('s-handbook', 'u-dora', 'Proposal', spaceRevision, now);
  queries.setRevision(
    created.id,
    store.create('s-handbook', tree, [spaceRevision], 'edits', now),
    now,
  );
  cr = queries.find('s-handbook', created.id)!;
});
afterAll(async () => {
  await t.close();
});

/** Every write moves the clock, so posting order is the time order. */
function tick() {
  clock.advance(1000);
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitBookAPIError);
  return (error as GitBookAPIError).code;
}

async function post(token: string, spaceId: string, markdown: string, page?: string) {
  tick();
  const { data } = await t
    .client(token)
    .spaces.postCommentInSpace(spaceId, { body: { markdown }, ...(page ? { page } : {}) });
  return data;
}

const markdownOf = (item: Comment | CommentReply) => (item.body as { markdown: string }).markdown;

async function spaceComments(spaceId = 's-handbook') {
  return (await t.client(TOKENS.ada).spaces.getSpaceById(spaceId)).data.comments;
}

describe('space comments', () => {
  it('posts a comment on a page and answers the Comment resource', async () => {
    const before = await spaceComments();
    const comment = await post(TOKENS.ada, 's-handbook', 'Looks **good**', 'p-setup');
    expect(comment).toMatchObject({
      object: 'comment',
      postedBy: { object: 'user', id: 'u-ada', displayName: 'Ada Lovelace' },
      postedAt: clock.now().toISOString(),
      reactions: [],
      replies: 0,
      repliers: [],
      body: { markdown: 'Looks **good**' },
      status: 'open',
      target: {
        space: 's-handbook',
        page: { id: 'p-setup', title: 'Setup', path: 'guides/setup', outdated: false },
      },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(comment.postedBy.urls.location).toBe(`${t.url}/v1/users/u-ada`);
    expect(comment.target.revision).toMatch(/\S/);
    expect(comment.target.changeRequest).toBeUndefined();
    expect(comment).not.toHaveProperty('resolvedAt');
    expect(comment).not.toHaveProperty('resolvedBy');
    expect(comment).not.toHaveProperty('editedAt');
    expect(comment.urls.location).toBe(`${t.url}/v1/spaces/s-handbook/comments/${comment.id}`);
    expect(await spaceComments()).toBe(before + 1);

    const { data: read } = await t
      .client(TOKENS.cara)
      .spaces.getCommentInSpace('s-handbook', comment.id);
    expect(read.id).toBe(comment.id);
    expect(read.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    const { data: doc } = await t
      .client(TOKENS.ada)
      .spaces.getCommentInSpace('s-handbook', comment.id, { format: 'document' });
    expect(doc.body).toMatchObject({ document: { object: 'document' } });
    expect(doc.body).not.toHaveProperty('markdown');
  });

  it('posts a comment without a page, and one on a node', async () => {
    const plain = await post(TOKENS.finn, 's-handbook', 'General remark');
    expect(plain.target.page).toBeUndefined();
    tick();
    const { data: onNode } = await t.client(TOKENS.finn).spaces.postCommentInSpace('s-handbook', {
      body: { markdown: 'This paragraph' },
      page: 'p-welcome',
      node: 'node-1',
    });
    expect(onNode.target.node).toEqual({ id: 'node-1' });
    expect(onNode.target.page?.id).toBe('p-welcome');
  });

  it('resolves and reopens a comment, keeping the space count of open comments true', async () => {
    const comment = await post(TOKENS.ada, 's-handbook', 'Please fix');
    const open = await spaceComments();
    tick();
    const { data: resolved } = await t
      .client(TOKENS.finn)
      .spaces.updateCommentInSpace('s-handbook', comment.id, { resolved: true });
    expect(resolved.status).toBe('resolved');
    if (resolved.status !== 'resolved') throw new Error('not resolved');
    expect(resolved.resolvedAt).toBe(clock.now().toISOString());
    expect(resolved.resolvedBy.id).toBe('u-finn');
    expect(await spaceComments()).toBe(open - 1);

    tick();
    const { data: reopened } = await t
      .client(TOKENS.ada)
      .spaces.updateCommentInSpace('s-handbook', comment.id, { resolved: false });
    expect(reopened.status).toBe('open');
    expect(reopened).not.toHaveProperty('resolvedAt');
    expect(reopened).not.toHaveProperty('resolvedBy');
    expect(await spaceComments()).toBe(open);

    // Resolving needs the comment role.
    expect(
      await statusOf(
        t.client(TOKENS.cara).spaces.updateCommentInSpace('s-handbook', comment.id, {
          resolved: true,
        }),
      ),
    ).toBe(403);
  });

  it('lets only the author edit the text, and marks it edited', async () => {
    const comment = await post(TOKENS.ada, 's-handbook', 'Typo here');
    tick();
    const { data } = await t
      .client(TOKENS.ada)
      .spaces.updateCommentInSpace('s-handbook', comment.id, { body: { markdown: 'Typo there' } });
    expect(markdownOf(data)).toBe('Typo there');
    expect(data.editedAt).toBe(clock.now().toISOString());
    expect(
      await statusOf(
        t.client(TOKENS.finn).spaces.updateCommentInSpace('s-handbook', comment.id, {
          body: { markdown: 'Hijacked' },
        }),
      ),
    ).toBe(403);
    const { data: finnView } = await t
      .client(TOKENS.finn)
      .spaces.getCommentInSpace('s-handbook', comment.id);
    expect(finnView.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(markdownOf(finnView)).toBe('Typo there');
  });

  it('groups reactions by emoji with their users; adding twice is a no-op', async () => {
    const comment = await post(TOKENS.ada, 's-handbook', 'React to me');
    const api = (token: string) => t.client(token).spaces;
    tick();
    await api(TOKENS.ada).updateCommentInSpace('s-handbook', comment.id, {
      addedReactions: ['👍', '🎉'],
    });
    tick();
    await api(TOKENS.finn).updateCommentInSpace('s-handbook', comment.id, {
      addedReactions: ['👍'],
    });
    tick();
    const { data } = await api(TOKENS.finn).updateCommentInSpace('s-handbook', comment.id, {
      addedReactions: ['👍'],
    });
    expect(data.reactions.map((r) => [r.emoji, r.count])).toEqual([
      ['👍', 2],
      ['🎉', 1],
    ]);
    const thumbs = data.reactions[0]!;
    expect(thumbs.users.map((u) => u.user.id)).toEqual(['u-ada', 'u-finn']);
    expect(thumbs.users[0]!.user.object).toBe('user');
    // Finn's second 👍 was a no-op: his reaction keeps the time of the first.
    expect(thumbs.users[1]!.reactedAt < clock.now().toISOString()).toBe(true);

    const { data: removed } = await api(TOKENS.finn).updateCommentInSpace(
      's-handbook',
      comment.id,
      {
        removedReactions: ['👍', '🚀'],
      },
    );
    expect(removed.reactions.map((r) => [r.emoji, r.count])).toEqual([
      ['👍', 1],
      ['🎉', 1],
    ]);
    expect(
      await statusOf(
        api(TOKENS.cara).updateCommentInSpace('s-handbook', comment.id, { addedReactions: ['👍'] }),
      ),
    ).toBe(403);

    const tooLong = await expectError(
      await t.request('PUT', `/v1/spaces/s-handbook/comments/${comment.id}`, TOKENS.ada, {
        addedReactions: ['x'.repeat(51)],
      }),
      400,
    );
    expect(tooLong).toMatch(/addedReactions/);
    const empty = await expectError(
      await t.request('PUT', `/v1/spaces/s-handbook/comments/${comment.id}`, TOKENS.ada, {
        removedReactions: [''],
      }),
      400,
    );
    expect(empty).toMatch(/removedReactions/);
  });

  it('deletes: authors their own, admins anyone’s; replies and reactions go with it', async () => {
    const ada = await post(TOKENS.ada, 's-handbook', 'Admin says');
    expect(
      await statusOf(t.client(TOKENS.finn).spaces.deleteCommentInSpace('s-handbook', ada.id)),
    ).toBe(403);

    const finn = await post(TOKENS.finn, 's-handbook', 'Finn says');
    tick();
    const { data: reply } = await t
      .client(TOKENS.dora)
      .spaces.postCommentReplyInSpace('s-handbook', finn.id, { body: { markdown: 'Dora agrees' } });
    await t.client(TOKENS.ada).spaces.updateCommentInSpace('s-handbook', finn.id, {
      addedReactions: ['👀'],
    });
    await t.client(TOKENS.ada).spaces.updateCommentReplyInSpace('s-handbook', finn.id, reply.id, {
      addedReactions: ['✅'],
    });
    const { data: adaView } = await t
      .client(TOKENS.ada)
      .spaces.getCommentInSpace('s-handbook', finn.id);
    expect(adaView.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });

    const open = await spaceComments();
    const deleted = await t.client(TOKENS.ada).spaces.deleteCommentInSpace('s-handbook', finn.id);
    expect(deleted.status).toBe(205);
    expect(await spaceComments()).toBe(open - 1);
    expect(
      await statusOf(t.client(TOKENS.ada).spaces.getCommentInSpace('s-handbook', finn.id)),
    ).toBe(404);
    const leftovers = t.db
      .prepare('SELECT count(*) AS n FROM reactions WHERE target_id IN (?, ?)')
      .get(finn.id, reply.id) as { n: number };
    expect(leftovers.n).toBe(0);
    const replies = t.db
      .prepare('SELECT count(*) AS n FROM comment_replies WHERE comment_id = ?')
      .get(finn.id) as { n: number };
    expect(replies.n).toBe(0);

    const own = await t.client(TOKENS.ada).spaces.deleteCommentInSpace('s-handbook', ada.id);
    expect(own.status).toBe(205);
  });

  it('lets a guest with a comment grant post', async () => {
    const comment = await post(TOKENS.gus, 's-handbook', 'From a partner');
    expect(comment.postedBy.id).toBe('u-gus');
    expect(await statusOf(t.client(TOKENS.gus).spaces.listCommentsInSpace('s-talk'))).toBe(404);
  });
});

describe('replies', () => {
  it('posts, lists oldest first, reads, edits, reacts and deletes replies', async () => {
    const comment = await post(TOKENS.ada, 's-handbook', 'Thread start');
    const api = (token: string) => t.client(token).spaces;
    const made: CommentReply[] = [];
    for (const [token, text] of [
      [TOKENS.finn, 'first'],
      [TOKENS.dora, 'second'],
      [TOKENS.finn, 'third'],
    ] as const) {
      tick();
      made.push(
        (
          await api(token).postCommentReplyInSpace('s-handbook', comment.id, {
            body: { markdown: text },
          })
        ).data,
      );
    }
    const first = made[0]!;
    expect(first).toMatchObject({
      object: 'comment-reply',
      postedBy: { object: 'user', id: 'u-finn' },
      reactions: [],
      body: { markdown: 'first' },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(first.urls.location).toBe(
      `${t.url}/v1/spaces/s-handbook/comments/${comment.id}/replies/${first.id}`,
    );

    const { data: parent } = await api(TOKENS.ada).getCommentInSpace('s-handbook', comment.id);
    expect(parent.replies).toBe(3);
    expect(parent.repliers.map((r) => [r.user.id, r.count])).toEqual([
      ['u-finn', 2],
      ['u-dora', 1],
    ]);
    expect(parent.repliers[0]!.updatedAt).toBe(made[2]!.postedAt);

    const { data: page1 } = await api(TOKENS.cara).listCommentRepliesInSpace(
      's-handbook',
      comment.id,
      {
        limit: 2,
      },
    );
    expect(page1.count).toBe(3);
    expect(page1.items.map(markdownOf)).toEqual(['first', 'second']);
    expect(page1.items[0]!.permissions).toEqual({
      view: true,
      edit: false,
      reply: false,
      delete: false,
    });
    const { data: page2 } = await api(TOKENS.cara).listCommentRepliesInSpace(
      's-handbook',
      comment.id,
      {
        limit: 2,
        page: page1.next!.page,
      },
    );
    expect(page2.items.map(markdownOf)).toEqual(['third']);
    expect(page2.next).toBeUndefined();

    const { data: got } = await api(TOKENS.ada).getCommentReplyInSpace(
      's-handbook',
      comment.id,
      first.id,
      {
        format: 'document',
      },
    );
    expect(got.body).toMatchObject({ document: { object: 'document' } });

    tick();
    const { data: edited } = await api(TOKENS.finn).updateCommentReplyInSpace(
      's-handbook',
      comment.id,
      first.id,
      {
        body: { markdown: 'first, edited' },
        addedReactions: ['🙂'],
      },
    );
    expect(markdownOf(edited)).toBe('first, edited');
    expect(edited.editedAt).toBe(clock.now().toISOString());
    expect(edited.reactions).toEqual([
      {
        emoji: '🙂',
        count: 1,
        users: [
          { user: expect.objectContaining({ id: 'u-finn' }), reactedAt: clock.now().toISOString() },
        ],
      },
    ]);
    expect(
      await statusOf(
        api(TOKENS.ada).updateCommentReplyInSpace('s-handbook', comment.id, first.id, {
          body: { markdown: 'not mine' },
        }),
      ),
    ).toBe(403);
    // Anyone who may comment reacts.
    const { data: reacted } = await api(TOKENS.ada).updateCommentReplyInSpace(
      's-handbook',
      comment.id,
      first.id,
      {
        addedReactions: ['🙂'],
      },
    );
    expect(reacted.reactions[0]!.count).toBe(2);
    expect(
      await statusOf(
        api(TOKENS.cara).postCommentReplyInSpace('s-handbook', comment.id, {
          body: { markdown: 'x' },
        }),
      ),
    ).toBe(403);

    expect(
      await statusOf(
        api(TOKENS.dora).deleteCommentReplyInSpace('s-handbook', comment.id, first.id),
      ),
    ).toBe(403);
    const gone = await api(TOKENS.finn).deleteCommentReplyInSpace(
      's-handbook',
      comment.id,
      first.id,
    );
    expect(gone.status).toBe(205);
    expect(
      await statusOf(api(TOKENS.ada).getCommentReplyInSpace('s-handbook', comment.id, first.id)),
    ).toBe(404);
    const byAdmin = await api(TOKENS.ada).deleteCommentReplyInSpace(
      's-handbook',
      comment.id,
      made[1]!.id,
    );
    expect(byAdmin.status).toBe(205);
    const { data: after } = await api(TOKENS.ada).getCommentInSpace('s-handbook', comment.id);
    expect(after.replies).toBe(1);
    expect(after.repliers.map((r) => r.user.id)).toEqual(['u-finn']);
  });

  it('answers 404 for a reply of another comment', async () => {
    const a = await post(TOKENS.ada, 's-handbook', 'A');
    const b = await post(TOKENS.ada, 's-handbook', 'B');
    tick();
    const { data: reply } = await t
      .client(TOKENS.ada)
      .spaces.postCommentReplyInSpace('s-handbook', a.id, { body: { markdown: 'on A' } });
    expect(
      await statusOf(
        t.client(TOKENS.ada).spaces.getCommentReplyInSpace('s-handbook', b.id, reply.id),
      ),
    ).toBe(404);
  });
});

describe('listing', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ids['ada-a'] = (await post(TOKENS.ada, 's-talk', 'ada on A', 'p-talk-a')).id;
    ids['finn-a'] = (await post(TOKENS.finn, 's-talk', 'finn on A', 'p-talk-a')).id;
    ids['dora-b'] = (await post(TOKENS.dora, 's-talk', 'dora on B', 'p-talk-b')).id;
    ids['finn-none'] = (await post(TOKENS.finn, 's-talk', 'finn general')).id;
    tick();
    await t
      .client(TOKENS.ada)
      .spaces.updateCommentInSpace('s-talk', ids['finn-a'], { resolved: true });
  });

  const list = async (
    query: Parameters<ReturnType<TestServer['client']>['spaces']['listCommentsInSpace']>[1],
  ) => (await t.client(TOKENS.cara).spaces.listCommentsInSpace('s-talk', query)).data;
  const names = (items: Comment[]) =>
    items.map((item) => Object.keys(ids).find((k) => ids[k] === item.id));

  it('lists newest first by default, oldest first with order=asc', async () => {
    const all = await list({});
    expect(all.count).toBe(4);
    expect(names(all.items)).toEqual(['finn-none', 'dora-b', 'finn-a', 'ada-a']);
    expect(names((await list({ order: 'asc' })).items)).toEqual([
      'ada-a',
      'finn-a',
      'dora-b',
      'finn-none',
    ]);
    expect(await spaceComments('s-talk')).toBe(3);
  });

  it('filters by status, target page and authors (one or several)', async () => {
    expect(names((await list({ status: 'open', order: 'asc' })).items)).toEqual([
      'ada-a',
      'dora-b',
      'finn-none',
    ]);
    const resolved = await list({ status: 'resolved' });
    expect(names(resolved.items)).toEqual(['finn-a']);
    expect(resolved.count).toBe(1);
    expect(names((await list({ targetPage: 'p-talk-a', order: 'asc' })).items)).toEqual([
      'ada-a',
      'finn-a',
    ]);
    expect(names((await list({ authors: ['u-finn'], order: 'asc' })).items)).toEqual([
      'finn-a',
      'finn-none',
    ]);
    expect(names((await list({ authors: ['u-finn', 'u-dora'], order: 'asc' })).items)).toEqual([
      'finn-a',
      'dora-b',
      'finn-none',
    ]);
    const combined = await list({ authors: ['u-finn'], status: 'open', targetPage: 'p-talk-a' });
    expect(combined.items).toEqual([]);
    expect(combined.count).toBe(0);
  });

  it('serves document bodies in lists with format=document', async () => {
    const { items } = await list({ format: 'document', limit: 1 });
    expect(items[0]!.body).toMatchObject({ document: { object: 'document' } });
  });

  it('walks a long list page by page with no duplicates or gaps', async () => {
    const made = new Set<string>();
    for (let i = 0; i < 25; i++) made.add((await post(TOKENS.finn, 's-flood', `comment ${i}`)).id);
    for (const order of ['desc', 'asc'] as const) {
      const seen: string[] = [];
      let page: string | undefined;
      let pages = 0;
      do {
        const { data } = await t
          .client(TOKENS.cara)
          .spaces.listCommentsInSpace('s-flood', { limit: 4, order, ...(page ? { page } : {}) });
        expect(data.count).toBe(25);
        expect(data.items.length).toBeLessThanOrEqual(4);
        seen.push(...data.items.map((item) => item.id));
        page = data.next?.page;
        pages++;
      } while (page);
      expect(pages).toBe(7);
      expect(new Set(seen).size).toBe(25);
      expect(new Set(seen)).toEqual(made);
    }
  });

  it('refuses a cursor of another filter', async () => {
    const { data } = await t.client(TOKENS.ada).spaces.listCommentsInSpace('s-flood', { limit: 2 });
    const message = await expectError(
      await t.request(
        'GET',
        `/v1/spaces/s-flood/comments?status=open&page=${data.next!.page}`,
        TOKENS.ada,
      ),
      400,
    );
    expect(message).toMatch(/page/);
  });
});

describe('change-request comments', () => {
  const base = () => `/v1/spaces/s-handbook/change-requests/${cr.id}`;
  const crComments = async () =>
    (await t.client(TOKENS.cara).spaces.getChangeRequestById('s-handbook', cr.id)).data.comments;

  it('posts on a page of the change request’s content, and counts open comments per change request', async () => {
    const spaceBefore = await spaceComments();
    tick();
    const { data: comment } = await t
      .client(TOKENS.finn)
      .spaces.postCommentInChangeRequest('s-handbook', cr.id, {
        body: { markdown: 'On the draft' },
        page: 'p-cr-only',
      });
    expect(comment).toMatchObject({
      object: 'comment',
      target: {
        space: 's-handbook',
        changeRequest: cr.id,
        revision: cr.revision_id,
        page: { id: 'p-cr-only', title: 'Draft page', path: 'draft-page' },
      },
      status: 'open',
    });
    expect(comment.urls.location).toBe(`${t.url}${base()}/comments/${comment.id}`);
    expect(await crComments()).toBe(1);
    expect(await spaceComments()).toBe(spaceBefore);

    // By number as well as by id.
    const { data: byNumber } = await t
      .client(TOKENS.cara)
      .spaces.listCommentsInChangeRequest('s-handbook', String(cr.number));
    expect(byNumber.items.map((item) => item.id)).toEqual([comment.id]);
    const { data: got } = await t
      .client(TOKENS.cara)
      .spaces.getCommentInChangeRequest('s-handbook', cr.id, comment.id, { format: 'markdown' });
    expect(markdownOf(got)).toBe('On the draft');

    tick();
    const { data: resolved } = await t
      .client(TOKENS.dora)
      .spaces.updateCommentInChangeRequest('s-handbook', cr.id, comment.id, { resolved: true });
    expect(resolved.status).toBe('resolved');
    expect(await crComments()).toBe(0);
    await t
      .client(TOKENS.dora)
      .spaces.updateCommentInChangeRequest('s-handbook', cr.id, comment.id, { resolved: false });
    expect(await crComments()).toBe(1);

    // The space's content does not have the change request's page.
    const message = await expectError(
      await t.request('POST', '/v1/spaces/s-handbook/comments', TOKENS.finn, {
        body: { markdown: 'x' },
        page: 'p-cr-only',
      }),
      400,
    );
    expect(message).toMatch(/page/);
  });

  it('handles replies in a change request, including update and delete', async () => {
    tick();
    const { data: comment } = await t
      .client(TOKENS.finn)
      .spaces.postCommentInChangeRequest('s-handbook', cr.id, { body: { markdown: 'Thread' } });
    tick();
    const { data: reply } = await t
      .client(TOKENS.finn)
      .spaces.postCommentReplyInChangeRequest(
        's-handbook',
        cr.id,
        comment.id,
        { body: { markdown: 'reply' } },
        { format: 'markdown' },
      );
    expect(reply.object).toBe('comment-reply');
    expect(reply.urls.location).toBe(
      `${t.url}${base()}/comments/${comment.id}/replies/${reply.id}`,
    );
    const { data: listed } = await t
      .client(TOKENS.cara)
      .spaces.listCommentRepliesInChangeRequest('s-handbook', cr.id, comment.id);
    expect(listed.items.map((item) => item.id)).toEqual([reply.id]);
    const { data: got } = await t
      .client(TOKENS.cara)
      .spaces.getCommentReplyInChangeRequest('s-handbook', cr.id, comment.id, reply.id);
    expect(got.id).toBe(reply.id);
    const { data: updated } = await t
      .client(TOKENS.finn)
      .spaces.updateCommentReplyInChangeRequest('s-handbook', cr.id, comment.id, reply.id, {
        body: { markdown: 'reply, edited' },
      });
    expect(markdownOf(updated)).toBe('reply, edited');
    const deleted = await t
      .client(TOKENS.finn)
      .spaces.deleteCommentReplyInChangeRequest('s-handbook', cr.id, comment.id, reply.id);
    expect(deleted.status).toBe(205);

    const before = await crComments();
    const gone = await t
      .client(TOKENS.finn)
      .spaces.deleteCommentInChangeRequest('s-handbook', cr.id, comment.id);
    expect(gone.status).toBe(205);
    expect(await crComments()).toBe(before - 1);
  });

  it('never finds a space comment through a change request path, nor the reverse', async () => {
    const spaceComment = await post(TOKENS.ada, 's-handbook', 'Space only');
    tick();
    const { data: crComment } = await t
      .client(TOKENS.ada)
      .spaces.postCommentInChangeRequest('s-handbook', cr.id, { body: { markdown: 'CR only' } });
    const api = t.client(TOKENS.ada).spaces;
    expect(
      await statusOf(api.getCommentInChangeRequest('s-handbook', cr.id, spaceComment.id)),
    ).toBe(404);
    expect(await statusOf(api.getCommentInSpace('s-handbook', crComment.id))).toBe(404);
    expect(
      await statusOf(api.deleteCommentInChangeRequest('s-handbook', cr.id, spaceComment.id)),
    ).toBe(404);
    expect(await statusOf(api.listCommentsInChangeRequest('s-handbook', '999'))).toBe(404);
    const { data: spaceList } = await api.listCommentsInSpace('s-handbook', { limit: 1000 });
    expect(spaceList.items.map((item) => item.id)).not.toContain(crComment.id);
  });
});

describe('errors', () => {
  let comment: Comment;
  beforeAll(async () => {
    comment = await post(TOKENS.ada, 's-handbook', 'Error cases');
  });

  it('names the field of invalid input', async () => {
    const missing = await expectError(
      await t.request('POST', '/v1/spaces/s-handbook/comments', TOKENS.ada, {}),
      400,
    );
    expect(missing).toMatch(/body/);
    const noMarkdown = await expectError(
      await t.request('POST', '/v1/spaces/s-handbook/comments', TOKENS.ada, { body: {} }),
      400,
    );
    expect(noMarkdown).toMatch(/markdown/);
    const unknownPage = await expectError(
      await t.request('POST', '/v1/spaces/s-handbook/comments', TOKENS.ada, {
        body: { markdown: 'x' },
        page: 'p-talk-a',
      }),
      400,
    );
    expect(unknownPage).toMatch(/page/);
    const tooLong = await expectError(
      await t.request('POST', '/v1/spaces/s-handbook/comments', TOKENS.ada, {
        body: { markdown: 'x'.repeat(64 * 1024 + 1) },
      }),
      400,
    );
    expect(tooLong).toMatch(/body\.markdown/);
    expect(tooLong).toMatch(/65536/);
    const tooManyBytes = await expectError(
      await t.request('POST', '/v1/spaces/s-handbook/comments', TOKENS.ada, {
        body: { markdown: 'é'.repeat(40_000) },
      }),
      400,
    );
    expect(tooManyBytes).toMatch(/body\.markdown.*bytes/);
    const blank = await expectError(
      await t.request('POST', `/v1/spaces/s-handbook/comments/${comment.id}/replies`, TOKENS.ada, {
        body: { markdown: '  \n ' },
      }),
      400,
    );
    expect(blank).toMatch(/body\.markdown/);
    const limit = await expectError(
      await t.request('GET', '/v1/spaces/s-handbook/comments?limit=1001', TOKENS.ada),
      400,
    );
    expect(limit).toMatch(/limit/);
    const status = await expectError(
      await t.request('GET', '/v1/spaces/s-handbook/comments?status=closed', TOKENS.ada),
      400,
    );
    expect(status).toMatch(/status/);
    const order = await expectError(
      await t.request('GET', '/v1/spaces/s-handbook/comments?order=up', TOKENS.ada),
      400,
    );
    expect(order).toMatch(/order/);
    const resolved = await expectError(
      await t.request('PUT', `/v1/spaces/s-handbook/comments/${comment.id}`, TOKENS.ada, {
        resolved: 'yes',
      }),
      400,
    );
    expect(resolved).toMatch(/resolved/);
    const repliesLimit = await expectError(
      await t.request(
        'GET',
        `/v1/spaces/s-handbook/comments/${comment.id}/replies?limit=1001`,
        TOKENS.ada,
      ),
      400,
    );
    expect(repliesLimit).toMatch(/limit/);
  });

  it('accepts a single authors value in the query string', async () => {
    const response = await t.request(
      'GET',
      '/v1/spaces/s-talk/comments?authors=u-dora',
      TOKENS.ada,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { items: Comment[] };
    expect(body.items.map((item) => item.postedBy.id)).toEqual(['u-dora']);
  });

  it('requires a token', async () => {
    for (const [method, path] of [
      ['GET', '/v1/spaces/s-handbook/comments'],
      ['POST', '/v1/spaces/s-handbook/comments'],
      ['GET', `/v1/spaces/s-handbook/comments/${comment.id}`],
      ['DELETE', `/v1/spaces/s-handbook/comments/${comment.id}`],
      ['GET', `/v1/spaces/s-handbook/comments/${comment.id}/replies`],
      ['GET', `/v1/spaces/s-handbook/change-requests/${cr.id}/comments`],
    ] as const) {
      await expectError(await t.request(method, path, null), 401);
    }
  });

  it('answers 404 to another organization and for unknown ids', async () => {
    const eve = t.client(TOKENS.eve).spaces;
    expect(await statusOf(eve.listCommentsInSpace('s-handbook'))).toBe(404);
    expect(await statusOf(eve.getCommentInSpace('s-handbook', comment.id))).toBe(404);
    expect(await statusOf(eve.postCommentInSpace('s-handbook', { body: { markdown: 'hi' } }))).toBe(
      404,
    );
    expect(await statusOf(eve.deleteCommentInSpace('s-handbook', comment.id))).toBe(404);
    expect(await statusOf(eve.listCommentsInChangeRequest('s-handbook', cr.id))).toBe(404);

    const ada = t.client(TOKENS.ada).spaces;
    expect(await statusOf(ada.getCommentInSpace('s-handbook', 'nope'))).toBe(404);
    expect(await statusOf(ada.listCommentRepliesInSpace('s-handbook', 'nope'))).toBe(404);
    expect(await statusOf(ada.getCommentReplyInSpace('s-handbook', comment.id, 'nope'))).toBe(404);
    expect(await statusOf(ada.listCommentsInSpace('s-nope'))).toBe(404);
    // A comment of another space, addressed through this one.
    const elsewhere = await post(TOKENS.ada, 's-talk', 'elsewhere');
    expect(await statusOf(ada.getCommentInSpace('s-handbook', elsewhere.id))).toBe(404);
    expect(
      await statusOf(ada.updateCommentInSpace('s-handbook', elsewhere.id, { resolved: true })),
    ).toBe(404);
  });

  it('answers 403 when the role is too low', async () => {
    expect(
      await statusOf(
        t.client(TOKENS.cara).spaces.postCommentInSpace('s-handbook', { body: { markdown: 'hi' } }),
      ),
    ).toBe(403);
    expect(
      await statusOf(
        t.client(TOKENS.cara).spaces.postCommentInChangeRequest('s-handbook', cr.id, {
          body: { markdown: 'hi' },
        }),
      ),
    ).toBe(403);
    expect(
      await statusOf(t.client(TOKENS.cara).spaces.deleteCommentInSpace('s-handbook', comment.id)),
    ).toBe(403);
  });
});
