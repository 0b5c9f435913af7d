import { CommandFailedError } from '../../../shared/contract/command-error';
import type { CommandArgs, CommandResult } from '../../../shared/contract/quire-commands';
import type { CommentsRef } from '../../../shared/contract/review';
import type { LocalComments } from '../../comments/local-comments';
import { CommentNotEditableError, UnknownCommentError } from '../../comments/local-comments';
import type { ReviewContext } from './review-context';

/** Comment threads of change requests and spaces: read from the mirror, changed through the outbox. */
export class CommentCommands {
  constructor(private readonly context: ReviewContext) {}

  async comments(args: CommandArgs<'comments'>): Promise<CommandResult<'comments'>> {
    return this.read((comments) => comments.threads(args, args.pageId));
  }

  async postComment(args: CommandArgs<'postComment'>): Promise<CommandResult<'postComment'>> {
    return this.change(args, (comments) => comments.post(args, args.pageId, args.body));
  }

  async replyToComment(
    args: CommandArgs<'replyToComment'>,
  ): Promise<CommandResult<'replyToComment'>> {
    return this.change(args, (comments) => comments.reply(args, args.commentId, args.body));
  }

  async editComment(args: CommandArgs<'editComment'>): Promise<CommandResult<'editComment'>> {
    return this.change(args, (comments) => (comments.edit(args, args.body), null));
  }

  async deleteComment(args: CommandArgs<'deleteComment'>): Promise<CommandResult<'deleteComment'>> {
    return this.change(args, (comments) => (comments.remove(args), null));
  }

  async reactToComment(
    args: CommandArgs<'reactToComment'>,
  ): Promise<CommandResult<'reactToComment'>> {
    return this.change(args, (comments) => (comments.react(args, args.emoji, args.add), null));
  }

  async setCommentResolved(
    args: CommandArgs<'setCommentResolved'>,
  ): Promise<CommandResult<'setCommentResolved'>> {
    return this.change(args, (comments) => (comments.resolve(args, args.resolved), null));
  }

  /** From the cache: no token needed, works offline. */
  private read<T>(task: (comments: LocalComments) => T): Promise<T> {
    return this.context.withSession(false, async (session) =>
      typed(() => task(session.engine.comments())),
    );
  }

  /** Queued (the next sync sends it) and announced at once, so open screens show it pending. */
  private async change<T>(ref: CommentsRef, task: (comments: LocalComments) => T): Promise<T> {
    const result = await this.read(task);
    this.context.requestSync?.();
    this.context.emit('reviewChanged', { spaceId: await this.spaceIdOf(ref), number: ref.number });
    return result;
  }

  private spaceIdOf(ref: CommentsRef): Promise<string> {
    return this.context.withSession(false, async (session) =>
      session.engine.comments().spaceIdOf(ref),
    );
  }
}

/** The engine's "no such comment" as the contract's typed error. */
function typed<T>(task: () => T): T {
  try {
    return task();
  } catch (error) {
    if (error instanceof UnknownCommentError) {
      throw new CommandFailedError({
        kind: 'unknown-comment',
        message: error.message,
        commentId: error.commentId,
      });
    }
    if (error instanceof CommentNotEditableError) {
      throw new CommandFailedError({
        kind: 'invalid-argument',
        message: error.message,
        field: 'commentId',
      });
    }
    throw error;
  }
}
