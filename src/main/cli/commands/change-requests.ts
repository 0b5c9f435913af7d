import type { ChangeRequestRef } from '../../../shared/contract/change-requests';
import { CliError, EXIT_OK, EXIT_USAGE, type CliCommand, type Run, type Values } from '../cli-run';
import {
  COLOURS,
  PLAIN,
  changeRequestDetailText,
  changeRequestLine,
  diffLineText,
  pageDiffHeading,
} from '../output/change-request-text';
import { onCommandError } from '../output/describe-error';
import { oneLine, plural } from '../output/text';
import { crActionCommands } from './cr-action-commands';
import { crCheckoutCommands } from './cr-checkout-commands';
import { crCommentCommands } from './cr-comment-commands';

const USAGE =
  'usage: quire cr list [--json] | quire cr show|diff <space> <number> [--json] | quire cr pin|unpin <space> <number>';

/**
 * `quire cr …`: the change requests the sync mirrored, read from the cache (so it works
 * offline): the inbox, one change request, and its diff page by page.
 */
export const changeRequests: CliCommand = async (run, values, args) => {
  const [sub, ...rest] = args;
  if (sub === 'list' && rest.length === 0) return list(run, values);
  if (sub === 'show') return show(run, values, refOf(rest));
  if (sub === 'diff') return diff(run, values, refOf(rest));
  if (sub === 'pin' || sub === 'unpin') return pin(run, refOf(rest), sub === 'pin');
  const more = sub === undefined ? undefined : REVIEW_SUBCOMMANDS[sub];
  if (more !== undefined) return more(run, values, rest);
  throw new CliError(USAGE, EXIT_USAGE);
};

/** `quire cr <sub> …` beyond reading: comments, review actions, checkouts (one file each). */
const REVIEW_SUBCOMMANDS: Readonly<Record<string, CliCommand>> = {
  ...crCommentCommands,
  ...crActionCommands,
  ...crCheckoutCommands,
};

/** `<space> <number>` (the number may start with `#`). */
export function refOf(args: readonly string[]): ChangeRequestRef {
  if (args.length !== 2) throw new CliError(USAGE, EXIT_USAGE);
  const number = args[1]!.replace(/^#/, '');
  if (!/^[1-9][0-9]{0,15}$/.test(number)) {
    throw new CliError(`not a change request number: ${JSON.stringify(args[1])}`, EXIT_USAGE);
  }
  return { space: args[0]!, number: Number(number) };
}

/** An unknown space or number, in the CLI's words. */
export function known<T>(task: Promise<T>): Promise<T> {
  return onCommandError(
    task,
    'unknown-change-request',
    (error) => new CliError(`${error.message} (\`quire cr list\` lists them)`),
  );
}

async function list(run: Run, values: Values): Promise<number> {
  const items = await run.app.changeRequests({});
  if (values.json) {
    run.out(JSON.stringify(items, null, 2));
    return EXIT_OK;
  }
  for (const item of items) run.out(changeRequestLine(item));
  const waiting = items.filter((item) => item.waitingForYou !== null).length;
  run.out(
    items.length === 0
      ? 'No change requests mirrored (they come with `quire sync` for the synced spaces).'
      : `${plural(items.length, 'change request')}, ${waiting} waiting for you.`,
  );
  return EXIT_OK;
}

async function show(run: Run, values: Values, ref: ChangeRequestRef): Promise<number> {
  const detail = await known(run.app.changeRequest(ref));
  if (values.json) run.out(JSON.stringify(detail, null, 2));
  else for (const line of changeRequestDetailText(detail)) run.out(line);
  return EXIT_OK;
}

async function pin(run: Run, ref: ChangeRequestRef, pinned: boolean): Promise<number> {
  await known(run.app.pinChangeRequest({ ...ref, pinned }));
  run.out(
    pinned
      ? `Pinned ${oneLine(ref.space)} #${ref.number}: mirrored whatever its status, from the next sync.`
      : `Unpinned ${oneLine(ref.space)} #${ref.number}: mirrored while open or draft, from the next sync.`,
  );
  return EXIT_OK;
}

async function diff(run: Run, values: Values, ref: ChangeRequestRef): Promise<number> {
  const result = await known(run.app.changeRequestDiff(ref));
  if (values.json) {
    run.out(JSON.stringify(result, null, 2));
    return EXIT_OK;
  }
  const colour = run.io.stdout.isTTY === true && !run.io.env['NO_COLOR'];
  const styles = colour ? COLOURS : PLAIN;
  for (const page of result.pages) {
    run.out(pageDiffHeading(page));
    for (const line of page.lines) run.out(diffLineText(line, styles));
  }
  run.out(
    result.pages.length === 0 ? 'No changes.' : `${plural(result.pages.length, 'page')} changed.`,
  );
  return EXIT_OK;
}
