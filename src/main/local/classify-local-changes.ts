/**
 * A scan of a space folder → the content changes that push its local edits, keeping every page's
 * identity: a page is its id (from the file index), never its path, so a moved or renamed file is
 * an `update_page` with `into`/`slug` and keeps its comments and history.
 *
 * How the local folder is read (Git Sync's layout, see render-gitsync-layout):
 * - A changed page file → `update_page` with its Markdown (sent whole: the server keeps the
 *   frontmatter and reads its fields). Frontmatter fields that changed, or were removed, are also
 *   set explicitly (a removed `hidden: true` would otherwise not unhide the page); the title comes
 *   from a `title` key, else the leading `# Heading`.
 * - A deleted file and a new file with the same bytes, or the same title and mostly the same lines,
 *   are one page that moved. Its new parent is the page owning its new folder (`folder/README.md`,
 *   else `folder.md`, else the page or group whose children live there); its slug is the new name.
 *   `x.md` becoming `x/README.md` (a page that gains children) is such a move, usually a no-op.
 * - A new `.md` file → `insert_page` where its path puts it, at its SUMMARY.md position when listed
 *   there, else last. A new file under `.gitbook/assets/` → `insert_files`.
 * - An edited SUMMARY.md reorders and regroups: its nesting and order win for the pages it lists
 *   (Git Sync's rule: SUMMARY.md is the tree); pages it does not list stay where they were. One
 *   that cannot be parsed is reported and changes nothing.
 * - A deleted page file → `delete_page`; pages below it whose files remain move out first.
 *
 * What is never pushed: a page whose frontmatter is invalid (reported, left as it is); a deletion
 * while a new Markdown file cannot be read (it may be the same page, moved); anything when more
 * than half of the space's pages would be deleted, or when the folder is gone, until the user
 * confirms. Pure: reads nothing, so every case is a unit test.
 */
import { posix } from 'node:path';
import {
  FrontmatterError,
  findFrontmatterBlock,
  readFrontmatterFields,
  splitFrontmatter,
  type FrontmatterFields,
  type SplitFrontmatter,
} from '../mirror/page-frontmatter';
import { parseSummary, unescapeMarkdown, type SummaryEntry } from '../mirror/parse-summary';
import {
  allocateAssetName,
  ASSETS_FOLDER,
  assetNameAllocator,
  README_PATH,
} from '../mirror/render-gitsync-layout';
import { PageTreeIndex } from '../mirror/page-tree-index';
import { titleSlug } from '../mirror/title-slug';
import {
  MAX_FILES_PER_INSERT,
  type InsertFilesChange,
  type InsertPageChange,
  type LocalContentChange,
  type PageFieldsUpdate,
  type UpdatePageChange,
} from './local-content-change';
import type { LocalProblem } from './local-problem';
import type { IndexedFile, ScanResult, ScannedFile } from './scan-space-folder';

/** The API's limit for a file sent as base64. */
export const DEFAULT_MAX_UPLOAD_BYTES = 1024 * 1024;

/**
 * A page of the cached tree (the synced revision). RemotePage, as ContentCache.loadRevision
 * returns it, is one.
 */
export interface CachedPage {
  id: string;
  type: 'document' | 'group' | 'link' | 'computed';
  title: string;
  slug?: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** Document pages: the synced Markdown (compared when deciding whether a file moved). */
  markdown?: string;
  pages: readonly CachedPage[];
}

export interface ClassifyLocalChangesInput {
  scan: ScanResult;
  /** The file index the scan compared against (path ↔ page id). */
  index: readonly IndexedFile[];
  /** The cached page tree of the synced revision. */
  pages: readonly CachedPage[];
  /** The user confirmed a mass deletion (`quire confirm-deletes`): the guard does not apply. */
  allowMassDelete?: boolean;
  /**
   * A page file's text → the Markdown sent (the engine may rewrite relative asset paths to
   * `/files/<id>`). Identity by default.
   */
  markdownForPush?: (markdown: string, path: string) => string;
  /** New assets larger than this are reported, not uploaded. Default 1 MiB (the API's base64 limit). */
  maxUploadBytes?: number;
}

export type PlannedChangeReason =
  'edit' | 'move' | 'reorder' | 'retitle' | 'new-page' | 'delete' | 'new-files';

/** One API change and where it came from, so the engine can update its index once it is pushed. */
export interface PlannedChange {
  change: LocalContentChange;
  reason: PlannedChangeReason;
  /** The existing page the change is about. */
  pageId?: string;
  /** The page's file now (for a new page: the file it was made from). */
  path?: string;
  /** insert_page: the change's `ref`, which the response's `created_page` names. */
  ref?: string;
  /**
   * insert_page into a page inserted earlier in the same changes: `change.into` is that insert's
   * `ref`, not a page id (the page gets its id when the insert is applied).
   */
  intoRef?: string;
  /** insert_files: the asset files, in the order of `files`. */
  paths?: string[];
}

export interface PageMove {
  pageId: string;
  from: string;
  to: string;
}

