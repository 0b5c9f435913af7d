import { randomUUID } from 'node:crypto';
import type { GitBookAPI } from '@gitbook/api';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { CacheDb } from '../../../src/main/cache/open-cache-database';
import { LocalComments } from '../../../src/main/comments/local-comments';
import { CommentOutbox } from '../../../src/main/comments/comment-outbox';
import type { CommentThread, CommentView } from '../../../src/shared/contract/review';
import type { FaultInjectingFetch, FetchFault } from '../fault-injecting-fetch';

/**
 * Comment operations for the sync model (sync-model.property.test.ts): the user posts, replies,
 * edits and deletes comments on the space offline (through the comment outbox), and another user
 * comments and deletes comments on the server. Each local text carries a unique marker. The
 * oracle: nothing lost (every live local text is on the server exactly once, or kept in its
 * thread with a problem, as an edit or a reply to a comment deleted remotely is), and no text is
 * ever on the server twice (crashes and dropped answers resend with the same Idempotency-Key).
 */

/** What of the model's system these commands use. */
export interface CommentReal {
  cache: CacheDb;
  spaceId: string;
  trace: string[];
  transport: FaultInjectingFetch;
}

type Cmd = fc.AsyncCommand<object, CommentReal>;

const ME = { id: 'u-prop-me', displayName: 'Me' };
const MARK = /Comment (c\d+)\./g;
const HOME_KEY = 'model.comments.home';

interface CommentState {
  writes: number;
  /** Markers written, with the home (cache) they were written in. */
  written: Map<string, string>;
  /** Local texts that should end on the server (not edited away or deleted by the user). */
  live: Set<string>;
  /** Texts on the server that the other user deleted. */
  gone: Set<string>;
}

const states = new WeakMap<object, CommentState>();

function stateOf(real: CommentReal): CommentState {
  let state = states.get(real);
  if (state === undefined) {
    state = { writes: 0, written: new Map(), live: new Set(), gone: new Set() };
    states.set(real, state);
  }
  return state;
}

/** An id of the cache file's life: a fresh home (the cache deleted) gets a new one. */
function homeOf(real: CommentReal): string {
  const row = real.cache.prepare('SELECT value FROM sync_state WHERE key = ?').get(HOME_KEY) as
    { value: string } | undefined;
  if (row !== undefined) return row.value;
  const id = randomUUID();
  real.cache.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?)').run(HOME_KEY, id);
  return id;
}

function markersIn(text: string): string[] {
  return [...text.matchAll(MARK)].map((match) => match[1]!);
}

function newText(real: CommentReal): { marker: string; text: string } {
  const state = stateOf(real);
  const marker = `c${++state.writes}`;
  state.written.set(marker, homeOf(real));
  state.live.add(marker);
  return { marker, text: `Comment ${marker}.` };
}

function local(real: CommentReal): LocalComments {
  return new LocalComments(real.cache, ME, () => new Date().toISOString());
}

const refOf = (real: CommentReal) => ({ space: real.spaceId, number: null });

function threads(real: CommentReal): CommentThread[] {
  return local(real).threads(refOf(real));
}

/** Items the user may still change: theirs, not being deleted, without a problem. */
function ownItems(real: CommentReal): { thread: CommentThread; reply: CommentView | null }[] {
  const usable = (item: CommentView) =>
    item.author.id === ME.id && item.pending !== 'delete' && item.problem === null;
  return threads(real).flatMap((thread) => [
    ...(usable(thread) ? [{ thread, reply: null }] : []),
    ...thread.replies.filter(usable).map((reply) => ({ thread, reply })),
  ]);
}

class CommentPost implements Cmd {
  check = () => true;
  async run(_: object, real: CommentReal): Promise<void> {
    const { marker, text } = newText(real);
    const thread = local(real).post(refOf(real), null, text);
    real.trace.push(`comment ${thread.id} → ${marker}`);
  }
  toString = () => 'comment';
}

class CommentReply implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true;
  async run(_: object, real: CommentReal): Promise<void> {
    const open = threads(real).filter((t) => t.pending !== 'delete' && t.problem === null);
    if (open.length === 0) return;
    const thread = open[this.pick % open.length]!;
    const { marker, text } = newText(real);
    const reply = local(real).reply(refOf(real), thread.id, text);
    real.trace.push(`reply ${reply.id} to ${thread.id} → ${marker}`);
  }
  toString = () => `reply(${this.pick})`;
}

