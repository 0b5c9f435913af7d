import { pickPageFields, type PageFields } from './page-fields';
import type {
  MirrorCover,
  MirrorFile,
  MirrorLayout,
  MirrorPage,
  MirrorSpace,
} from './gitsync-types';

/** A page as the published API returns it with its Markdown (the fields the layout reads). */
export interface PublishedPage extends PageFields {
  id: string;
  type: 'document' | 'group' | 'link';
  title: string;
  slug?: string;
  layout?: Record<string, unknown>;
  cover?: Record<string, unknown>;
  href?: string;
  markdown?: string;
  /** Absent on link pages in the API's JSON. */
  pages?: PublishedPage[];
}

export interface PublishedFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  downloadURL?: string;
  dimensions?: { width: number; height: number };
}

/** A revision as the published API returns it (`format=markdown`). */
export interface PublishedRevision {
  pages: PublishedPage[];
  files: PublishedFile[];
}

/**
 * The published API's revision → the mirror's model. One function for the desktop's mirror and
 * the server's export, so both write the same files from the same content.
 */
export function mirrorSpaceOf(revision: PublishedRevision): MirrorSpace {
  return { pages: revision.pages.map(mirrorPageOf), files: revision.files.map(mirrorFileOf) };
}

function mirrorPageOf(page: PublishedPage): MirrorPage {
  const result: MirrorPage = {
    id: page.id,
    type: page.type,
    title: page.title,
    // Link pages have no slug in the API; they have no file either.
    slug: page.slug ?? '',
    pages: (page.pages ?? []).map(mirrorPageOf),
  };
  Object.assign(result, pickPageFields(page));
  // The API's page shape is validated by whoever read it; these records follow the schema.
  if (page.layout !== undefined) result.layout = page.layout as MirrorLayout;
  if (page.cover !== undefined) result.cover = page.cover as MirrorCover;
  if (page.href !== undefined) result.href = page.href;
  if (page.markdown !== undefined) result.markdown = page.markdown;
  const linkTitle = (page as { linkTitle?: unknown }).linkTitle;
  if (typeof linkTitle === 'string') result.linkTitle = linkTitle;
  return result;
}

function mirrorFileOf(file: PublishedFile): MirrorFile {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    ...(file.downloadURL !== undefined ? { downloadURL: file.downloadURL } : {}),
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
  };
}
