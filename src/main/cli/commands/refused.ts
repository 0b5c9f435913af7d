import { CliError, EXIT_OK, EXIT_USAGE, type CliCommand } from '../cli-run';
import { onCommandError } from '../output/describe-error';
import { plural, quote } from '../output/text';
import { terminalText } from '../terminal-text';

/** A refused change's id as typed (`quire status` lists them). */
function refusedId(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) {
    throw new CliError(`no refused change ${quote(text)} (\`quire status\` lists them)`);
  }
  return Number(text);
}

const unknownRefused = (error: { message: string }) =>
  new CliError(`${error.message} (\`quire status\` lists them); nothing was changed`);

export const retry: CliCommand = async (run, values, args) => {
  const usage = 'usage: quire retry [<id> | --all]';
  // Without an id (or with --all) every refused change is queued again: retrying is harmless.
  if (args.length > 1 || (args.length === 1 && values.all === true)) {
    throw new CliError(usage, EXIT_USAGE);
  }
  const id = args[0] === undefined ? null : refusedId(args[0]);
  const { count } = await onCommandError(
    run.app.retryRefused({ id }),
    'unknown-refused-change',
    unknownRefused,
  );
  run.out(
    count === 0
      ? 'No refused change to retry.'
      : `Queued ${plural(count, 'refused change')} again; the next \`quire sync --once\` sends ${count === 1 ? 'it' : 'them'}.`,
  );
  return EXIT_OK;
};

export const drop: CliCommand = async (run, _values, args) => {
  if (args.length !== 1) throw new CliError('usage: quire drop <id>', EXIT_USAGE);
  const id = refusedId(args[0]!);
  const dropped = await onCommandError(
    run.app.dropRefused({ id }),
    'unknown-refused-change',
    unknownRefused,
  );
  run.out(
    `Dropped refused change #${id}: ${terminalText(dropped.path)} stays as it is, a local-only edit (pushed again once you edit it).`,
  );
  return EXIT_OK;
};
