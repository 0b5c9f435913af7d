import { CommandFailedError, type CommandError } from '../../../shared/contract/command-error';
import { CliError, EXIT_FAILURE, EXIT_USAGE } from '../cli-run';

export interface ErrorLine {
  message: string;
  exitCode: number;
}

const LOGIN_AGAIN = 'the server rejected the token: run `quire login` again';

/** Any failure as the one line `quire: …` prints, and the exit code. */
export function describeError(error: unknown): ErrorLine {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof CommandFailedError) return describeCommandError(error.error);
  // The stack, if any, goes to the log; the user gets the message.
  if (error instanceof Error) return { message: error.message, exitCode: EXIT_FAILURE };
  return { message: `unexpected error: ${String(error)}`, exitCode: EXIT_FAILURE };
}

/** The application layer's typed error in the CLI's words (its hints name `quire` commands). */
export function describeCommandError(error: CommandError): ErrorLine {
  const failure = (message: string) => ({ message, exitCode: EXIT_FAILURE });
  switch (error.kind) {
    case 'invalid-argument':
      return { message: error.message, exitCode: EXIT_USAGE };
    case 'not-logged-in':
      return failure(
        `${error.message}: run \`quire login --server <url> --token <token> --folder <dir>\``,
      );
    case 'logged-out':
      return failure(`${error.message}: run \`quire login\` again`);
    case 'token-rejected':
    case 'forbidden':
      return failure(LOGIN_AGAIN);
    case 'sync-failed': {
      // A sync that pulled nothing: the token and the network get the same words as anywhere else.
      const { kind, message } = error.error;
      if (kind === 'token-rejected' || kind === 'forbidden') return failure(LOGIN_AGAIN);
      if (kind === 'offline' || kind === 'rate-limited') {
        return failure(`cannot reach server: ${message}`);
      }
      return failure(error.message);
    }
    default:
      return failure(error.message);
  }
}

/**
 * Runs `task`; a command failure of `kind` becomes what `handle` returns (a CliError with the
 * command's own words), any other failure passes unchanged.
 */
export async function onCommandError<T, K extends CommandError['kind']>(
  task: Promise<T>,
  kind: K,
  handle: (error: Extract<CommandError, { kind: K }>) => Error,
): Promise<T> {
  try {
    return await task;
  } catch (error) {
    if (error instanceof CommandFailedError && error.error.kind === kind) {
      throw handle(error.error as Extract<CommandError, { kind: K }>);
    }
    throw error;
  }
}
