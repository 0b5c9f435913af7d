import { stat } from 'node:fs/promises';
import type { GitSyncProblem } from '../mirror/parse-gitsync-layout';
import { ImportFolderError } from './import-folder-error';
import { listImportFiles } from './list-import-files';
import { isImported, packImportTar } from './pack-import-tar';
import { uploadImport, type ImportAnswer, type UploadTarget } from './upload-import';
import { validateImportFolder } from './validate-import-folder';

export { ImportFolderError };

export interface ImportFolderResult {
  /** Problems found in the folder before sending it (per file), and entries left out. */
  problems: GitSyncProblem[];
  sent: { files: number; bytes: number };
  answer: ImportAnswer;
}

/**
 * `quire import`: checks a Git Sync folder with the mirror's own parser, then streams it as a
 * tar to the server's import operation, which makes one change request of it.
 */
export async function importGitSyncFolder(
  folder: string,
  target: UploadTarget,
  options: { onChecked?: (problems: GitSyncProblem[]) => void } = {},
): Promise<ImportFolderResult> {
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) throw new ImportFolderError(`${folder} is not a folder`);
  const listing = await listImportFiles(folder);
  const check = await validateImportFolder(folder, listing.files);
  const problems: GitSyncProblem[] = [
    ...listing.skipped.map(({ path, reason }) => ({ path, message: reason })),
    ...check.problems,
  ];
  options.onChecked?.(problems);
  if (check.pages === 0) {
    throw new ImportFolderError(
      `${folder} holds no Git Sync layout to import (no pages in ${check.root || 'it'})`,
    );
  }
  const files = listing.files.filter((file) => isImported(file.path));
  const answer = await uploadImport(target, packImportTar(files));
  return {
    problems,
    sent: { files: files.length, bytes: files.reduce((sum, file) => sum + file.size, 0) },
    answer,
  };
}
