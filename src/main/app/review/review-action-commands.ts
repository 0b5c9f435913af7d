import type { CommandArgs, CommandResult } from '../../../shared/contract/quire-commands';
import { notBuilt } from './not-built';
import type { ReviewContext } from './review-context';

/** Review actions on a change request: subject, status, reviewers, verdicts, update, merge, PDF. */
export class ReviewActionCommands {
  constructor(private readonly context: ReviewContext) {}

  async setChangeRequestSubject(
    _args: CommandArgs<'setChangeRequestSubject'>,
  ): Promise<CommandResult<'setChangeRequestSubject'>> {
    void this.context;
    return notBuilt('setChangeRequestSubject');
  }

  async setChangeRequestStatus(
    _args: CommandArgs<'setChangeRequestStatus'>,
  ): Promise<CommandResult<'setChangeRequestStatus'>> {
    return notBuilt('setChangeRequestStatus');
  }

  async setReviewers(_args: CommandArgs<'setReviewers'>): Promise<CommandResult<'setReviewers'>> {
    return notBuilt('setReviewers');
  }

  async reviewChangeRequest(
    _args: CommandArgs<'reviewChangeRequest'>,
  ): Promise<CommandResult<'reviewChangeRequest'>> {
    return notBuilt('reviewChangeRequest');
  }

  async updateChangeRequest(
    _args: CommandArgs<'updateChangeRequest'>,
  ): Promise<CommandResult<'updateChangeRequest'>> {
    return notBuilt('updateChangeRequest');
  }

  async mergeChangeRequest(
    _args: CommandArgs<'mergeChangeRequest'>,
  ): Promise<CommandResult<'mergeChangeRequest'>> {
    return notBuilt('mergeChangeRequest');
  }

  async exportChangeRequestPdf(
    _args: CommandArgs<'exportChangeRequestPdf'>,
  ): Promise<CommandResult<'exportChangeRequestPdf'>> {
    return notBuilt('exportChangeRequestPdf');
  }
}
