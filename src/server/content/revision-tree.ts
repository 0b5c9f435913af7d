/** How a revision's content is stored: the page tree with body hashes, and file metadata. */
import type { PageFields } from '../../shared/gitsync/page-fields';

export type PageType = 'document' | 'group' | 'link';

/** A stored page; its Git Sync page fields (`PageFields`) are declared once in src/shared. */
export interface StoredPage extends PageFields {
  id: string;
  type: PageType;
  title: string;
  slug: string;
  documentId?: string;
  layout?: Record<string, unknown>;
  cover?: Record<string, unknown>;
  /** Target of a link page. */
  href?: string;
  /** SHA-256 of the Markdown body (document pages). */
  body?: string;
  createdAt: string;
  updatedAt: string;
  pages: StoredPage[];
}

export interface StoredFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** SHA-256 of the bytes in the blobs table. */
  blob: string;
  dimensions?: { width: number; height: number };
  createdAt: string;
}

export interface RevisionTree {
  pages: StoredPage[];
  files: StoredFile[];
}

/** Lower-case, ASCII-dash slug of a title, as GitBook derives page slugs. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return slug || 'page';
}

/** Visits every page depth-first with its slash-joined path. */
export function* walkPages(
  pages: readonly StoredPage[],
  parentPath = '',
): Generator<{ page: StoredPage; path: string }> {
  for (const page of pages) {
    const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
    yield { page, path };
    yield* walkPages(page.pages, page.type === 'group' ? parentPath : path);
  }
}
