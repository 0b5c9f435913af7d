import type { LocalContentChange } from '../local-content-change';
import type { LocalProblem } from '../local-problem';

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
