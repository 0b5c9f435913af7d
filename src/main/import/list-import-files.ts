import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** A file `quire import` sends, by its path inside the folder (POSIX separators). */
export interface ImportFile {
  path: string;
  absolute: string;
  size: number;
}

export interface ImportListing {
  files: ImportFile[];
  /** Entries left out, each with why (links, devices, unreadable folders). */
  skipped: { path: string; reason: string }[];
}

/** Folders no Git Sync layout holds pages in: version control and dependencies. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

/**
 * Every regular file under `folder`, in a stable order (names in code-point order, depth first).
 * Symbolic links are not followed and not sent: the server would refuse them, and one could
 * point outside the folder.
 */
export async function listImportFiles(folder: string): Promise<ImportListing> {
  const listing: ImportListing = { files: [], skipped: [] };
  const visit = async (relative: string): Promise<void> => {
    const absolute = relative === '' ? folder : join(folder, relative);
    let names: string[];
    try {
      names = (await readdir(absolute)).sort();
    } catch (error) {
      listing.skipped.push({ path: relative, reason: `cannot be read (${codeOf(error)})` });
      return;
    }
    for (const name of names) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const stats = await lstat(join(folder, path));
      if (stats.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(name)) await visit(path);
      } else if (stats.isFile()) {
        listing.files.push({ path, absolute: join(folder, path), size: stats.size });
      } else {
        const kind = stats.isSymbolicLink() ? 'a symbolic link' : 'not a regular file';
        listing.skipped.push({ path, reason: `is ${kind}; not imported` });
      }
    }
  };
  await visit('');
  return listing;
}

function codeOf(error: unknown): string {
  return (error as { code?: unknown }).code === undefined
    ? String(error)
    : String((error as { code: unknown }).code);
}
