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
import { README_PATH } from '../../shared/gitsync/render-gitsync-layout';
import type { LocalProblem } from './local-problem';
import type { ScanResult, IndexedFile } from './scan-space-folder';
import { buildDesiredTree } from './classify/build-desired-tree';
import { readCachedTree, type CachedPage } from './classify/cached-tree';
import type { ClassifyContext } from './classify/classify-context';
import type { ClassifyResult } from './classify/classify-result';
import { detectMoves } from './classify/detect-moves';
import { emitChanges } from './classify/emit-changes';
import { findFolderOwners } from './classify/folder-owners';
import { massDeleteGuard, planDeletions } from './classify/plan-deletions';
import { planPageUpdates } from './classify/plan-page-updates';
import { readLocalPages } from './classify/read-pages';
import { readSummaryPlacement } from './classify/summary-placement';

export type { CachedPage } from './classify/cached-tree';
export type {
  ClassifyGuard,
  ClassifyResult,
  PageMove,
  PlannedChange,
  PlannedChangeReason,
} from './classify/classify-result';

/** The API's limit for a file sent as base64. */
export const DEFAULT_MAX_UPLOAD_BYTES = 1024 * 1024;

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
  /** The first page's file when `.gitbook.yaml` renames it (`structure.readme`); README.md. */
  readmePath?: string;
}

/**
 * Runs the phases in order; each returns what it adds to the context the next ones read, and
 * appends its problems to the context's one list.
 */
export function classifyLocalChanges(input: ClassifyLocalChangesInput): ClassifyResult {
  const { scan } = input;
  if (scan.status === 'folder-missing') {
    const problem: LocalProblem = { path: '', reason: 'unreadable', message: scan.message };
    return {
      guard: 'folder-missing',
      message: scan.message,
      changes: [],
      problems: [problem],
      moves: [],
      summary: 'unchanged',
    };
  }
  const context: ClassifyContext = {
    scan,
    index: input.index,
    tree: readCachedTree(input.pages, input.index),
    problems: [...scan.problems],
    allowMassDelete: input.allowMassDelete ?? false,
    markdownForPush: input.markdownForPush ?? ((markdown: string) => markdown),
    maxUploadBytes: input.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    readmePath: input.readmePath ?? README_PATH,
  };
  const read = { ...context, ...readLocalPages(context) };
  const withMoves = { ...read, ...detectMoves(read) };
  const withDeletions = { ...withMoves, ...planDeletions(withMoves) };
  const guard = massDeleteGuard(withDeletions);
  if (guard) return guard;
  const withOwners = { ...withDeletions, ...findFolderOwners(withDeletions) };
  const withSummary = { ...withOwners, ...readSummaryPlacement(withOwners) };
  const withTree = { ...withSummary, ...buildDesiredTree(withSummary) };
  const withUpdates = { ...withTree, ...planPageUpdates(withTree) };
  const changes = emitChanges(withUpdates);
  return {
    guard: null,
    changes,
    problems: context.problems,
    moves: withUpdates.moves,
    deleted: [...withDeletions.deleted],
    summary: withSummary.summary,
  };
}