class CommentEdit implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true;
  async run(_: object, real: CommentReal): Promise<void> {
    const items = ownItems(real);
    if (items.length === 0) return;
    const { thread, reply } = items[this.pick % items.length]!;
    const state = stateOf(real);
    for (const old of markersIn((reply ?? thread).body)) state.live.delete(old);
    const { marker, text } = newText(real);
    const ref = { ...refOf(real), commentId: thread.id, replyId: reply?.id ?? null };
    local(real).edit(ref, text);
    real.trace.push(`edit ${reply?.id ?? thread.id} → ${marker}`);
  }
  toString = () => `edit-comment(${this.pick})`;
}

class CommentDelete implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true;
  async run(_: object, real: CommentReal): Promise<void> {
    const items = ownItems(real);
    if (items.length === 0) return;
    const { thread, reply } = items[this.pick % items.length]!;
    const state = stateOf(real);
    const removed = reply === null ? [thread, ...thread.replies] : [reply];
    for (const item of removed) for (const old of markersIn(item.body)) state.live.delete(old);
    local(real).remove({ ...refOf(real), commentId: thread.id, replyId: reply?.id ?? null });
    real.trace.push(`delete ${reply?.id ?? thread.id}`);
  }
  toString = () => `delete-comment(${this.pick})`;
}

/** The server's threads of the space: comment id → its text and its replies' texts. */
async function serverThreads(api: GitBookAPI, spaceId: string) {
  const { data } = await api.spaces.listCommentsInSpace(spaceId, { limit: 1000 });
  return Promise.all(
    data.items.map(async (comment) => {
      const { data: replies } = await api.spaces.listCommentRepliesInSpace(spaceId, comment.id, {
        limit: 1000,
      });
      const texts = [comment, ...replies.items].map(
        (item) => (item.body as unknown as { markdown?: string }).markdown ?? '',
      );
      return { id: comment.id, texts };
    }),
  );
}

class RemoteComment implements Cmd {
  constructor(private readonly other: () => GitBookAPI) {}
  check = () => true;
  async run(_: object, real: CommentReal): Promise<void> {
    const { data } = await this.other().spaces.postCommentInSpace(real.spaceId, {
      body: { markdown: 'A remote comment.' } as never,
    });
    real.trace.push(`remote comment ${data.id}`);
  }
  toString = () => 'remote-comment';
}

class RemoteCommentDelete implements Cmd {
  constructor(
    private readonly other: () => GitBookAPI,
    readonly pick: number,
  ) {}
  check = () => true;
  async run(_: object, real: CommentReal): Promise<void> {
    const listed = await serverThreads(this.other(), real.spaceId);
    if (listed.length === 0) return;
    const { id, texts } = listed[this.pick % listed.length]!;
    await this.other().spaces.deleteCommentInSpace(real.spaceId, id);
    const state = stateOf(real);
    for (const text of texts) for (const marker of markersIn(text)) state.gone.add(marker);
    real.trace.push(`remote delete ${id}`);
  }
  toString = () => `remote-delete-comment(${this.pick})`;
}

/**
 * The user edits (or replies to) their comment after another user deleted it on the server, before
 * a sync told them: the edit must be reported on the comment, not lost (issue 14).
 */
class CommentEditDeletedRemotely implements Cmd {
  constructor(
    private readonly other: () => GitBookAPI,
    private readonly sync: () => Cmd,
    readonly reply: boolean,
  ) {}
  check = () => true;
  async run(model: object, real: CommentReal): Promise<void> {
    const { marker, text } = newText(real);
    const thread = local(real).post(refOf(real), null, text);
    real.trace.push(`comment ${thread.id} → ${marker}`);
    await this.sync().run(model, real);
    const sent = threads(real).find((item) => markersIn(item.body).includes(marker));
    if (sent === undefined || sent.pending !== null) return;
    await this.other().spaces.deleteCommentInSpace(real.spaceId, sent.id);
    stateOf(real).gone.add(marker);
    real.trace.push(`remote delete ${sent.id}`);
    const next = newText(real);
    if (this.reply) {
      const reply = local(real).reply(refOf(real), sent.id, next.text);
      real.trace.push(`reply ${reply.id} to the deleted ${sent.id} → ${next.marker}`);
    } else {
      stateOf(real).live.delete(marker);
      local(real).edit({ ...refOf(real), commentId: sent.id, replyId: null }, next.text);
      real.trace.push(`edit the deleted ${sent.id} → ${next.marker}`);
    }
  }
  toString = () => `edit-comment-deleted-remotely(${this.reply ? 'reply' : 'edit'})`;
}

