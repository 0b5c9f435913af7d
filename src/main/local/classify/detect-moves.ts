import { posix } from 'node:path';
import { findFrontmatterBlock } from '../../../shared/gitsync/page-frontmatter';
import type { LocalProblem } from '../local-problem';
import type { IndexedFile } from '../scan-space-folder';
import type { ClassifyContext } from './classify-context';
import { dirOf } from './dir-of';
import type { LocalPage, ReadPages } from './read-pages';

/** A page moved when its lines are at least this similar to the deleted one (same title)... */
const MOVE_SIMILARITY_SAME_TITLE = 0.6;
/** ...or at least this similar whatever its title. */
const MOVE_SIMILARITY_ANY_TITLE = 0.9;

/** A synced page whose file is gone and the new file that is the same page. */
export interface PageFileMove {
  from: IndexedFile;
  to: LocalPage;
}

export interface DetectedMoves {
  /** Page id → its move. */
  moved: ReadonlyMap<string, PageFileMove>;
  /** New files that are no moved page: the pages to insert. */
  newPages: readonly LocalPage[];
}

/**
 * Phase 2: pairs each deleted page file with a new one that is the same page: the same bytes
 * first, then the most similar lines. The new files left over are new pages.
 */
export function detectMoves(ctx: ClassifyContext & ReadPages): DetectedMoves {
  const moved = new Map<string, PageFileMove>();
  const claimed = new Set<LocalPage>();
  const claim = (from: IndexedFile, to: LocalPage) => {
    moved.set(from.pageId!, { from, to });
    claimed.add(to);
  };
  for (const from of ctx.deletedEntries) {
    const candidates = ctx.addedPages.filter(
      (page) => !claimed.has(page) && page.file.hash === from.contentHash,
    );
    const best = closestByPath(candidates, from.path);
    if (best) claim(from, best);
  }
  for (const { from, to } of similarPairs(ctx, moved, claimed)) {
    if (moved.has(from.pageId!) || claimed.has(to)) continue;
    claim(from, to);
  }
  const { scan, index } = ctx;
  const newPages = withoutTwins(
    ctx.addedPages.filter((page) => !claimed.has(page)),
    index
      .filter(
        (entry) => entry.kind === 'page' && !scan.deleted.some((gone) => gone.path === entry.path),
      )
      .map((entry) => entry.path),
    ctx.problems,
  );
  return { moved, newPages };
}

/** Deleted and new page files alike enough to be one page, the most alike first. */
function similarPairs(
  ctx: ClassifyContext & ReadPages,
  moved: ReadonlyMap<string, PageFileMove>,
  claimed: ReadonlySet<LocalPage>,
): { from: IndexedFile; to: LocalPage; score: number }[] {
  const similar: { from: IndexedFile; to: LocalPage; score: number }[] = [];
  for (const from of ctx.deletedEntries) {
    if (moved.has(from.pageId!)) continue;
    const cached = ctx.tree.nodes.get(from.pageId!)!.page;
    const before = lineBag(bodyOf(cached.markdown ?? ''));
    for (const to of ctx.addedPages) {
      if (claimed.has(to)) continue;
      const score = similarity(before, lineBag(to.body));
      const sameTitle = to.title !== undefined && to.title === cached.title;
      if (
        score >= MOVE_SIMILARITY_ANY_TITLE ||
        (sameTitle && score >= MOVE_SIMILARITY_SAME_TITLE)
      ) {
        similar.push({ from, to, score });
      }
    }
  }
  return similar.sort((a, b) => b.score - a.score);
}

/**
 * New page files whose paths differ from another page file's only in Unicode normalisation
 * (`Café.md` composed and decomposed): one name on macOS, two on Linux, and the same slug on the
 * server, which refuses the second. Neither new twin is pushed (which one is the page cannot be
 * told); each is reported naming every path of its twin set, and everything else goes on.
 * A twin of a page file already synced leaves that page as it is.
 */
function withoutTwins(
  pages: readonly LocalPage[],
  indexedPaths: readonly string[],
  problems: LocalProblem[],
): LocalPage[] {
  const byName = new Map<string, string[]>();
  for (const path of [...indexedPaths, ...pages.map((page) => page.file.path)]) {
    const name = path.normalize('NFC');
    const paths = byName.get(name) ?? [];
    if (!paths.includes(path)) paths.push(path);
    byName.set(name, paths);
  }
  return pages.filter((page) => {
    const twins = byName.get(page.file.path.normalize('NFC'))!;
    if (twins.length < 2) return true;
    const others = twins.filter((path) => path !== page.file.path);
    problems.push({
      path: page.file.path,
      reason: 'unsupported',
      message: `has the same name as ${others.join(', ')} in another Unicode form (NFC/NFD); new files with such a name are not pushed (rename or remove one)`,
    });
    return false;
  });
}

function bodyOf(markdown: string): string {
  return findFrontmatterBlock(markdown)?.body ?? markdown;
}

function lineBag(text: string): Map<string, number> {
  const bag = new Map<string, number>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    bag.set(line, (bag.get(line) ?? 0) + 1);
  }
  return bag;
}

/** Dice's coefficient over non-blank lines: 1 for the same lines, 0 for none in common. */
function similarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let sizeA = 0;
  let sizeB = 0;
  let common = 0;
  for (const count of a.values()) sizeA += count;
  for (const [line, count] of b) {
    sizeB += count;
    common += Math.min(count, a.get(line) ?? 0);
  }
  if (sizeA + sizeB === 0) return 1;
  return (2 * common) / (sizeA + sizeB);
}

/** Of files with the same bytes, the one most like the old path: same name, then same folder. */
function closestByPath(candidates: readonly LocalPage[], from: string): LocalPage | undefined {
  const score = (page: LocalPage) =>
    (posix.basename(page.file.path) === posix.basename(from) ? 2 : 0) +
    (dirOf(page.file.path) === dirOf(from) ? 1 : 0);
  let best: LocalPage | undefined;
  for (const candidate of candidates) {
    if (best === undefined || score(candidate) > score(best)) best = candidate;
  }
  return best;
}
