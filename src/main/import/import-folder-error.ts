/** Thrown when the folder is not a Git Sync layout at all (nothing was sent). */
export class ImportFolderError extends Error {
  override readonly name = 'ImportFolderError';
}
