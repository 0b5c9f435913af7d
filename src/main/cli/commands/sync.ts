import { CommandFailedError } from '../../../shared/contract/command-error';
import { CliError, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, type Run, type Values } from '../cli-run';
import {
  changeRequestText,
  outcomeText,
  syncedFolderLabel,
  watchRunText,
} from '../output/sync-text';
import { problemHints } from '../output/problem-hints';
import { plural, quote } from '../output/text';
import type { ProgressBar } from '../progress-bar';
import { terminalText } from '../terminal-text';
import { parseDuration } from './parse-duration';

/** `sync --once`: the progress bar on stderr while it runs, then one line per space. */
export async function syncOnce(
  run: Run,
  values: Values,
  args: string[],
  bar: ProgressBar,
  titles: Map<string, string>,
): Promise<number> {
  if (args.length > 0) throw new CliError('sync takes no arguments', EXIT_USAGE);
  if (!values.once) {
    throw new CliError('use `quire sync --once` or `quire sync --watch`', EXIT_USAGE);
  }
  if (values.interval !== undefined) throw new CliError('--interval goes with --watch', EXIT_USAGE);
  const offProgress = run.app.on('progress', (progress) => bar.update(progress));
  let result;
  try {
    for (const space of await run.app.spaceStatuses({})) titles.set(space.id, space.title);
    result = await run.app.syncNow({});
  } finally {
    offProgress();
  }
  // Only a watcher in this very process answers `requested`; `quire sync --once` runs none.
  if (result.kind !== 'ran') throw new Error('the sync was handed to a watcher');
  bar.clear();
  let conflicts = 0;
  let problems = result.errors.length;
  for (const space of result.spaces) {
    conflicts += space.conflicts;
    problems += space.problems.length;
    const conflictNote = space.conflicts > 0 ? `, ${plural(space.conflicts, 'conflict')}` : '';
    run.out(`${syncedFolderLabel(space)}: ${outcomeText(space)}${conflictNote}`);
    if (space.changeRequest) run.out(`  ${changeRequestText(space.changeRequest)}`);
    for (const problem of space.problems) run.out(`  problem: ${terminalText(problem)}`);
  }
  if (result.commentsSent) run.out(`Comments: ${plural(result.commentsSent, 'change')} sent.`);
  for (const error of result.errors) run.out(`problem: ${terminalText(error)}`);
  if (conflicts + problems > 0) {
    const status = await run.app.status({});
    for (const hint of problemHints(status.problems, 0)) run.out(hint);
  }
  if (result.spaces.length === 0) {
    run.out('No space is enabled: `quire spaces enable <spaceId>` picks one.');
  }
  if (result.pause.paused) {
    const until = result.pause.until ? `until ${result.pause.until}` : 'until `quire resume`';
    run.out(`Pushing is paused ${until}: local edits were recorded, not pushed.`);
  }
  if (conflicts + problems > 0) {
    run.warn(
      `sync finished with ${plural(conflicts, 'conflict')} and ${plural(problems, 'problem')}`,
    );
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}

/**
 * `sync --watch`: one line per run that did something and per change of the overall state on
 * stdout, warnings on stderr; exit 0 after a clean stop (SIGINT/SIGTERM: the request in flight is
 * answered and recorded, nothing after it is sent); exit 1 once the server rejects the token.
 */
export async function syncWatch(run: Run, values: Values, args: string[]): Promise<number> {
  if (args.length > 0) throw new CliError('sync takes no arguments', EXIT_USAGE);
  if (values.once) throw new CliError('sync takes --once or --watch, not both', EXIT_USAGE);
  let intervalMs: number | undefined;
  if (values.interval !== undefined) {
    intervalMs = parseDuration(values.interval);
    if (intervalMs === undefined) {
      throw new CliError(
        `--interval takes a duration like 30s, 5m or 1h, not ${quote(values.interval)}`,
        EXIT_USAGE,
      );
    }
  }
  const onStop = run.io.onStop;
  if (onStop === undefined) throw new CliError('sync --watch needs a terminal to stop it from');
  const stop = new AbortController();
  let stopRequested = false;
  const unsubscribe = [
    onStop(() => {
      if (!stopRequested) run.out('Stopping after the current request…');
      stopRequested = true;
      stop.abort();
    }),
    ...printWatchEvents(run),
  ];
  try {
    let server = '';
    const final = await run.app
      .watch({
        signal: stop.signal,
        ...(intervalMs !== undefined ? { intervalMs } : {}),
        onLocked: (config) => {
          server = config.server;
          run.out(`Watching ${config.folder} (Ctrl-C stops).`);
        },
      })
      .catch((error: unknown) => {
        if (!(error instanceof CommandFailedError) || error.error.kind !== 'token-rejected') {
          throw error;
        }
        throw new CliError(
          `the server ${server} rejected the token (revoked or expired): run \`quire login\` again; nothing syncs until then`,
        );
      });
    run.out(
      `Stopped${final.pending > 0 ? ` with ${plural(final.pending, 'change')} still queued (pushed by the next sync)` : ''}.`,
    );
  } finally {
    for (const off of unsubscribe) off();
  }
  return EXIT_OK;
}

/** A line per run that did something, and per settled state (runs say what they did). */
function printWatchEvents(run: Run): (() => void)[] {
  let lastState = '';
  return [
    run.app.on('run', (summary) => {
      const line = watchRunText(summary);
      if (line !== undefined) run.out(line);
    }),
    run.app.on('status', (status) => {
      // A rejected token ends the command with its own message (see syncWatch).
      if (status.state === 'syncing' || status.tokenRejected) return;
      const line = `${status.state}${status.pending > 0 ? `, ${plural(status.pending, 'change')} pending` : ''}`;
      if (line === lastState) return;
      lastState = line;
      run.out(`status: ${line}`);
      if (status.state === 'error' && status.error) run.warn(status.error);
    }),
  ];
}
