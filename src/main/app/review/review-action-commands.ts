import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { ChangeRequestRef } from '../../../shared/contract/change-requests';
import type { CommandArgs, CommandResult } from '../../../shared/contract/quire-commands';
import type { ReviewActions } from '../../review/review-actions';
import type { Session } from '../engine-sessions';
import { reviewActionFailure } from './review-action-failure';
import type { ReviewContext } from './review-context';

/**
 * Review actions on a change request: subject, status, reviewers, verdicts, update, merge, PDF.
 * Each runs on the engine's ReviewActions, then says `reviewChanged` for the change request.
 */
export class ReviewActionCommands {
  constructor(private readonly context: ReviewContext) {}

  async setChangeRequestSubject(
    args: CommandArgs<'setChangeRequestSubject'>,
  ): Promise<CommandResult<'setChangeRequestSubject'>> {
    return this.act(args, 'Changing the subject', (actions) =>
      actions.setMetadata(args, { subject: args.subject }),
    );
  }

  async setChangeRequestStatus(
    args: CommandArgs<'setChangeRequestStatus'>,
  ): Promise<CommandResult<'setChangeRequestStatus'>> {
    return this.act(args, 'Changing the status', (actions) =>
      actions.setMetadata(args, { status: args.status }),
    );
  }

  /**
   * Not queued offline: a name or an email is resolved through the organization's members,
   * which only the server knows; resolving it later could ask someone the user did not mean.
   */
  async setReviewers(args: CommandArgs<'setReviewers'>): Promise<CommandResult<'setReviewers'>> {
    return this.act(args, 'Changing reviewers', async (actions) => {
      await actions.setReviewers(args, args.add, args.remove);
      return null;
    });
  }

  async reviewChangeRequest(
    args: CommandArgs<'reviewChangeRequest'>,
  ): Promise<CommandResult<'reviewChangeRequest'>> {
    const action = args.verdict === 'approved' ? 'Approving' : 'Requesting changes';
    return this.act(args, action, async (actions, session) => {
      await actions.review(args, args.verdict, args.comment);
      return session.engine.changeRequest(refOf(args), session.config.user.id);
    });
  }

  async updateChangeRequest(
    args: CommandArgs<'updateChangeRequest'>,
  ): Promise<CommandResult<'updateChangeRequest'>> {
    return this.act(args, 'Updating from main', (actions) => actions.updateFromMain(args));
  }

  async mergeChangeRequest(
    args: CommandArgs<'mergeChangeRequest'>,
  ): Promise<CommandResult<'mergeChangeRequest'>> {
    return this.act(args, 'Merging', (actions) => actions.merge(args));
  }

  async exportChangeRequestPdf(
    args: CommandArgs<'exportChangeRequestPdf'>,
  ): Promise<CommandResult<'exportChangeRequestPdf'>> {
    return this.act(args, 'Exporting a PDF', (actions) =>
      actions.exportPdf(args, args.pageId, args.file, downloadsFolder()),
    );
  }

  /** Runs an action on the logged-in session, its failure in the contract's terms. */
  private async act<T>(
    ref: ChangeRequestRef,
    action: string,
    task: (actions: ReviewActions, session: Session) => Promise<T>,
  ): Promise<T> {
    let spaceId: string | undefined;
    const result = await this.context.withSession(true, async (session) => {
      const actions = session.engine.reviewActions();
      spaceId = actions.spaceOf(ref);
      try {
        return await task(actions, session);
      } catch (error) {
        throw reviewActionFailure(error, action, session.config.server);
      }
    });
    if (spaceId !== undefined) this.context.emit('reviewChanged', { spaceId, number: ref.number });
    return result;
  }
}

function refOf(ref: ChangeRequestRef): ChangeRequestRef {
  return { space: ref.space, number: ref.number };
}

/** ~/Downloads, or the home folder when there is none. */
function downloadsFolder(): string {
  const downloads = path.join(homedir(), 'Downloads');
  return existsSync(downloads) ? downloads : homedir();
}
