import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DEFAULT_GITBOOK_CONFIG,
  readGitBookConfig,
  type GitBookConfig,
} from '../../shared/gitsync/gitbook-config';
import { parseGitSyncLayout, type GitSyncProblem } from '../mirror/parse-gitsync-layout';
import { ImportFolderError } from './import-folder-error';
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
 * and with the file names that `.gitbook.yaml` gives, so the user sees every problem per file
 * before anything is sent. An unreadable or unsafe `.gitbook.yaml` stops the import here.
 */
export async function validateImportFolder(
  folder: string,
  files: readonly ImportFile[],
): Promise<FolderCheck> {
  const config = await configOf(folder, files);
  const { root } = config;
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
    { structure: { summary: config.summary, readme: config.readme } },
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

/** The folder's `.gitbook.yaml`, read as the server reads it; the defaults without one. */
async function configOf(folder: string, files: readonly ImportFile[]): Promise<GitBookConfig> {
  const file = files.find(
    (entry) => entry.path === '.gitbook.yaml' || entry.path === '.gitbook.yml',
  );
  if (file === undefined) return DEFAULT_GITBOOK_CONFIG;
  const config = readGitBookConfig(await readFile(file.absolute, 'utf8'));
  if ('problem' in config) throw new ImportFolderError(`${file.path}: ${config.problem}`);
  return config;
}
