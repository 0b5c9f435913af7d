import { CommandFailedError } from '../../../shared/contract/command-error';
import { CliError, EXIT_OK, EXIT_USAGE, type CliCommand, type Run } from '../cli-run';
import { refusedJson, spaceStatusJson } from '../output/json';
import {
  changeRequestText,
  errorLabel,
  syncedFolderLabel,
  unsyncedText,
} from '../output/sync-text';
import { problemHints } from '../output/problem-hints';
import { plural } from '../output/text';
import { terminalText } from '../terminal-text';

/** Everything `quire status` shows, from the cache (no network). */
async function gather(run: Run) {
  const connection = await run.app.connection({});
  if (connection.state === 'new') {
    const message = `not logged in (no ${run.home.configFile})`;
    throw new CommandFailedError({ kind: 'not-logged-in', message });
  }
  return {
    connection,
    spaces: await run.app.spaceStatuses({}),
    model: await run.app.status({}),
    refused: await run.app.refusedChanges({}),
    // Saved since the last sync and not recorded yet: the next sync pushes them.
    unsynced: await run.app.unsyncedEdits({}),
  };
}

export const status: CliCommand = async (run, values, args) => {
  if (args.length > 0) throw new CliError('status takes no arguments', EXIT_USAGE);
  const { connection, spaces, model, refused, unsynced } = await gather(run);
  // The process syncing this home right now (`sync --watch`, the app), if any.
  const runner = connection.runner;
  const loggedIn = connection.state === 'logged-in';
  const unsyncedIn = (spaceId: string) => unsynced.filter((edit) => edit.spaceId === spaceId);
  const pending = model.pending + unsynced.length;
  if (values.json) {
    const modelSpaces = new Map(model.spaces.map((space) => [space.id, space]));
    const report = {
      server: connection.server,
      folder: connection.folder,
      user: connection.user,
      loggedIn,
      state: model.state,
      pending,
      lastSync: model.lastSync,
      paused: model.paused,
      pausedUntil: model.pausedUntil,
      conflicts: model.conflicts,
      error: model.error,
      runner,
      problems: model.problems.map((problem) => ({
        path: problem.path,
        message: problem.message,
        spaceId: problem.spaceId,
        kind: problem.kind,
      })),
      refused: refused.map(refusedJson),
      unsynced: unsynced.map((edit) => ({
        spaceId: edit.spaceId,
        path: edit.path,
        change: edit.change,
        ...(edit.from !== undefined ? { from: edit.from } : {}),
      })),
      spaces: spaces.map((space) => ({
        ...spaceStatusJson(space),
        pending: (modelSpaces.get(space.id)?.pending ?? 0) + unsyncedIn(space.id).length,
        conflicts: modelSpaces.get(space.id)?.conflicts ?? 0,
      })),
    };
    run.out(JSON.stringify(report, null, 2));
    return EXIT_OK;
  }
  run.out(`${connection.server} → ${connection.folder}${loggedIn ? '' : ' (logged out)'}`);
  const overall = [
    model.state,
    pending > 0 ? `${plural(pending, 'change')} pending` : undefined,
    model.conflicts > 0 ? plural(model.conflicts, 'conflict') : undefined,
    model.pausedUntil ? `paused until ${model.pausedUntil}` : undefined,
    runner ? `${runner.command} running (pid ${runner.pid})` : undefined,
  ].filter((fact) => fact !== undefined);
  // Space errors and problems are listed under each space below.
  run.out(`Status: ${overall.join(', ')}`);
  for (const space of spaces) {
    const facts = [
      space.state,
      space.revision ? `revision ${space.revision}` : 'never pulled',
      plural(space.pages, 'page'),
      space.lastSync ? `last sync ${space.lastSync}` : undefined,
    ].filter((fact) => fact !== undefined);
    run.out(`${syncedFolderLabel(space)}: ${facts.join(', ')}`);
    if (space.changeRequest) run.out(`  ${changeRequestText(space.changeRequest)}`);
    for (const edit of unsyncedIn(space.id)) run.out(`  ${unsyncedText(edit)}`);
    for (const error of space.errors) run.out(`  ${errorLabel(space)}: ${terminalText(error)}`);
  }
  if (spaces.length === 0) run.out('No spaces yet: `quire spaces` fetches the list.');
  for (const change of refused) {
    run.out(
      `Refused #${change.id} ${change.kind} ${terminalText(change.path)}: ${terminalText(change.reason)}`,
    );
    for (const held of change.holds) run.out(`  holds back ${terminalText(held)}`);
  }
  for (const hint of problemHints(model.problems, refused.length)) run.out(hint);
  return EXIT_OK;
};
