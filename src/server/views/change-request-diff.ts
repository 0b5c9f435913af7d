/**
 * What a change request changes, for its view: the semantic changes of GET …/changes (the same
 * diffRevisionTrees, base = the last main revision it took in) with a line diff of each document
 * page whose text changed, computed on the worker threads.
 */
import { diffRevisionTrees, type RevisionChange } from '../content/diff-revision-trees';
import { indexPages } from '../content/page-index';
import type { RevisionTree } from '../content/revision-tree';
import type { ContentQueries } from '../resources/content/content-queries';
import type { CpuPool } from '../workers/cpu-pool';
import type { LineDiffInput, LineDiffPart } from './line-diff';

/** The view lists at most this many changes (then says how many more there are). */
export const MAX_VIEW_CHANGES = 100;

export interface ViewChange {
  change: RevisionChange;
  /** The line diff of the page's text; undefined when the text did not change, null: too large. */
  diff?: LineDiffPart[] | null;
}

export interface ChangeRequestDiff {
  changes: ViewChange[];
  more: number;
}

/** The body hashes (before, after) whose text a change shows as a diff, if any. */
function bodyPair(
  change: RevisionChange,
  base: ReturnType<typeof indexPages>,
  head: ReturnType<typeof indexPages>,
): { before: string; after: string } | undefined {
  if (!('page' in change) || change.page.type !== 'document') return undefined;
  const before = base.pages.get(change.page.id)?.page.body ?? '';
  const after = head.pages.get(change.page.id)?.page.body ?? '';
  if (change.type === 'page_created' || change.type === 'page_deleted') {
    return before || after ? { before, after } : undefined;
  }
  if (change.type === 'page_edited' && 'document' in change.attributes) return { before, after };
  return undefined;
}

export async function changeRequestDiff(
  base: RevisionTree,
  head: RevisionTree,
  queries: ContentQueries,
  cpu: CpuPool,
): Promise<ChangeRequestDiff> {
  const all = diffRevisionTrees(base, head);
  const shown = all.slice(0, MAX_VIEW_CHANGES);
  const baseIndex = indexPages(base.pages);
  const headIndex = indexPages(head.pages);
  const pairs = shown.map((change) => bodyPair(change, baseIndex, headIndex));
  const hashes = new Set(pairs.flatMap((pair) => (pair ? [pair.before, pair.after] : [])));
  hashes.delete('');
  const bodies = queries.bodies([...hashes]);
  const text = (hash: string) => (hash ? (bodies.get(hash) ?? '') : '');
  const inputs: LineDiffInput[] = pairs.flatMap((pair) =>
    pair ? [{ before: text(pair.before), after: text(pair.after) }] : [],
  );
  const diffs = inputs.length > 0 ? await cpu.run('line-diffs', { pairs: inputs }) : [];
  let next = 0;
  const changes = shown.map((change, i) =>
    pairs[i] ? { change, diff: diffs[next++] ?? null } : { change },
  );
  return { changes, more: all.length - shown.length };
}