/** A comment write (POST, PUT, DELETE of a comment or reply). */
const COMMENT_WRITE = /^(POST|PUT|DELETE) .*\/comments(\/[^/]+(\/replies(\/[^/]+)?)?)?$/;

/** A comment, then a sync whose first comment write meets `fault` (the model's Sync reopens after a crash). */
class CommentFaultSync implements Cmd {
  constructor(
    private readonly sync: () => Cmd,
    readonly fault: FetchFault,
  ) {}
  check = () => true;
  async run(model: object, real: CommentReal): Promise<void> {
    // Something to send, so that the fault meets a comment write.
    await new CommentPost().run(model, real);
    real.transport.armFirstMatching(COMMENT_WRITE, this.fault);
    try {
      await this.sync().run(model, real);
    } finally {
      // Not met (nothing to send): no later sync meets it either.
      real.transport.armFirstMatching();
    }
  }
  toString = () => `comment-then-sync(${this.fault})`;
}

/**
 * The comment commands, for the model's `commandArbs`: `other` is the other user's client,
 * `sync` the model's clean Sync command (it handles crashes).
 */
export function commentCommandArbs(other: () => GitBookAPI, sync: () => Cmd) {
  return [
    fc
      .constantFrom<FetchFault>('drop', 'crash-before', 'crash-after', 'timeout')
      .map((fault) => new CommentFaultSync(sync, fault)),
    fc.constant(new CommentPost()),
    fc.nat().map((pick) => new CommentReply(pick)),
    fc.nat().map((pick) => new CommentEdit(pick)),
    fc.nat().map((pick) => new CommentDelete(pick)),
    fc.constant(new RemoteComment(other)),
    fc.nat().map((pick) => new RemoteCommentDelete(other, pick)),
    fc.boolean().map((reply) => new CommentEditDeletedRemotely(other, sync, reply)),
  ];
}

/** The comment oracle, after the model settled (see the file's comment). */
export async function checkCommentOracle(real: CommentReal, me: GitBookAPI): Promise<void> {
  const context = () => `\n${real.trace.join('\n')}`;
  const state = stateOf(real);
  const onServer = new Map<string, number>();
  for (const { texts } of await serverThreads(me, real.spaceId)) {
    for (const text of texts) {
      for (const marker of markersIn(text)) onServer.set(marker, (onServer.get(marker) ?? 0) + 1);
    }
  }
  for (const [marker, count] of onServer) {
    expect(count, `comment text ${marker} is on the server ${count} times${context()}`).toBe(1);
  }
  const shown = threads(real).flatMap((thread) => [thread, ...thread.replies]);
  const home = homeOf(real);
  for (const marker of state.live) {
    if (state.gone.has(marker) || onServer.has(marker)) continue;
    // Written in a home the user deleted (FreshHome): its queue went with it.
    if (state.written.get(marker) !== home) continue;
    const kept = shown.find((item) => markersIn(item.body).includes(marker));
    expect(
      kept?.problem ?? null,
      `comment text ${marker} is lost: not on the server, ` +
        `${kept ? 'shown with no problem' : 'not shown'}${context()}`,
    ).not.toBeNull();
  }
  // Nothing left waiting that could go: what remains was refused, or waits for a refused reply.
  const outbox = new CommentOutbox(real.cache);
  for (const change of outbox.list()) {
    if (change.state === 'failed') continue;
    const waitsOn = [change.commentId, change.replyId].filter(
      (id): id is string => id !== null && outbox.resolveId(id) === undefined,
    );
    expect(
      waitsOn,
      `comment change ${change.kind} #${change.id} left waiting${context()}`,
    ).not.toEqual([]);
  }
}
