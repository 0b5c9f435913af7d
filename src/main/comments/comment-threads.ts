import type { CommentReaction, CommentThread, CommentView } from '../../shared/contract/review';
import type { MirroredComment } from './comment-mirror';
import { localIdOf, type QueuedCommentChange } from './comment-outbox';
import { DELETED_REMOTELY } from './drain-comment-outbox';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type View = Mutable<CommentView>;
type Thread = Mutable<Omit<CommentThread, 'replies'>> & { replies: View[] };

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
  const threads = new ThreadSet(inputs);
  for (const item of inputs.mirrored) threads.addMirrored(item);
  for (const change of inputs.queued) threads.apply(change);
  return threads.list;
}

class ThreadSet {
  readonly list: Thread[] = [];
  private readonly items = new Map<string, View>();
  private readonly threads = new Map<string, Thread>();

  constructor(private readonly inputs: ThreadInputs) {}

  addMirrored(item: MirroredComment): void {
    const view = viewOf(item, this.inputs.user.id);
    if (item.parentId === null) {
      this.addThread({ ...view, page: item.page, resolved: item.resolved, replies: [] });
      return;
    }
    const thread = this.threads.get(item.parentId);
    if (thread === undefined) return;
    thread.replies.push(view);
    this.items.set(item.id, view);
  }

  apply(change: QueuedCommentChange): void {
    const body = change.payload.body ?? '';
    if (change.kind === 'create') {
      const pageId = change.payload.pageId ?? null;
      const { pageTitle, pagePath } = change.payload;
      const page =
        pageId === null ? null : { id: pageId, title: pageTitle ?? pageId, path: pagePath ?? '' };
      this.addThread({ ...this.local(change, body), page, resolved: false, replies: [] });
      return;
    }
    const commentId = change.commentId!;
    if (change.kind === 'reply') {
      const thread = this.threadOf(commentId) ?? this.orphan(change, commentId);
      const reply = this.local(change, body);
      if (reply.problem === null && thread.problem === DELETED_REMOTELY) {
        reply.problem = DELETED_REMOTELY;
      }
      thread.replies.push(reply);
      this.items.set(reply.id, reply);
      return;
    }
    const id = change.replyId ?? commentId;
    const target = this.items.get(id) ?? this.items.get(this.inputs.resolveId(id) ?? id);
    if (target !== undefined) {
      applyChange(target, change);
    } else if (change.kind === 'edit') {
      // Gone from the server: an edit keeps its text, shown; anything else has nothing to show.
      const orphan = this.orphan(change, id);
      Object.assign(orphan, { body, pending: 'edit', problem: change.error ?? DELETED_REMOTELY });
    }
  }

  private threadOf(id: string): Thread | undefined {
    return this.threads.get(id) ?? this.threads.get(this.inputs.resolveId(id) ?? id);
  }

  private addThread(thread: Thread): Thread {
    this.list.push(thread);
    this.items.set(thread.id, thread);
    this.threads.set(thread.id, thread);
    return thread;
  }

  /** A comment or reply the user wrote, not created on the server yet. */
  private local(change: QueuedCommentChange, body: string): View {
    return {
      id: localIdOf(change),
      author: this.inputs.user,
      body,
      postedAt: change.createdAt,
      editedAt: null,
      reactions: [],
      pending: 'create',
      problem: change.error,
      canEdit: true,
    };
  }

  /** Stands for a comment the server no longer has, so what was queued for it stays shown. */
  private orphan(change: QueuedCommentChange, id: string): Thread {
    return this.addThread({
      ...this.local(change, ''),
      id,
      pending: null,
      problem: DELETED_REMOTELY,
      canEdit: false,
      page: null,
      resolved: false,
      replies: [],
    });
  }
}

function applyChange(target: View, change: QueuedCommentChange): void {
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

function viewOf(item: MirroredComment, userId: string): View {
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
