import { diff3Merge } from 'node-diff3';

/**
 * The text the "Edit merged" editor starts from, like `git merge` with diff3 markers: what merges
 * cleanly is merged, each region both sides changed shows mine, the base and theirs between
 * markers (as `quire conflicts show` prints it). A missing side is empty.
 */
export function mergedDraft(
  base: string | null,
  mine: string | null,
  theirs: string | null,
): { text: string; regions: number } {
  const lines = (text: string | null) => {
    if (text === null || text === '') return [];
    return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  };
  const regions = diff3Merge<string>(lines(mine), lines(base), lines(theirs), {
    excludeFalseConflicts: true,
  });
  const out: string[] = [];
  let conflicts = 0;
  for (const region of regions) {
    if (region.ok) {
      out.push(...region.ok);
    } else if (region.conflict) {
      conflicts++;
      out.push('<<<<<<< mine (this computer)', ...region.conflict.a);
      out.push('||||||| base (last synced)', ...region.conflict.o);
      out.push('=======', ...region.conflict.b, '>>>>>>> theirs (server)');
    }
  }
  return { text: out.length === 0 ? '' : `${out.join('\n')}\n`, regions: conflicts };
}

/** Whether a text still holds conflict markers (the user has not finished merging). */
export function hasConflictMarkers(text: string): boolean {
  return /^(<<<<<<<|=======|>>>>>>>)( |$)/m.test(text);
}
