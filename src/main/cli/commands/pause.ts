import { CliError, EXIT_OK, EXIT_USAGE, type CliCommand } from '../cli-run';
import { onCommandError } from '../output/describe-error';
import { quote } from '../output/text';
import { parseDuration } from './parse-duration';

export const pause: CliCommand = async (run, values, args) => {
  if (args.length > 0) throw new CliError('pause takes no arguments', EXIT_USAGE);
  let until: Date | undefined;
  if (values.for !== undefined) {
    const ms = parseDuration(values.for);
    if (ms === undefined) {
      throw new CliError(
        `--for takes a duration like 30m, 2h or 1d, not ${quote(values.for)}`,
        EXIT_USAGE,
      );
    }
    until = new Date(Date.now() + ms);
  }
  await run.app.pause({ until: until?.toISOString() ?? null });
  run.out(
    until === undefined
      ? 'Pushing is paused until `quire resume`; local edits are still recorded.'
      : `Pushing is paused until ${until.toISOString()}; local edits are still recorded.`,
  );
  return EXIT_OK;
};

export const resume: CliCommand = async (run, _values, args) => {
  if (args.length > 0) throw new CliError('resume takes no arguments', EXIT_USAGE);
  await run.app.resume({});
  run.out('Pushing resumed: the next sync pushes the recorded local edits.');
  return EXIT_OK;
};

export const confirmDeletes: CliCommand = async (run, _values, args) => {
  const [spaceId, ...rest] = args;
  if (spaceId === undefined || rest.length > 0) {
    throw new CliError('usage: quire confirm-deletes <spaceId>', EXIT_USAGE);
  }
  await onCommandError(
    run.app.confirmDeletes({ spaceId }),
    'unknown-space',
    () => new CliError(`no space ${quote(spaceId)} (see \`quire status\`)`),
  );
  run.out(`The next sync pushes the local deletions of ${spaceId}.`);
  return EXIT_OK;
};
