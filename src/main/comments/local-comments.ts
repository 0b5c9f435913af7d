import type {
  CommentItemRef,
  CommentThread,
  CommentView,
  CommentsRef,
} from '../../shared/contract/review';
import type { CacheDb } from '../cache/open-cache-database';
import { ChangeRequestStore } from '../change-requests/change-request-store';
import {
  ChangeRequestViews,
  UnknownChangeRequestError,
} from '../change-requests/change-request-views';
import type { CommentScope } from './comment-remote';
import { CommentMirror } from './comment-mirror';
import { CommentOutbox, localIdOf, type CommentChangePayload } from './comment-outbox';
import { findCommentPage } from './comment-pages';
import { commentThreads } from './comment-threads';

/** No comment (or reply) with this id in the threads: never mirrored, deleted, or mistyped. */
export class UnknownCommentError extends Error {
  override readonly name = 'UnknownCommentError';

  constructor(readonly commentId: string) {
    super(`no comment ${commentId} here (was it pulled? \`quire cr comments\` lists them)`);
  }
}

/** Only its author edits the text of a comment or reply (the server refuses anyone else). */
export class CommentNotEditableError extends Error {
  override readonly name = 'CommentNotEditableError';

  constructor(readonly commentId: string) {
    super(`comment ${commentId} is someone else's: only its author can edit it`);
  }
}

export type CommentUser = { id: string; displayName: string };

/**
 * Comment threads for the front ends, from the cache alone: read with the queued changes shown
 * on top, and changed by queueing (the next sync sends them). Works offline.
 */
export class LocalComments {
  private readonly outbox: CommentOutbox;

  constructor(
    private readonly db: CacheDb,
    private readonly user: CommentUser,
    private readonly now: () => string,
  ) {
    this.outbox = new CommentOutbox(db);
  }

  /** `page`: only the threads on this page (its id or path). */
  threads(ref: CommentsRef, page: string | null = null): CommentThread[] {
    const scope = this.scopeOf(ref);
    const threads = this.allThreads(scope);
    if (page === null) return threads;
    const pageId = findCommentPage(this.db, scope, page)?.id ?? page;
    return threads.filter((thread) => thread.page?.id === pageId);
  }

  /** `page`: its id or path; one the cache does not know goes as given (the server decides). */
  post(ref: CommentsRef, page: string | null, body: string): CommentThread {
    const scope = this.scopeOf(ref);
    const found = page === null ? undefined : findCommentPage(this.db, scope, page);
    const target =
      found === undefined
        ? { pageId: page }
        : { pageId: found.id, pageTitle: found.title, pagePath: found.path };
    const change = this.queue(scope, 'create', null, null, { body, ...target });
    return this.allThreads(scope).find((thread) => thread.id === localIdOf(change))!;
  }

  reply(ref: CommentsRef, commentId: string, body: string): CommentView {
    const scope = this.scopeOf(ref);
    const thread = this.findThread(scope, commentId);
    const change = this.queue(scope, 'reply', thread.id, null, { body });
    const again = this.findThread(scope, thread.id);
    return again.replies.find((reply) => reply.id === localIdOf(change))!;
  }

  edit(ref: CommentItemRef, body: string): void {
    this.change(ref, 'edit', { body });
  }

  remove(ref: CommentItemRef): void {
    this.change(ref, 'delete', {});
  }

  react(ref: CommentItemRef, emoji: string, add: boolean): void {
    this.change(ref, 'react', { emoji, add });
  }

  resolve(ref: CommentsRef & { commentId: string }, resolved: boolean): void {
    this.change({ ...ref, replyId: null }, 'resolve', { resolved });
  }

  private change(
    ref: CommentItemRef,
    kind: 'edit' | 'delete' | 'react' | 'resolve',
    payload: CommentChangePayload,
  ): void {
    const scope = this.scopeOf(ref);
    const thread = this.findThread(scope, ref.commentId);
    let replyId: string | null = null;
    let target: CommentView = thread;
    if (ref.replyId !== null) {
      const reply = thread.replies.find((item) => this.sameId(item.id, ref.replyId!));
      if (reply === undefined) throw new UnknownCommentError(ref.replyId);
      replyId = reply.id;
      target = reply;
    }
    if (kind === 'edit' && !target.canEdit) throw new CommentNotEditableError(target.id);
    if (kind === 'delete' && this.isOnlyLocal(scope, target)) {
      this.discard(scope, target.id);
      return;
    }
    this.queue(scope, kind, thread.id, replyId, payload);
  }

  private queue(
    scope: CommentScope,
    kind: 'create' | 'reply' | 'edit' | 'delete' | 'react' | 'resolve',
    commentId: string | null,
    replyId: string | null,
    payload: CommentChangePayload,
  ) {
    return this.outbox.add(scope, { kind, commentId, replyId, payload }, this.now());
  }

  /**
   * Refused, or about a comment deleted remotely, and not on the server: deleting it gives up
   * what was queued for it. (A create still pending may have reached the server: its deletion
   * is queued after it instead.)
   */
  private isOnlyLocal(scope: CommentScope, item: CommentView): boolean {
    const id = this.outbox.resolveId(item.id) ?? item.id;
    return item.problem !== null && new CommentMirror(this.db).find(scope, id) === undefined;
  }

  /** Drops every queued change that creates, or is about, this comment or reply. */
  private discard(scope: CommentScope, id: string): void {
    for (const change of this.outbox.list(scope)) {
      if ([localIdOf(change), change.commentId, change.replyId].includes(id)) {
        this.outbox.drop(change.id);
      }
    }
  }

  private findThread(scope: CommentScope, commentId: string): CommentThread {
    const thread = this.allThreads(scope).find((item) => this.sameId(item.id, commentId));
    if (thread === undefined) throw new UnknownCommentError(commentId);
    return thread;
  }

  /** `local-<n>` names the comment after its creation too. */
  private sameId(id: string, asked: string): boolean {
    return id === asked || id === this.outbox.resolveId(asked);
  }

  private allThreads(scope: CommentScope): CommentThread[] {
    return commentThreads({
      mirrored: new CommentMirror(this.db).list(scope),
      queued: this.outbox.list(scope),
      user: this.user,
      resolveId: (id) => this.outbox.resolveId(id),
    });
  }

  /** The id of the space a reference names. */
  spaceIdOf(ref: CommentsRef): string {
    return this.scopeOf(ref).spaceId;
  }

  /** The space (by id, title or folder) and, for a change request, a mirrored one. */
  private scopeOf(ref: CommentsRef): CommentScope {
    const space = new ChangeRequestViews(this.db).resolveSpace(ref.space);
    if (ref.number !== null && !new ChangeRequestStore(this.db).find(space.id, ref.number)) {
      throw new UnknownChangeRequestError(ref.space, ref.number);
    }
    return { spaceId: space.id, changeRequest: ref.number };
  }
}
