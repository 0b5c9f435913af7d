/**
 * The engine's port for comments: the space's own (`changeRequest` null) or a change request's
 * (its number). Implemented over the WorkspaceClient (WorkspaceCommentRemote).
 */

/** Whose comments, on the server. */
export interface CommentScope {
  spaceId: string;
  changeRequest: number | null;
}

export interface RemoteCommentReaction {
  emoji: string;
  /** Ids of the users who reacted with it. */
  users: string[];
}

/** A reply, or the part of a comment a reply shares. */
export interface RemoteReply {
  id: string;
  author: { id: string; displayName: string };
  markdown: string;
  postedAt: string;
  editedAt: string | null;
  reactions: RemoteCommentReaction[];
  canEdit: boolean;
}

export interface RemoteComment extends RemoteReply {
  page: { id: string; title: string; path: string } | null;
  resolved: boolean;
  /** How many replies, and when they last moved: replies are fetched again only when it changes. */
  repliesFingerprint: string;
}

/** A comment change as the server takes it (PUT …/comments/{id} or …/replies/{id}). */
export interface CommentUpdate {
  markdown?: string;
  resolved?: boolean;
  addedReactions?: string[];
  removedReactions?: string[];
}

export interface RemoteComments {
  listComments(scope: CommentScope): Promise<RemoteComment[]>;
  listReplies(scope: CommentScope, commentId: string): Promise<RemoteReply[]>;
  createComment(
    scope: CommentScope,
    post: { markdown: string; pageId: string | null },
    options: { idempotencyKey: string },
  ): Promise<RemoteComment>;
  createReply(
    scope: CommentScope,
    commentId: string,
    markdown: string,
    options: { idempotencyKey: string },
  ): Promise<RemoteReply>;
  /** `replyId` null: the comment itself. */
  updateComment(
    scope: CommentScope,
    commentId: string,
    replyId: string | null,
    update: CommentUpdate,
    options: { idempotencyKey: string },
  ): Promise<void>;
  /** A comment or reply already gone counts as deleted (a resend after a crash). */
  deleteComment(scope: CommentScope, commentId: string, replyId: string | null): Promise<void>;
}
