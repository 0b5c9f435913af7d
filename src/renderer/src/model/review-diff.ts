import type { DiffLine } from '../../../shared/contract/change-requests';

type Line = Exclude<DiffLine, { kind: 'skipped' }>;

/** One row of the side-by-side view: the old line left, the new right (either may be absent). */
export type SideBySideRow =
  { kind: 'pair'; left: Line | null; right: Line | null } | { kind: 'skipped'; count: number };

/**
 * Lays a unified diff out side by side: context on both sides, each run of removed lines paired
 * with the run of added lines after it (line by line, the rest alone), skipped lines as one row.
 */
export function sideBySide(lines: readonly DiffLine[]): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  let removed: Line[] = [];
  let added: Line[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++)
      rows.push({ kind: 'pair', left: removed[i] ?? null, right: added[i] ?? null });
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'removed') {
      if (added.length > 0) flush();
      removed.push(line);
    } else if (line.kind === 'added') added.push(line);
    else {
      flush();
      rows.push(
        line.kind === 'skipped'
          ? { kind: 'skipped', count: line.count }
          : { kind: 'pair', left: line, right: line },
      );
    }
  }
  flush();
  return rows;
}

export type DiffMode = 'split' | 'unified';

const MODE_KEY = 'quire.review.diffMode';

/** The window's localStorage, or undefined where there is none or reading it throws. */
export function windowStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** The diff layout the user chose last (side by side unless told). */
export function savedDiffMode(storage: Pick<Storage, 'getItem'> | undefined): DiffMode {
  try {
    return storage?.getItem(MODE_KEY) === 'unified' ? 'unified' : 'split';
  } catch {
    return 'split';
  }
}

export function saveDiffMode(storage: Pick<Storage, 'setItem'> | undefined, mode: DiffMode): void {
  try {
    storage?.setItem(MODE_KEY, mode);
  } catch {
    // Storage refused (private mode, quota): the choice lasts for this window only.
  }
}
