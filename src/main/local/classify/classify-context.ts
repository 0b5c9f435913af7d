import type { LocalProblem } from '../local-problem';
import type { FolderScan, IndexedFile } from '../scan-space-folder';
import type { CachedTree } from './cached-tree';

/**
 * What every phase of classifyLocalChanges starts from. Each phase returns what it adds, and the
 * next one receives this context extended with the outputs of the phases before it.
 */
export interface ClassifyContext {
  scan: FolderScan;
  /** The file index the scan compared against (path ↔ page id). */
  index: readonly IndexedFile[];
  tree: CachedTree;
  /**
   * The one list every phase appends its problems to, so they come out in the order the phases
   * run (the scan's first).
   */
  problems: LocalProblem[];
  allowMassDelete: boolean;
  markdownForPush: (markdown: string, path: string) => string;
  maxUploadBytes: number;
  /** The space's first page file: `README.md`, or `.gitbook.yaml`'s `structure.readme`. */
  readmePath: string;
}
