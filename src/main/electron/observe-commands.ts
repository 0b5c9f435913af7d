import {
  COMMAND_NAMES,
  type CommandName,
  type QuireCommandHandlers,
} from '../../shared/contract/quire-commands';

/**
 * The same handlers, calling `after(name)` once a command succeeded: the shell restarts its
 * watcher after a login, a logout or a settings change made from the window.
 */
export function observeCommands(
  handlers: QuireCommandHandlers,
  after: (name: CommandName) => void,
): QuireCommandHandlers {
  const observed: Partial<Record<CommandName, (args: unknown) => Promise<unknown>>> = {};
  for (const name of COMMAND_NAMES) {
    observed[name] = async (args) => {
      const handler = handlers[name] as (args: unknown) => Promise<unknown>;
      const result = await handler.call(handlers, args);
      after(name);
      return result;
    };
  }
  return observed as QuireCommandHandlers;
}
