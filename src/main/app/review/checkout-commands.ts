import type { CommandArgs, CommandResult } from '../../../shared/contract/quire-commands';
import { notBuilt } from './not-built';
import type { ReviewContext } from './review-context';

/** Change requests checked out as folders that push to them. */
export class CheckoutCommands {
  constructor(private readonly context: ReviewContext) {}

  async checkoutChangeRequest(
    _args: CommandArgs<'checkoutChangeRequest'>,
  ): Promise<CommandResult<'checkoutChangeRequest'>> {
    void this.context;
    return notBuilt('checkoutChangeRequest');
  }

  async checkouts(_args: CommandArgs<'checkouts'>): Promise<CommandResult<'checkouts'>> {
    return notBuilt('checkouts');
  }
}
