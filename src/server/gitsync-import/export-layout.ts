import { mirrorSpaceOf, type PublishedRevision } from '../../shared/gitsync/mirror-space-of';
import { renderGitSyncLayout } from '../../shared/gitsync/render-gitsync-layout';

/** One file of an exported space: a text (SUMMARY.md, a page) or an uploaded file's bytes. */
export type ExportLayoutEntry = { path: string; text: string } | { path: string; fileId: string };

/** The names `.gitbook.yaml`'s `structure` gives the first page and the table of contents. */
export interface ExportStructure {
  readme: string;
  summary: string;
}

/**
 * A revision as the API serves it with `format=markdown` (JSON bytes) → the files a fresh
 * desktop mirror of it writes, in the same order: the same model conversion and the same
 * renderer as the mirror, so an export equals a mirror byte for byte. Runs on a CPU worker.
 */
export function exportLayout(bytes: Uint8Array, structure?: ExportStructure): ExportLayoutEntry[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  const revision = JSON.parse(text) as PublishedRevision;
  const layout = renderGitSyncLayout(
    mirrorSpaceOf(revision),
    structure ? { readmePath: structure.readme, summaryPath: structure.summary } : {},
  );
  const entries: ExportLayoutEntry[] = [];
  for (const [path, entry] of layout.files) {
    if (entry.kind === 'asset') entries.push({ path, fileId: entry.fileId });
    else entries.push({ path, text: entry.content });
  }
  return entries;
}
