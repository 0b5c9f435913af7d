import type { WatchRunSummary } from '../../../shared/contract/activity';
import type { UnsyncedEditListing } from '../../../shared/contract/local-changes';
import type {
  SpaceStatus,
  SpaceSyncResult,
  WorkingChangeRequestListing,
} from '../../../shared/contract/spaces';
import { terminalText } from '../terminal-text';
import { plural } from './text';

/** `change request #4 "Edits from laptop": http://…`: where a space's local edits go. */
export function changeRequestText(changeRequest: WorkingChangeRequestListing): string {
  const where = changeRequest.url === null ? '' : `: ${changeRequest.url}`;
  return terminalText(`change request #${changeRequest.number} "${changeRequest.subject}"${where}`);
}

export function unsyncedText(edit: UnsyncedEditListing): string {
  const what =
    edit.change === 'moved' && edit.from !== undefined ? `moved from ${edit.from}` : edit.change;
  return `not yet synced: ${terminalText(edit.path)} (${terminalText(what)})`;
}

/** A space that failed lists its error; any other lists problems (files not pushed, not written). */
export function errorLabel(space: SpaceStatus): string {
  return space.state === 'error' ? 'error' : 'problem';
}

/** `Handbook (s-handbook)`, or `Handbook #4 (checked out)` for a checkout's folder. */
export function syncedFolderLabel(space: {
  readonly id: string;
  readonly title: string;
  readonly checkout?: true;
}): string {
  return `${terminalText(space.title)} (${space.checkout ? 'checked out' : space.id})`;
}

export function outcomeText(space: SpaceSyncResult): string {
  if (space.checkout && space.outcome === 'removed') {
    return 'merged or archived on the server, or its folder deleted: the checkout is gone';
  }
  const pushed = space.pushed ? `${plural(space.pushed, 'change')} pushed, ` : '';
  return `${pushed}${pullText(space)}`;
}

function pullText(space: SpaceSyncResult): string {
  switch (space.outcome) {
    case 'pulled': {
      const removed =
        space.filesRemoved > 0 ? `, ${plural(space.filesRemoved, 'file')} removed` : '';
      const written = `${plural(space.filesWritten, 'file')} written`;
      return `pulled revision ${space.revision ?? '?'}, ${written}${removed}`;
    }
    case 'pushed':
      return 'up to date';
    case 'unchanged':
      return 'up to date';
    case 'removed':
      return 'removed on the server; its unedited files were removed';
    case 'failed':
      return 'failed';
  }
}

/** One line for a watch run that did something; quiet runs (nothing changed) say nothing. */
export function watchRunText(run: WatchRunSummary): string | undefined {
  const facts = [
    run.pushed > 0 ? `${plural(run.pushed, 'change')} pushed` : undefined,
    run.written > 0 ? `${plural(run.written, 'file')} written` : undefined,
    run.removed > 0 ? `${plural(run.removed, 'file')} removed` : undefined,
    run.offline ? 'server unreachable, retrying later' : undefined,
    ...run.failures.map((failure) => `failed: ${failure}`),
  ].filter((fact) => fact !== undefined);
  if (facts.length === 0) return undefined;
  return `${run.finishedAt} ${run.kind} (${run.reason}): ${facts.join(', ')}`;
}
