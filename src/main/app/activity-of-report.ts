import type { NewActivity } from '../cache/activity-log';
import type { SpaceSyncReport, SyncReport } from '../sync/sync-engine';

/** Paths an entry lists; the count in its sentence tells the rest. */
const FILES_SHOWN = 20;

/** The activity lines of a sync or push: per space, what was pushed, merged, pulled, removed, failed. */
export function activityOfReport(report: SyncReport): NewActivity[] {
  return report.spaces.flatMap((space) => spaceActivity(space, report.finishedAt));
}

function spaceActivity(space: SpaceSyncReport, at: string): NewActivity[] {
  const entry = (kind: NewActivity['kind'], summary: string, files: readonly string[] = []) => ({
    at,
    kind,
    spaceId: space.spaceId,
    spaceTitle: space.title,
    summary,
    files: files.slice(0, FILES_SHOWN).map((file) => `${space.folder}/${file}`),
  });
  const entries: NewActivity[] = [];
  if (space.pushed) entries.push(entry('pushed', `Pushed ${plural(space.pushed, 'change')}`));
  if (space.merged !== undefined && space.merged.length > 0) {
    const merged = `Merged local and remote edits of ${plural(space.merged.length, 'file')}`;
    entries.push(entry('merged', merged, space.merged));
  }
  if (space.pulled) {
    const removed =
      space.removed.length > 0 ? `, ${plural(space.removed.length, 'file')} removed` : '';
    const summary = `Pulled revision ${space.toRevision ?? '?'}: ${plural(space.written.length, 'file')} written${removed}`;
    entries.push(entry('pulled', summary, [...space.written, ...space.removed]));
  }
  if (space.removedSpace) {
    entries.push(entry('removed', 'Removed on the server; its unedited files were removed'));
  }
  if (space.error !== undefined) entries.push(entry('failed', `Failed: ${space.error.message}`));
  return entries;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
