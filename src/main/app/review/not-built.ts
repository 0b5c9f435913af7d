import { CommandFailedError } from '../../../shared/contract/command-error';
import type { CommandName } from '../../../shared/contract/quire-commands';

/** Placeholder refusal for a review command whose engine side is not wired yet. */
export function notBuilt(command: CommandName): never {
  throw new CommandFailedError({
    kind: 'unavailable',
    command,
    message: `${command} is not available yet`,
  });
}
