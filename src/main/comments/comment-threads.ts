import type { CommentReaction, CommentThread, CommentView } from '../../shared/contract/review';
import type { MirroredComment } from './comment-mirror';
import { localIdOf, type QueuedCommentChange } from './comment-outbox';
import { DELETED_REMOTELY } from './drain-comment-outbox';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Thread = Mutable<Omit<CommentThread, 'replies'>> & { replies: Mutable<CommentView>[] };

export interface ThreadInputs {
  mirrored: readonly MirroredComment[];
  queued: readonly QueuedCommentChange[];
  user: { id: string; displayName: string };
  /** The server id of `local-<n>` once created. */
  resolveId(id: string): string | undefined;
}

/**
 * The threads as the user sees them: the mirror, with every queued change applied on top in
 * order and marked pending (or with its problem). A change about a comment the server no longer
 * has is shown on its own, with the problem, and its text.
 */
export function commentThreads(inputs: ThreadInputs): CommentThread[] {
  const threads: Thread[] = [];
  const byId = new Map<string, Mutable<CommentView>>();
  const threadOf = new Map<string, Thread>();
  for (const item of inputs.mirrored) {
    const view = viewOf(item, inputs.user.id);
    if (item.parentId === null) {
      const thread: Thread = { ...view, page: item.page, resolved: item.resolved, replies: [] };
      threads.push(thread);
      byId.set(item.id, thread);
      threadOf.set(item.id, thread);
    } else {
      const thread = threadOf.get(item.parentId);
      if (thread === undefined) continue;
      thread.replies.push(view);
      byId.set(item.id, view);
    }
  }
  const find = (id: string | null) => {
    if (id === null) return undefined;
    return byId.get(id) ?? byId.get(inputs.resolveId(id) ?? id);
  };
  for (const change of inputs.queued) {
    const local = (body: string): Mutable<CommentView> => ({
      id: localIdOf(change),
      author: inputs.user,
      body,
      postedAt: change.createdAt,
      editedAt: null,
      reactions: [],
      pending: 'create',
      problem: change.error,
      canEdit: true,
    });
    const orphan = (id: string): Thread => {
      const thread: Thread = {
        ...local(''),
        id,
        pending: null,
        problem: DELETED_REMOTELY,
        canEdit: false,
        page: null,
        resolved: false,
        replies: [],
      };
      threads.push(thread);
      byId.set(id, thread);
      threadOf.set(id, thread);
      return thread;
    };
    const body = change.payload.body ?? '';
    if (change.kind === 'create') {
      const pageId = change.payload.pageId ?? null;
      const thread: Thread = {
        ...local(body),
        page: pageId === null ? null : { id: pageId, title: pageId, path: '' },
        resolved: false,
        replies: [],
      };
      threads.push(thread);
      byId.set(thread.id, thread);
      threadOf.set(thread.id, thread);
      continue;
    }
    const commentId = change.commentId!;
    if (change.kind === 'reply') {
      const thread =
        threadOf.get(commentId) ??
        threadOf.get(inputs.resolveId(commentId) ?? commentId) ??
        orphan(commentId);
      const reply = local(body);
      if (reply.problem === null && thread.problem === DELETED_REMOTELY) {
        reply.problem = DELETED_REMOTELY;
      }
      thread.replies.push(reply);
      byId.set(reply.id, reply);
      continue;
    }
    const target = find(change.replyId ?? commentId);
    if (target === undefined) {
      // Gone from the server: an edit keeps its text, shown; anything else has nothing to show.
      if (change.kind === 'edit') {
        const thread = orphan(change.replyId ?? commentId);
        Object.assign(thread, { body, pending: 'edit', problem: change.error ?? DELETED_REMOTELY });
      }
      continue;
    }
    applyChange(target, change);
  }
  return threads;
}

function applyChange(target: Mutable<CommentView>, change: QueuedCommentChange): void {
  const { payload } = change;
  if (target.pending !== 'create') target.pending = change.kind as CommentView['pending'];
  if (change.error !== null) target.problem = change.error;
  if (change.kind === 'edit') target.body = payload.body ?? target.body;
  if (change.kind === 'resolve') (target as Thread).resolved = payload.resolved === true;
  if (change.kind === 'react') {
    target.reactions = react(target.reactions, payload.emoji ?? '', payload.add === true);
  }
}

function react(
  reactions: readonly CommentReaction[],
  emoji: string,
  add: boolean,
): CommentReaction[] {
  const others = reactions.filter((reaction) => reaction.emoji !== emoji);
  const current = reactions.find((reaction) => reaction.emoji === emoji);
  const count = (current?.count ?? 0) - (current?.mine ? 1 : 0) + (add ? 1 : 0);
  return count > 0 ? [...others, { emoji, count, mine: add }] : others;
}

function viewOf(item: MirroredComment, userId: string): Mutable<CommentView> {
  return {
    id: item.id,
    author: item.author,
    body: item.body,
    postedAt: item.postedAt,
    editedAt: item.editedAt,
    reactions: item.reactions.map((reaction) => ({
      emoji: reaction.emoji,
      count: reaction.users.length,
      mine: reaction.users.includes(userId),
    })),
    pending: null,
    problem: null,
    canEdit: item.canEdit,
  };
}
