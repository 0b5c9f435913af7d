import { contentHash } from '../../cache/content-hash';
import type { RemotePage, RemoteRevision } from '../../sync-ports';
import { spaceLayout } from '../space-layout';

/** Text file hash → text, as the engine rendered a (cached) revision. */
export function layoutTexts(
  revision: RemoteRevision | undefined,
  /** The first page's file when `.gitbook.yaml` renames it (its links to it are written so). */
  readmePath?: string,
): Map<string, string> {
  const texts = new Map<string, string>();
  if (revision === undefined) return texts;
  try {
    for (const entry of spaceLayout(revision, readmePath ? { readmePath } : {})) {
      if (entry.text !== undefined) texts.set(contentHash(entry.text), entry.text);
    }
  } catch {
    // A cached revision the layout cannot render has no bases to offer: conflicts are recorded.
  }
  return texts;
}

/** Page id → title, of a revision's page tree. */
export function pageTitles(
  pages: readonly RemotePage[],
  titles = new Map<string, string>(),
): Map<string, string> {
  for (const page of pages) {
    titles.set(page.id, page.title);
    pageTitles(page.pages, titles);
  }
  return titles;
}