export type ClassifyGuard = 'mass-delete' | 'folder-missing';

export interface ClassifyResult {
  /** Set when nothing may be pushed until the user confirms; `changes` is then empty. */
  guard: ClassifyGuard | null;
  /** mass-delete: the pages this pass would delete, and the space's pages. */
  count?: number;
  total?: number;
  /** For a guard: what to tell the user. */
  message?: string;
  /** In the order they must be applied. */
  changes: PlannedChange[];
  /** The scan's problems, then classification's. */
  problems: LocalProblem[];
  /** Page files that moved (including moves that needed no change, like `x.md` → `x/README.md`). */
  moves: PageMove[];
  /**
   * Every page this pass deletes: those with a delete_page of their own and those deleted with a
   * deleted parent (their files are gone too), so the caller records each file's deletion.
   */
  deleted?: string[];
  /** `applied`: an edited SUMMARY.md was read; `invalid`: it could not be, and changed nothing. */
  summary: 'unchanged' | 'applied' | 'invalid';
}

/** A key for a page of the desired tree: a page id, or a new page's file. */
type Key = string;
const NEW = '\u0000new:';
const newKey = (path: string): Key => `${NEW}${path}`;
const isNewKey = (key: Key): boolean => key.startsWith(NEW);
const pathOfNewKey = (key: Key): string => key.slice(NEW.length);

/** A page moved when its lines are at least this similar to the deleted one (same title)... */
const MOVE_SIMILARITY_SAME_TITLE = 0.6;
/** ...or at least this similar whatever its title. */
const MOVE_SIMILARITY_ANY_TITLE = 0.9;

const SLUG = /^[a-z0-9][a-z0-9._-]*$/i;

interface CachedNode {
  page: CachedPage;
  parent: string | null;
}

/** A readable page file: its text, and what its frontmatter and heading say. */
interface LocalPage {
  file: ScannedFile;
  text: string;
  body: string;
  title?: string;
  fields: FrontmatterFields;
}

