import { diff3Merge } from 'node-diff3';

/** How many regions both sides changed, and the text with git-style diff3 markers around them. */
export interface MarkedConflict {
  text: string;
  regions: number;
}

/**
 * The three versions of a page as one text, like `git merge` with `merge.conflictStyle=diff3`:
 * what merges cleanly is merged, and each region both sides changed shows mine, the base and
 * theirs between markers. Edit the markers out and pass the file to `quire resolve --merged`.
 * A missing side (a deleted file, an unknown base) counts as empty.
 */
export function conflictMarkers(
  base: string | null,
  mine: string | null,
  theirs: string | null,
  labels: { mine: string; theirs: string },
): MarkedConflict {
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
      continue;
    }
    if (!region.conflict) continue;
    conflicts++;
    out.push(`<<<<<<< ${labels.mine}`, ...region.conflict.a);
    out.push('||||||| base (last synced)', ...region.conflict.o);
    out.push('=======', ...region.conflict.b, `>>>>>>> ${labels.theirs}`);
  }
  return { text: out.length === 0 ? '' : `${out.join('\n')}\n`, regions: conflicts };
}

/** Whether a text still holds conflict markers (the user has not finished merging). */
export function hasConflictMarkers(text: string): boolean {
  return /^(<<<<<<<|=======|>>>>>>>)( |$)/m.test(text);
}
