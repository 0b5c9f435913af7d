import type {
  CommandArgs,
  CommandName,
  CommandOutcome,
  CommandResult,
  QuireCommandHandlers,
} from '../../shared/contract/quire-commands';
import { commandErrorOf } from './command-error-of';

/**
 * Runs one command by name and answers what a bridge sends back (IPC, HTTP): the result, or the
 * typed error as data. Every bridge carries the contract through this one function.
 */
export async function dispatchCommand<K extends CommandName>(
  handlers: QuireCommandHandlers,
  name: K,
  args: CommandArgs<K>,
): Promise<CommandOutcome<K>> {
  const handler = handlers[name] as (args: CommandArgs<K>) => Promise<CommandResult<K>>;
  try {
    return { ok: true, result: await handler.call(handlers, args) };
  } catch (error) {
    return { ok: false, error: commandErrorOf(error) };
  }
}
