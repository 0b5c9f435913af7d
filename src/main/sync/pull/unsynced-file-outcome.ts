import { contentHash } from '../../cache/content-hash';
import type { FileIndexEntry } from '../../cache/file-index';
import type { LocalEdit } from '../../cache/local-edits';
import type { LayoutEntry } from '../space-layout';
import { editedIndexEntry, editIsOf } from './pull-plan-entries';
import type { PullDecision } from './pull-plan';

/**
 * What a pull does about a file at a path the engine has no synced version of (a new home on an
 * existing folder, an upload changed after it was sent), which differs from the remote one: the
 * one place that decides "path taken". Nothing says which side is newer, so it is a conflict:
 * the local file is kept as it is and the remote version saved for `quire resolve`. A page this
 * device created and edited again since is its pending edit: the remote version becomes its base
 * (an index entry), and the push sends the file. A path that holds another page's or file's
 * local edit (a page created locally where a remote page now lands), or a folder (`localHash`
 * ''), is reported as taken instead.
 */
export function unsyncedFileOutcome(
  entry: LayoutEntry,
  localHash: string,
  localEdits: readonly LocalEdit[],
): { index: FileIndexEntry } | { decision: PullDecision } {
  const edit = localEdits.find((candidate) => candidate.path === entry.path);
  if (edit?.contentHash && entry.text !== undefined && editIsOf(edit, entry)) {
    return { index: editedIndexEntry(entry, contentHash(entry.text)) };
  }
  if (localHash !== '' && (edit === undefined || editIsOf(edit, entry))) {
    return {
      decision: {
        kind: 'unmerged',
        entry,
        localPath: entry.path,
        localHash,
        message: `${entry.path} differs from the remote version and was never synced from it, so the two cannot be merged: the local file was kept as it is and the remote version saved as a conflict to resolve`,
      },
    };
  }
  return {
    decision: {
      kind: 'problem',
      problem: {
        kind: 'path-taken',
        path: entry.path,
        pageId: entry.pageId ?? null,
        message: `${entry.path} exists but was not written by Quire; the remote version was not written`,
      },
    },
  };
}
