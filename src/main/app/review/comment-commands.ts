import type { CommandArgs, CommandResult } from '../../../shared/contract/quire-commands';
import { notBuilt } from './not-built';
import type { ReviewContext } from './review-context';

/** Comment threads of change requests and spaces: read from the mirror, changed through the outbox. */
export class CommentCommands {
  constructor(private readonly context: ReviewContext) {}

  async comments(_args: CommandArgs<'comments'>): Promise<CommandResult<'comments'>> {
    void this.context;
    return notBuilt('comments');
  }

  async postComment(_args: CommandArgs<'postComment'>): Promise<CommandResult<'postComment'>> {
    return notBuilt('postComment');
  }

  async replyToComment(
    _args: CommandArgs<'replyToComment'>,
  ): Promise<CommandResult<'replyToComment'>> {
    return notBuilt('replyToComment');
  }

  async editComment(_args: CommandArgs<'editComment'>): Promise<CommandResult<'editComment'>> {
    return notBuilt('editComment');
  }

  async deleteComment(
    _args: CommandArgs<'deleteComment'>,
  ): Promise<CommandResult<'deleteComment'>> {
    return notBuilt('deleteComment');
  }

  async reactToComment(
    _args: CommandArgs<'reactToComment'>,
  ): Promise<CommandResult<'reactToComment'>> {
    return notBuilt('reactToComment');
  }

  async setCommentResolved(
    _args: CommandArgs<'setCommentResolved'>,
  ): Promise<CommandResult<'setCommentResolved'>> {
    return notBuilt('setCommentResolved');
  }
}
