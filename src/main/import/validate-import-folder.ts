import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFrontmatterYaml } from '../../shared/gitsync/frontmatter-yaml';
import { parseGitSyncLayout, type GitSyncProblem } from '../mirror/parse-gitsync-layout';
import type { ImportFile } from './list-import-files';

export interface FolderCheck {
  /** The docs' folder inside the import folder (`.gitbook.yaml` `root`), `''` or ending in `/`. */
  root: string;
  pages: number;
  assets: number;
  /** Problems per file, as the mirror's own parser reports them (paths from the import folder). */
  problems: GitSyncProblem[];
}

/**
 * Reads the folder as the mirror reads a space folder (parseGitSyncLayout), from the docs' root
 * that `.gitbook.yaml` names, so the user sees every problem per file before anything is sent.
 */
export async function validateImportFolder(
  folder: string,
  files: readonly ImportFile[],
): Promise<FolderCheck> {
  const root = await rootOf(folder, files);
  const inRoot = files
    .filter((file) => file.path.startsWith(root))
    .map((file) => file.path.slice(root.length));
  const layout = await parseGitSyncLayout(
    async (path) => {
      try {
        return await readFile(join(folder, root, path), 'utf8');
      } catch {
        return undefined;
      }
    },
    () => inRoot,
  );
  let pages = 0;
  const count = (list: typeof layout.pages) => {
    for (const page of list) {
      if (page.type === 'document' && page.missing !== true) pages += 1;
      count(page.pages);
    }
  };
  count(layout.pages);
  const problems = layout.problems.map((problem) => ({
    ...problem,
    path: problem.path === '' ? root : `${root}${problem.path}`,
  }));
  return { root, pages, assets: layout.files.length, problems };
}

/** `.gitbook.yaml`'s `root`, cleaned; `''` without one (the server reads it the same way). */
async function rootOf(folder: string, files: readonly ImportFile[]): Promise<string> {
  const config = files.find(
    (file) => file.path === '.gitbook.yaml' || file.path === '.gitbook.yml',
  );
  if (config === undefined) return '';
  const parsed = parseFrontmatterYaml(await readFile(config.absolute, 'utf8'), 1);
  const root = 'data' in parsed ? parsed.data['root'] : undefined;
  if (typeof root !== 'string') return '';
  const segments = root.split('/').filter((segment) => segment !== '' && segment !== '.');
  return segments.length === 0 || segments.includes('..') ? '' : `${segments.join('/')}/`;
}
