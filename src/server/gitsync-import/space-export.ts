import { GITBOOK_CONFIG_PATH } from '../../shared/gitsync/gitbook-config';
import { notFound } from '../http/api-error';
import { contentReaderFor } from '../resources/content/content-reader';
import type { ServerContext } from '../server-context';
import { CpuJobError } from '../workers/cpu-pool';
import { GitSyncConfigStore } from './gitsync-config-store';

/** One file of a space's Git Sync layout; `bytes` reads it (an asset from the blob store). */
export interface ExportedFile {
  path: string;
  bytes(): Buffer;
}

/**
 * The files of a space's live revision in Git Sync's layout, as a fresh desktop mirror writes
 * them: the revision is serialised exactly as `GET …/content?format=markdown` answers, then laid
 * out on a CPU worker by the mirror's own renderer (exportLayout), as the space's `.gitbook.yaml`
 * (kept at the top) names its root, first page and table of contents. Checks read access.
 */
export async function spaceExport(
  ctx: ServerContext,
  userId: string,
  spaceId: string,
): Promise<ExportedFile[]> {
  const reader = contentReaderFor(ctx);
  const source = reader.spaceSource(userId, spaceId);
  const json = await reader.revisionBytes(source, 'markdown');
  const config = new GitSyncConfigStore(ctx.db).ofSpace(spaceId);
  let entries;
  try {
    entries = await ctx.cpu.run('gitsync-export-layout', {
      bytes: json,
      ...(config ? { structure: config.structure } : {}),
    });
  } catch (error) {
    throw error instanceof CpuJobError ? error.toApiError('The export') : error;
  }
  const tree = reader.queries.tree(source.revision.id);
  const blobs = new Map(tree?.files.map((file) => [file.id, file.blob]));
  // The docs go under `.gitbook.yaml`'s root, the file itself at the top, as a mirror lays them.
  const root = config?.root ?? '';
  const exported = entries.map((entry): ExportedFile => {
    const path = `${root}${entry.path}`;
    if ('text' in entry) {
      const text = entry.text;
      return { path, bytes: () => Buffer.from(text, 'utf8') };
    }
    const blob = blobs.get(entry.fileId);
    return {
      path,
      bytes: () => {
        const bytes = blob === undefined ? undefined : reader.queries.blob(blob);
        if (!bytes) throw notFound(`File ${entry.fileId}`);
        return bytes;
      },
    };
  });
  if (config === undefined) return exported;
  const text = config.text;
  return [{ path: GITBOOK_CONFIG_PATH, bytes: () => Buffer.from(text, 'utf8') }, ...exported];
}
