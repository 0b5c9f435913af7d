import {
  FrontmatterError,
  readFrontmatterFields,
  splitFrontmatter,
  type FrontmatterFields,
  type SplitFrontmatter,
} from '../../../shared/gitsync/page-frontmatter';
import { leadingHeading } from '../../../shared/gitsync/page-title';
import type { LocalProblem } from '../local-problem';
import type { IndexedFile, ScannedFile } from '../scan-space-folder';
import type { ClassifyContext } from './classify-context';
import { parseTitleBlock } from '../../mirror/parse-title-block';

/** A readable page file: its text, and what its frontmatter and heading say. */
export interface LocalPage {
  file: ScannedFile;
  text: string;
  body: string;
  title?: string;
  fields: FrontmatterFields;
}

/** The scan's page files, read. */
export interface ReadPages {
  /** Page files of synced documents that are gone: deleted, or saved over by another page. */
  deletedEntries: readonly IndexedFile[];
  /** Synced pages whose file changed in place, by page id. */
  edited: ReadonlyMap<string, LocalPage>;
  /** Files that are new pages, or synced pages that moved there. */
  addedPages: readonly LocalPage[];
  /** New Markdown files that cannot be read: any of them may be a page that moved. */
  unreadableNew: readonly string[];
}

/** Phase 1: sorts the scan's page files into edited, gone and new ones, and reads them. */
export function readLocalPages(ctx: ClassifyContext): ReadPages {
  const isPageEntry = (entry: IndexedFile) =>
    entry.kind === 'page' &&
    entry.pageId !== null &&
    ctx.tree.nodes.get(entry.pageId)?.page.type === 'document';
  const { deletedEntries, overwritten } = findOverwritten(ctx, isPageEntry);
  const { edited, localOnly } = readEditedPages(ctx, overwritten);
  const { addedPages, unreadableNew } = readNewPages(ctx, [
    ...ctx.scan.added,
    ...overwritten,
    ...localOnly,
  ]);
  return { deletedEntries, edited, addedPages, unreadableNew };
}

/**
 * A page file saved over with the exact bytes another page's file had (a rename onto an
 * existing name, two files swapped) is that other page, moved: its own page is then treated as
 * deleted, unless it moved somewhere too.
 */
function findOverwritten(
  { scan }: ClassifyContext,
  isPageEntry: (entry: IndexedFile) => boolean,
): { deletedEntries: IndexedFile[]; overwritten: Set<ScannedFile> } {
  const deletedEntries = scan.deleted.filter(isPageEntry);
  const movedHashes = new Map<string, IndexedFile[]>();
  for (const entry of [...deletedEntries, ...scan.changed.flatMap((file) => file.base ?? [])]) {
    if (!isPageEntry(entry)) continue;
    movedHashes.set(entry.contentHash, [...(movedHashes.get(entry.contentHash) ?? []), entry]);
  }
  const overwritten = new Set<ScannedFile>();
  for (const file of scan.changed) {
    if (file.kind !== 'page' || file.base === undefined || !isPageEntry(file.base)) continue;
    if ((movedHashes.get(file.hash) ?? []).some((entry) => entry.path !== file.path)) {
      overwritten.add(file);
      deletedEntries.push(file.base);
    }
  }
  return { deletedEntries, overwritten };
}

function readEditedPages(
  ctx: ClassifyContext,
  overwritten: ReadonlySet<ScannedFile>,
): { edited: Map<string, LocalPage>; localOnly: ScannedFile[] } {
  const edited = new Map<string, LocalPage>();
  /** Edited files that name no page (an insert the user dropped): new pages again. */
  const localOnly: ScannedFile[] = [];
  for (const file of ctx.scan.changed) {
    if (file.kind !== 'page' || overwritten.has(file)) continue;
    if (file.base !== undefined && file.base.pageId === null) {
      localOnly.push(file);
      continue;
    }
    const pageId = file.base?.pageId ?? null;
    const node = pageId === null ? undefined : ctx.tree.nodes.get(pageId);
    if (pageId === null || node === undefined || node.page.type !== 'document') {
      ctx.problems.push({
        path: file.path,
        reason: 'unsupported',
        message: `${file.path} belongs to no page of the synced revision; it was not pushed`,
      });
      continue;
    }
    const page = readPage(file, ctx.problems);
    if (page) edited.set(pageId, page);
  }
  return { edited, localOnly };
}

function readNewPages(
  ctx: ClassifyContext,
  files: readonly ScannedFile[],
): { addedPages: LocalPage[]; unreadableNew: string[] } {
  const addedPages: LocalPage[] = [];
  const unreadableNew: string[] = [];
  for (const file of files) {
    if (file.kind !== 'page') continue;
    if (file.path.startsWith('.gitbook/')) continue;
    const page = readPage(file, ctx.problems);
    if (page) addedPages.push(page);
    else unreadableNew.push(file.path);
  }
  const indexedPaths = new Set(ctx.index.map((entry) => entry.path));
  for (const problem of ctx.scan.problems) {
    if (/\.md$/i.test(problem.path) && !indexedPaths.has(problem.path)) {
      unreadableNew.push(problem.path);
    }
  }
  return { addedPages, unreadableNew };
}

/** A page file → its text and fields; undefined (and a problem) when its frontmatter is invalid. */
function readPage(file: ScannedFile, problems: LocalProblem[]): LocalPage | undefined {
  const text = file.text ?? '';
  let split: SplitFrontmatter;
  try {
    split = splitFrontmatter(text);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    problems.push(invalidFrontmatter(file, error.message));
    return undefined;
  }
  const fields = split.data ? readFrontmatterFields(split.data) : { problems: [] };
  if (fields.problems.length > 0) {
    problems.push(invalidFrontmatter(file, fields.problems.join('; ')));
    return undefined;
  }
  const body = split.body.replace(/^(?:[ \t]*\r?\n)+/, '');
  const title = fields.title ?? leadingHeading(body, parseTitleBlock);
  return { file, text, body, fields, ...(title !== undefined ? { title } : {}) };
}

function invalidFrontmatter(file: ScannedFile, message: string): LocalProblem {
  return {
    path: file.path,
    reason: 'invalid-frontmatter',
    message: `${file.path}: ${message}; the page was not pushed (fix the frontmatter to sync it)`,
    ...(file.base?.pageId ? { pageId: file.base.pageId } : {}),
  };
}