export function classifyLocalChanges(input: ClassifyLocalChangesInput): ClassifyResult {
  const { scan } = input;
  if (scan.status === 'folder-missing') {
    return {
      guard: 'folder-missing',
      message: scan.message,
      changes: [],
      problems: [{ path: '', reason: 'unreadable', message: scan.message }],
      moves: [],
      summary: 'unchanged',
    };
  }
  const problems: LocalProblem[] = [...scan.problems];
  const markdownForPush = input.markdownForPush ?? ((markdown: string) => markdown);
  const maxUploadBytes = input.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;

  // --- the cached tree and the index ------------------------------------------------------------
  const nodes = new Map<string, CachedNode>();
  const treeOrder: string[] = [];
  const walk = (pages: readonly CachedPage[], parent: string | null) => {
    for (const page of pages) {
      nodes.set(page.id, { page, parent });
      treeOrder.push(page.id);
      walk(page.pages, page.id);
    }
  };
  walk(input.pages, null);
  const cachedChildren = (parent: string | null): readonly CachedPage[] =>
    parent === null ? input.pages : (nodes.get(parent)?.page.pages ?? []);

  const pathOfPage = new Map<string, string>();
  for (const entry of input.index) {
    if (entry.kind === 'page' && entry.pageId !== null && nodes.has(entry.pageId)) {
      pathOfPage.set(entry.pageId, entry.path);
    }
  }

  // --- local page files ---------------------------------------------------------------------------
  const readPage = (file: ScannedFile): LocalPage | undefined => {
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
    const title = fields.title ?? leadingHeading(body);
    return { file, text, body, fields, ...(title !== undefined ? { title } : {}) };
  };

  const isPageEntry = (entry: IndexedFile) =>
    entry.kind === 'page' &&
    entry.pageId !== null &&
    nodes.get(entry.pageId)?.page.type === 'document';
  const deletedEntries = scan.deleted.filter(isPageEntry);
  /**
   * A page file saved over with the exact bytes another page's file had (a rename onto an
   * existing name, two files swapped) is that other page, moved: its own page is then treated as
   * deleted, unless it moved somewhere too.
   */
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

  const edited = new Map<string, LocalPage>();
  /** Edited files that name no page (an insert the user dropped): new pages again. */
  const localOnly: ScannedFile[] = [];
  for (const file of scan.changed) {
    if (file.kind !== 'page' || overwritten.has(file)) continue;
    if (file.base !== undefined && file.base.pageId === null) {
      localOnly.push(file);
      continue;
    }
    const pageId = file.base?.pageId ?? null;
    const node = pageId === null ? undefined : nodes.get(pageId);
    if (pageId === null || node === undefined || node.page.type !== 'document') {
      problems.push({
        path: file.path,
        reason: 'unsupported',
        message: `${file.path} belongs to no page of the synced revision; it was not pushed`,
      });
      continue;
    }
    const page = readPage(file);
    if (page) edited.set(pageId, page);
  }

  const addedPages: LocalPage[] = [];
  /** New Markdown files that cannot be read: any of them may be a page that moved. */
  const unreadableNew: string[] = [];
  for (const file of [...scan.added, ...overwritten, ...localOnly]) {
    if (file.kind !== 'page') continue;
    if (file.path.startsWith('.gitbook/')) continue;
    const page = readPage(file);
    if (page) addedPages.push(page);
    else unreadableNew.push(file.path);
  }
  const indexedPaths = new Set(input.index.map((entry) => entry.path));
  for (const problem of scan.problems) {
    if (/\.md$/i.test(problem.path) && !indexedPaths.has(problem.path)) {
      unreadableNew.push(problem.path);
    }
  }

  // --- moves: a deleted page file and a new one that is the same page -------------------------
  const moved = new Map<string, { from: IndexedFile; to: LocalPage }>();
  const claimed = new Set<LocalPage>();
  for (const from of deletedEntries) {
    const candidates = addedPages.filter(
      (page) => !claimed.has(page) && page.file.hash === from.contentHash,
    );
    const best = closestByPath(candidates, from.path);
    if (best) {
      moved.set(from.pageId!, { from, to: best });
      claimed.add(best);
    }
  }
  const similar: { from: IndexedFile; to: LocalPage; score: number }[] = [];
  for (const from of deletedEntries) {
    if (moved.has(from.pageId!)) continue;
    const cached = nodes.get(from.pageId!)!.page;
    const before = lineBag(bodyOf(cached.markdown ?? ''));
    for (const to of addedPages) {
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
  similar.sort((a, b) => b.score - a.score);
  for (const { from, to } of similar) {
    if (moved.has(from.pageId!) || claimed.has(to)) continue;
    moved.set(from.pageId!, { from, to });
    claimed.add(to);
  }
  const newPages = withoutTwins(
    addedPages.filter((page) => !claimed.has(page)),
    input.index
      .filter(
        (entry) => entry.kind === 'page' && !scan.deleted.some((gone) => gone.path === entry.path),
      )
      .map((entry) => entry.path),
    problems,
  );

  // --- deletions ----------------------------------------------------------------------------------
  const deleted = new Set<string>();
  for (const entry of deletedEntries) {
    if (moved.has(entry.pageId!)) continue;
    if (unreadableNew.length > 0) {
      problems.push({
        path: entry.path,
        reason: 'deferred',
        pageId: entry.pageId!,
        message: `${entry.path} was deleted, but its page is kept while ${unreadableNew[0]} cannot be read: it may be the same page, moved`,
      });
      continue;
    }
    deleted.add(entry.pageId!);
  }
  const total = [...nodes.values()].filter((node) => node.page.type === 'document').length;
  if (!input.allowMassDelete && deleted.size > 0 && deleted.size > total / 2) {
    return {
      guard: 'mass-delete',
      count: deleted.size,
      total,
      message: `${deleted.size} of the ${total} pages would be deleted; nothing was pushed until you confirm`,
      changes: [],
      problems,
      moves: [],
      summary: 'unchanged',
    };
  }
  /** Pages gone with this pass: deleted files, and file-less pages (links) only inside them. */
  const dropped = new Set<string>();
  for (const id of treeOrder) {
    const node = nodes.get(id)!;
    if (deleted.has(id)) dropped.add(id);
    else if (
      node.page.type !== 'document' &&
      node.page.type !== 'group' &&
      node.parent !== null &&
      dropped.has(node.parent)
    ) {
      dropped.add(id);
    }
  }
  const survives = (id: string) => nodes.has(id) && !dropped.has(id);
  const survivingAncestor = (id: string | null): string | null => {
    let current = id;
    while (current !== null && !survives(current)) current = nodes.get(current)?.parent ?? null;
    return current;
  };

  // --- which page owns which folder, locally --------------------------------------------------
  const localKey = new Map<string, Key>();
  for (const [pageId, path] of pathOfPage) {
    if (!deleted.has(pageId) && !moved.has(pageId)) localKey.set(path, pageId);
  }
  for (const [pageId, { to }] of moved) localKey.set(to.file.path, pageId);
  for (const page of newPages) localKey.set(page.file.path, newKey(page.file.path));

  /** Folder → the cached page or group whose children the pull put there. */
  const cachedFolderOwner = new Map<string, string>();
  for (const id of treeOrder) {
    for (const child of nodes.get(id)!.page.pages) {
      const path = pathOfPage.get(child.id);
      if (path === undefined || path === README_PATH) continue;
      const folder = posix.basename(path) === README_PATH ? dirOf(dirOf(path)) : dirOf(path);
      if (folder !== '' && !cachedFolderOwner.has(folder)) cachedFolderOwner.set(folder, id);
    }
  }
  const ownerOfFolder = (start: string): Key | null => {
    for (let folder = start; folder !== ''; folder = dirOf(folder)) {
      const readme = localKey.get(`${folder}/${README_PATH}`);
      if (readme !== undefined) return readme;
      const cached = cachedFolderOwner.get(folder);
      if (cached !== undefined && survives(cached) && !moved.has(cached)) return cached;
      // `x/child.md` next to `x.md`: x gained a child (the pull will move x.md to x/README.md).
      const sibling = localKey.get(`${folder}.md`);
      if (sibling !== undefined) return sibling;
    }
    return null;
  };
  const parentOfPath = (path: string): Key | null => {
    if (path === README_PATH) return null;
    const folder = dirOf(path);
    return ownerOfFolder(posix.basename(path) === README_PATH ? dirOf(folder) : folder);
  };
  /**
   * The folder a page file sits in, when no page owns it (no README.md, no `folder.md`, not a
   * group's): the page cannot be placed there. Pushed anyway, it would land under an ancestor and
   * the pull would write it at another path, leaving two files for one page.
   */
  const unownedFolderOf = (path: string): string | undefined => {
    if (path === README_PATH) return undefined;
    const folder = posix.basename(path) === README_PATH ? dirOf(dirOf(path)) : dirOf(path);
    if (folder === '' || localKey.has(`${folder}/${README_PATH}`)) return undefined;
    if (localKey.has(`${folder}.md`)) return undefined;
    const cached = cachedFolderOwner.get(folder);
    return cached !== undefined && survives(cached) && !moved.has(cached) ? undefined : folder;
  };
  // Moves into a folder no page owns are not made, so their files own no folder either.
  const stranded = new Map<string, string>();
  for (const [pageId, { to }] of moved) {
    const folder = unownedFolderOf(to.file.path);
    if (folder !== undefined) stranded.set(pageId, folder);
  }
  for (const id of stranded.keys()) localKey.delete(moved.get(id)!.to.file.path);
  const unowned = (path: string, folder: string, pageId?: string): LocalProblem => ({
    path,
    reason: 'unsupported',
    ...(pageId !== undefined ? { pageId } : {}),
    message: `no page owns the folder ${folder}/ (add ${folder}/README.md, or move the file into a page's folder); it was not pushed`,
  });

  // --- SUMMARY.md ---------------------------------------------------------------------------------
  let summaryState: ClassifyResult['summary'] = 'unchanged';
  let plan: SummaryPlan | undefined;
  const summaryFile = [...scan.changed, ...scan.added].find((file) => file.kind === 'layout');
  if (summaryFile) {
    const parsed = parseSummary(summaryFile.text ?? '');
    if (parsed.problems.length > 0) {
      summaryState = 'invalid';
      const lines = parsed.problems
        .slice(0, 3)
        .map((problem) => `line ${problem.line}: ${problem.message}`)
        .join('; ');
      problems.push({
        path: summaryFile.path,
        reason: 'invalid-summary',
        message: `SUMMARY.md could not be parsed (${lines}); the page order was not changed`,
      });
    } else {
      summaryState = 'applied';
      plan = planFromSummary(parsed.entries, {
        localKey,
        groups: input.pages.filter((page) => page.type === 'group'),
        links: treeOrder.map((id) => nodes.get(id)!.page).filter((page) => page.type === 'link'),
        problems,
      });
    }
  }

  // --- the desired tree ---------------------------------------------------------------------------
  const desiredParent = new Map<Key, string | null>();
  const fallbackParent = (id: string) => survivingAncestor(nodes.get(id)!.parent);
  const deferredMoves = new Set<string>();
  for (const id of treeOrder) {
    if (!survives(id)) continue;
    const node = nodes.get(id)!;
    let parent: Key | null;
    const move = moved.get(id);
    const unownedFolder = stranded.get(id);
    if (plan?.parent.has(id)) parent = plan.parent.get(id)!;
    else if (move && unownedFolder !== undefined) {
      // Left where it is (not moved, not deleted) until its folder belongs to a page.
      problems.push(unowned(move.to.file.path, unownedFolder, id));
      deferredMoves.add(id);
      desiredParent.set(id, fallbackParent(id));
      continue;
    } else if (move) parent = parentOfPath(move.to.file.path);
    else if (node.parent !== null && !survives(node.parent)) {
      const path = pathOfPage.get(id);
      parent = path === undefined ? fallbackParent(id) : parentOfPath(path);
    } else parent = node.parent;
    if (parent !== null && isNewKey(parent)) {
      deferredMoves.add(id);
      problems.push({
        path: move?.to.file.path ?? pathOfPage.get(id) ?? '',
        reason: 'deferred',
        pageId: id,
        message: `${pathOfNewKey(parent)} is a new page: the page moves into it once it exists`,
      });
      parent = fallbackParent(id);
    }
    desiredParent.set(id, parent);
  }
  for (const page of newPages) {
    const key = newKey(page.file.path);
    const unownedFolder = plan?.parent.has(key) ? undefined : unownedFolderOf(page.file.path);
    if (unownedFolder !== undefined) {
      problems.push(unowned(page.file.path, unownedFolder));
      continue;
    }
    // A parent that is a new page too is inserted first, in the same push (see emission).
    desiredParent.set(
      key,
      plan?.parent.has(key) ? plan.parent.get(key)! : parentOfPath(page.file.path),
    );
  }
  // A new page whose new parent is not pushed (its folder no page owns, say) waits for it.
  for (let dropped = true; dropped;) {
    dropped = false;
    for (const [key, parent] of desiredParent) {
      if (!isNewKey(key) || parent === null || !isNewKey(parent) || desiredParent.has(parent)) {
        continue;
      }
      problems.push({
        path: pathOfNewKey(key),
        reason: 'deferred',
        message: `${pathOfNewKey(key)} goes into ${pathOfNewKey(parent)}, a new page that is not pushed: it is added once that page is`,
      });
      desiredParent.delete(key);
      dropped = true;
    }
  }
  breakCycles(desiredParent, (id) => {
    problems.push({
      path: moved.get(id)?.to.file.path ?? pathOfPage.get(id) ?? '',
      reason: 'unsupported',
      pageId: id,
      message: 'a page cannot move inside its own sub-pages; it was left where it was',
    });
    deferredMoves.add(id);
    return fallbackParent(id);
  });

  /** Pages joining a parent are appended existing ones first, each group by its file's path. */
  const sortPath = (key: Key): string =>
    isNewKey(key)
      ? `\uffff${pathOfNewKey(key)}`
      : (moved.get(key)?.to.file.path ?? pathOfPage.get(key) ?? '');
  const desiredChildren = new Map<string | null, Key[]>();
  const byParent = new Map<string | null, Key[]>();
  for (const [key, parent] of desiredParent) {
    const list = byParent.get(parent) ?? [];
    list.push(key);
    byParent.set(parent, list);
  }
  for (const [parent, keys] of byParent) {
    const mine = new Set(keys);
    const list = (plan?.order.get(parent) ?? []).filter((key) => mine.has(key));
    const placed = new Set(list);
    // Pages SUMMARY.md does not list keep their place after the sibling they followed.
    const siblings = cachedChildren(parent).map((page) => page.id);
    for (const [i, id] of siblings.entries()) {
      if (!mine.has(id) || placed.has(id)) continue;
      let at = 0;
      for (let j = i - 1; j >= 0; j -= 1) {
        const index = list.indexOf(siblings[j]!);
        if (index !== -1) {
          at = index + 1;
          break;
        }
      }
      list.splice(at, 0, id);
      placed.add(id);
    }
    const rest = keys
      .filter((key) => !placed.has(key))
      .sort((a, b) => compareStrings(sortPath(a), sortPath(b)));
    for (const key of rest) {
      if (parent === null && key === newKey(README_PATH)) list.unshift(key);
      else list.push(key);
    }
    desiredChildren.set(parent, list);
  }

  // --- content and field updates ------------------------------------------------------------------
  const updates = new Map<string, PageFieldsUpdate & { document?: { markdown: string } }>();
  const reasons = new Map<string, PlannedChangeReason>();
  const pageFilePath = (id: string) => moved.get(id)?.to.file.path ?? pathOfPage.get(id);
  const contentUpdate = (id: string, local: LocalPage) => {
    const cached = nodes.get(id)!.page;
    const update: PageFieldsUpdate & { document?: { markdown: string } } = {
      document: { markdown: markdownForPush(local.text, local.file.path) },
      ...fieldChanges(local, cached),
    };
    if (local.title !== undefined && local.title !== '' && local.title !== cached.title) {
      update.title = local.title;
    }
    return update;
  };
  for (const [id, local] of edited) {
    updates.set(id, contentUpdate(id, local));
    reasons.set(id, 'edit');
  }
  const moves: PageMove[] = [];
  for (const [id, { from, to }] of moved) {
    if (deferredMoves.has(id)) continue;
    moves.push({ pageId: id, from: from.path, to: to.file.path });
    const update = to.file.hash === from.contentHash ? {} : contentUpdate(id, to);
    const slug = slugChange(from.path, to.file.path);
    if (slug !== undefined && slug !== nodes.get(id)!.page.slug) update.slug = slug;
    if (Object.keys(update).length > 0) {
      updates.set(id, update);
      reasons.set(id, 'move');
    }
  }
  if (plan) {
    for (const [key, title] of plan.titles) {
      const node = nodes.get(key);
      if (!node || updates.has(key) || title === '' || title === node.page.title) continue;
      updates.set(key, { title });
      reasons.set(key, 'retitle');
    }
  }

  // --- emission -----------------------------------------------------------------------------------
  const changes: PlannedChange[] = [];
  changes.push(...assetChanges(scan, input.index, problems, maxUploadBytes));

  const sim = new SimulatedTree(input.pages);
  const emitDelete = (id: string) => {
    changes.push({
      change: { operation: 'delete_page', page: id },
      reason: 'delete',
      pageId: id,
      ...(pathOfPage.has(id) ? { path: pathOfPage.get(id)! } : {}),
    });
    sim.remove(id);
  };
  // Deleted pages with nothing to keep below them go first, so their slugs are free for moves.
  const keepsBelow = (id: string): boolean =>
    nodes.get(id)!.page.pages.some((child) => survives(child.id) || keepsBelow(child.id));
  const topmostDeleted = () =>
    treeOrder.filter((id) => deleted.has(id) && sim.has(id) && !sim.hasAncestorIn(id, deleted));
  for (const id of topmostDeleted()) {
    if (!keepsBelow(id)) emitDelete(id);
  }

  let refs = 0;
  /** New pages' refs: a new page inside another goes `into` its insert's ref. */
  const refOfNew = new Map<Key, string>();
  // Parents top-down, so every page is placed before its own children are.
  const queue: (string | null)[] = [null];
  for (let next = 0; next < queue.length; next += 1) {
    const parent = queue[next]!;
    const desired = desiredChildren.get(parent) ?? [];
    const current = sim.children(parent);
    const stable = longestInOrder(desired, (key) =>
      isNewKey(key) || sim.parentOf(key) !== parent ? -1 : current.indexOf(key),
    );
    for (const [i, key] of desired.entries()) {
      queue.push(key);
      if (stable.has(key)) continue;
      const predecessor = i === 0 ? undefined : desired[i - 1];
      if (isNewKey(key)) {
        const at = sim.insert(key, parent, predecessor);
        const local = newPages.find((page) => newKey(page.file.path) === key)!;
        const ref = `quire-new-page-${(refs += 1)}`;
        refOfNew.set(key, ref);
        const intoRef = parent === null ? undefined : refOfNew.get(parent);
        const change: InsertPageChange = {
          operation: 'insert_page',
          ...(parent !== null ? { into: intoRef ?? parent } : {}),
          at,
          ref,
          ...newPageFields(local, plan?.titles.get(key)),
          document: { markdown: markdownForPush(local.text, local.file.path) },
        };
        changes.push({
          change,
          reason: 'new-page',
          path: local.file.path,
          ref,
          ...(intoRef !== undefined ? { intoRef } : {}),
        });
        continue;
      }
      const from = sim.parentOf(key);
      const before = sim.children(from).indexOf(key);
      sim.remove(key);
      const at = sim.insert(key, parent, predecessor);
      if (from === parent && at === before) continue;
      const change: UpdatePageChange = {
        operation: 'update_page',
        page: key,
        ...(updates.get(key) ?? {}),
        ...(from !== parent ? { into: parent } : {}),
        at,
      };
      updates.delete(key);
      const path = pageFilePath(key);
      changes.push({
        change,
        reason: moved.has(key) && !deferredMoves.has(key) ? 'move' : 'reorder',
        pageId: key,
        ...(path !== undefined ? { path } : {}),
      });
    }
  }
  for (const id of topmostDeleted()) emitDelete(id);

  for (const id of treeOrder) {
    const update = updates.get(id);
    if (update === undefined) continue;
    const path = pageFilePath(id);
    changes.push({
      change: { operation: 'update_page', page: id, ...update },
      reason: reasons.get(id) ?? 'edit',
      pageId: id,
      ...(path !== undefined ? { path } : {}),
    });
  }

  return { guard: null, changes, problems, moves, deleted: [...deleted], summary: summaryState };
}

// --- twins -----------------------------------------------------------------------------------------

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

// --- SUMMARY.md → placement -----------------------------------------------------------------------

interface SummaryPlan {
  /** Listed pages (and matched groups and links) → their parent in SUMMARY.md. */
  parent: Map<Key, string | null>;
  /** Parent → its listed children, in SUMMARY.md order. */
  order: Map<string | null, Key[]>;
  /** Listed pages and groups → the title SUMMARY.md gives them. */
  titles: Map<Key, string>;
}

interface PlanContext {
  localKey: ReadonlyMap<string, Key>;
  groups: readonly CachedPage[];
  links: readonly CachedPage[];
  problems: LocalProblem[];
}

function planFromSummary(entries: readonly SummaryEntry[], ctx: PlanContext): SummaryPlan {
  const plan: SummaryPlan = { parent: new Map(), order: new Map(), titles: new Map() };
  const used = new Set<string>();
  const place = (key: Key, parent: string | null) => {
    plan.parent.set(key, parent);
    const list = plan.order.get(parent) ?? [];
    list.push(key);
    plan.order.set(parent, list);
  };
  const line = (entry: SummaryEntry) => (entry.line === undefined ? '' : ` (line ${entry.line})`);
  const visit = (list: readonly SummaryEntry[], parent: string | null): void => {
    for (const entry of list) {
      if (entry.kind === 'computed') {
        visit(entry.children, parent);
        continue;
      }
      if (entry.kind === 'group') {
        const group =
          ctx.groups.find((g) => !used.has(g.id) && g.slug === entry.slug) ??
          ctx.groups.find((g) => !used.has(g.id) && g.title === entry.title);
        if (!group) {
          ctx.problems.push({
            path: 'SUMMARY.md',
            reason: 'unsupported',
            message: `The group "${entry.title}"${line(entry)} is new; groups are created in the editor, so its pages were placed one level up`,
          });
          visit(entry.children, parent);
          continue;
        }
        used.add(group.id);
        place(group.id, parent);
        plan.titles.set(group.id, entry.title);
        visit(entry.children, group.id);
        continue;
      }
      const target = summaryTarget(entry.destination);
      if (target !== undefined && !target.anchor && /\.md$/i.test(target.path)) {
        const key = ctx.localKey.get(target.path);
        if (key !== undefined && !plan.parent.has(key)) {
          place(key, parent);
          plan.titles.set(key, entry.title);
          visit(entry.children, key);
          continue;
        }
        if (key === undefined) {
          ctx.problems.push({
            path: 'SUMMARY.md',
            reason: 'invalid-summary',
            message: `SUMMARY.md lists ${target.path}${line(entry)}, which is not a page file here; the entry was skipped`,
          });
          visit(entry.children, parent);
          continue;
        }
      }
      // A link page (a URL, an anchor, a page listed twice): matched by its title.
      const link = ctx.links.find((l) => !used.has(l.id) && l.title === entry.title);
      if (link) {
        used.add(link.id);
        place(link.id, parent);
      }
      visit(entry.children, parent);
    }
  };
  visit(entries, null);
  return plan;
}

/** A SUMMARY.md destination as a path from the space folder; undefined for URLs and absolute paths. */
function summaryTarget(destination: string): { path: string; anchor: boolean } | undefined {
  if (destination === '' || /^[a-z][a-z0-9+.-]*:/i.test(destination) || /^[/#]/.test(destination)) {
    return undefined;
  }
  const hash = destination.indexOf('#');
  const pathPart = (hash === -1 ? destination : destination.slice(0, hash)).split('?')[0] ?? '';
  const path = posix.normalize(safeDecode(pathPart)).replace(/^\.\//, '');
  if (path === '..' || path.startsWith('../') || path.startsWith('/')) return undefined;
  return { path, anchor: hash !== -1 };
}

// --- the simulated server tree ----------------------------------------------------------------------

/**
 * The server's page tree as the changes emitted so far leave it, so that every `at` is computed
 * exactly as the server will apply it (take the page out, then insert it at `at`).
 */
class SimulatedTree extends PageTreeIndex {
  hasAncestorIn(key: Key, set: ReadonlySet<string>): boolean {
    for (let parent = this.parentOf(key); parent !== null; parent = this.parentOf(parent)) {
      if (set.has(parent)) return true;
    }
    return false;
  }

  /** Inserts right after `predecessor` (first when none); returns the index. */
  insert(key: Key, parent: string | null, predecessor: Key | undefined): number {
    const at = predecessor === undefined ? 0 : this.children(parent).indexOf(predecessor) + 1;
    return this.insertAt(key, parent, at);
  }
}

/**
 * The keys to leave where they are: the longest run of `keys` already in order among the current
 * siblings (`position` is the current index, -1 when not among them). Everything else moves.
 */
function longestInOrder(keys: readonly Key[], position: (key: Key) => number): Set<Key> {
  const items = keys
    .map((key) => ({ key, position: position(key) }))
    .filter((item) => item.position >= 0);
  // Patience sorting: tails[k] is the index (in items) of the smallest tail of a run of length k+1.
  const tails: number[] = [];
  const previous: number[] = new Array<number>(items.length).fill(-1);
  for (const [i, item] of items.entries()) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (items[tails[mid]!]!.position < item.position) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[i] = tails[low - 1]!;
    tails[low] = i;
  }
  const stable = new Set<Key>();
  for (let i = tails.length === 0 ? -1 : tails[tails.length - 1]!; i !== -1; i = previous[i]!) {
    stable.add(items[i]!.key);
  }
  return stable;
}

/** Reverts pages whose desired parent lies inside themselves (the server would refuse the batch). */
function breakCycles(
  parents: Map<Key, string | null>,
  revert: (id: string) => string | null,
): void {
  for (const key of parents.keys()) {
    const seen = new Set<Key>([key]);
    for (
      let parent = parents.get(key) ?? null;
      parent !== null;
      parent = parents.get(parent) ?? null
    ) {
      if (seen.has(parent)) {
        parents.set(key, revert(key));
        break;
      }
      seen.add(parent);
    }
  }
}

// --- pages and fields -------------------------------------------------------------------------------

const STRING_FIELDS = ['description', 'icon', 'emoji'] as const;
const BOOLEAN_FIELDS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** The page fields the frontmatter changes; a key removed from it clears the field. */
function fieldChanges(local: LocalPage, cached: CachedPage): PageFieldsUpdate {
  const update: PageFieldsUpdate = {};
  for (const key of STRING_FIELDS) {
    const value = local.fields[key] ?? '';
    if (value !== (cached[key] ?? '')) update[key] = value;
  }
  for (const key of BOOLEAN_FIELDS) {
    const value = local.fields[key] ?? false;
    if (value !== (cached[key] ?? false)) update[key] = value;
  }
  return update;
}

function newPageFields(local: LocalPage, summaryTitle: string | undefined): PageFieldsUpdate {
  const fields: PageFieldsUpdate = {};
  const title = local.title || summaryTitle || fallbackTitle(local.file.path);
  if (title) fields.title = title;
  const slug = slugOfPath(local.file.path);
  if (slug !== undefined) fields.slug = slug;
  for (const key of STRING_FIELDS) {
    const value = local.fields[key];
    if (value) fields[key] = value;
  }
  for (const key of BOOLEAN_FIELDS) {
    if (local.fields[key]) fields[key] = true;
  }
  return fields;
}

/** The name a page file gives its page: `x.md` and `x/README.md` are `x`; the space's README none. */
function nameOfPath(path: string): string | undefined {
  if (path === README_PATH) return undefined;
  if (posix.basename(path) === README_PATH) return posix.basename(dirOf(path));
  return posix.basename(path).replace(/\.md$/i, '');
}

/** The slug a file name gives (valid slugs as they are, others as the title's slug would be). */
function slugOfPath(path: string): string | undefined {
  const name = nameOfPath(path);
  if (name === undefined) return undefined;
  if (SLUG.test(name) && name.length <= 100) return name;
  const slug = titleSlug(name);
  return slug === '' ? undefined : slug;
}

/** A moved page's new slug, when its name changed (a move that keeps the name keeps the slug). */
function slugChange(from: string, to: string): string | undefined {
  if (nameOfPath(from) === nameOfPath(to)) return undefined;
  return slugOfPath(to);
}

function fallbackTitle(path: string): string | undefined {
  return nameOfPath(path);
}

function invalidFrontmatter(file: ScannedFile, message: string): LocalProblem {
  return {
    path: file.path,
    reason: 'invalid-frontmatter',
    message: `${file.path}: ${message}; the page was not pushed (fix the frontmatter to sync it)`,
    ...(file.base?.pageId ? { pageId: file.base.pageId } : {}),
  };
}

/** The text of a leading ATX `# Heading`, escapes resolved and closing hashes removed. */
function leadingHeading(markdown: string): string | undefined {
  const line = /^ {0,3}#(?:[ \t]+([^\r\n]*?))?(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!line) return undefined;
  const text = unescapeMarkdown(line[1] ?? '').trim();
  return text === '' ? undefined : text;
}

function bodyOf(markdown: string): string {
  return findFrontmatterBlock(markdown)?.body ?? markdown;
}

// --- similarity -----------------------------------------------------------------------------------

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

// --- assets ---------------------------------------------------------------------------------------

function assetChanges(
  scan: Extract<ScanResult, { status: 'scanned' }>,
  index: readonly IndexedFile[],
  problems: LocalProblem[],
  maxUploadBytes: number,
): PlannedChange[] {
  const uploads: { path: string; file: InsertFilesChange['files'][number] }[] = [];
  // Where the pull will put each upload, after the space's files: an upload must land on its own
  // file, or the pull would write a second copy and never recognise the first.
  const placement = assetNameAllocator(
    index.filter((entry) => entry.kind === 'asset').map((entry) => posix.basename(entry.path)),
  );
  for (const file of scan.added) {
    if (file.kind !== 'asset') continue;
    const name = file.path.slice(ASSETS_FOLDER.length + 1);
    if (name.includes('/')) {
      problems.push({
        path: file.path,
        reason: 'unsupported',
        message: `${file.path}: files in folders under ${ASSETS_FOLDER}/ are not synced`,
      });
      continue;
    }
    const placed = allocateAssetName(placement, name);
    if (placed !== name) {
      problems.push({
        path: file.path,
        reason: 'unsupported',
        message: `${file.path}: the synced copy would be named "${placed}" (a name another file has, or one not every system accepts); rename the file to upload it`,
      });
      continue;
    }
    if (file.size > maxUploadBytes || file.bytes === undefined) {
      problems.push({
        path: file.path,
        reason: 'too-large',
        message: `${file.path} is over the ${Math.round(maxUploadBytes / 1024)} KiB upload limit; it was not uploaded`,
      });
      continue;
    }
    uploads.push({
      path: file.path,
      file: {
        name,
        contentType: contentTypeOf(name),
        base64: Buffer.from(file.bytes).toString('base64'),
      },
    });
  }
  for (const file of scan.changed) {
    if (file.kind !== 'asset') continue;
    problems.push({
      path: file.path,
      reason: 'unsupported',
      message: `${file.path} was changed, but uploaded files cannot be replaced; save it under a new name to upload it`,
    });
  }
  for (const entry of scan.deleted) {
    if (entry.kind !== 'asset') continue;
    problems.push({
      path: entry.path,
      reason: 'unsupported',
      message: `${entry.path} was deleted, but uploaded files are not deleted from the space`,
    });
  }
  const changes: PlannedChange[] = [];
  for (let i = 0; i < uploads.length; i += MAX_FILES_PER_INSERT) {
    const chunk = uploads.slice(i, i + MAX_FILES_PER_INSERT);
    changes.push({
      change: { operation: 'insert_files', files: chunk.map((upload) => upload.file) },
      reason: 'new-files',
      paths: chunk.map((upload) => upload.path),
    });
  }
  return changes;
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
};

function contentTypeOf(name: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

// --- helpers --------------------------------------------------------------------------------------

function dirOf(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
