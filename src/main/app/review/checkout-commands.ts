import { CommandFailedError } from '../../../shared/contract/command-error';
import type { CommandArgs, CommandResult } from '../../../shared/contract/quire-commands';
import { CheckoutRefusedError } from '../../checkouts/check-out';
import type { ReviewContext } from './review-context';

/** Change requests checked out as folders that push to them. */
export class CheckoutCommands {
  constructor(private readonly context: ReviewContext) {}

  /** Asks the server for the change request, then mirrors it into its folder. */
  async checkoutChangeRequest(
    args: CommandArgs<'checkoutChangeRequest'>,
  ): Promise<CommandResult<'checkoutChangeRequest'>> {
    const checkout = await this.context.withSession(true, async ({ engine }) => {
      try {
        return await engine.checkoutChangeRequest({ space: args.space, number: args.number });
      } catch (error) {
        if (!(error instanceof CheckoutRefusedError)) throw error;
        throw new CommandFailedError({ kind: 'refused', message: error.message, status: 409 });
      }
    });
    this.context.emit('reviewChanged', { spaceId: checkout.spaceId, number: checkout.number });
    // The background sync watches a new folder only after a run: without one now, edits saved
    // there right away would wait unseen for the next scheduled pull.
    this.context.requestSync?.();
    return checkout;
  }

  async checkouts(_args: CommandArgs<'checkouts'>): Promise<CommandResult<'checkouts'>> {
    return this.context.withSession(false, ({ engine }) => engine.checkouts());
  }
}
