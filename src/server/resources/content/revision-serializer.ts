import type { RevisionChange } from '../../content/diff-revision-trees';
import type { FileUrlSigner } from '../../content/file-url-signer';
import { defaultContentRef } from '../../content/markdown-to-document';
import {
  fileDownloadUrl,
  serializeFile,
  serializePages,
  type ApiPage,
  type PageSerializeOptions,
} from '../../content/page-serializer';
import type { RevisionTree, StoredFile } from '../../content/revision-tree';
import type { Urls } from '../../http/urls';
import type { RevisionMetaRow } from './content-queries';

export interface RevisionUrls {
  app: string;
  published?: string;
  public?: string;
}

export interface RevisionView {
  meta: RevisionMetaRow;
  tree: RevisionTree;
  urls: RevisionUrls;
  /** The serialised change request a merge revision came from. */
  mergedFrom?: unknown;
}

/**
 * The Revision resource, built field by field. `pages` follows `pageOptions` (with a `format`,
 * every document page carries its Markdown or document).
 */
export function serializeRevision(
  view: RevisionView,
  pageOptions: PageSerializeOptions,
  signer: FileUrlSigner,
): Record<string, unknown> {
  const { meta, tree } = view;
  const spaceId = meta.space_id;
  return {
    object: 'revision',
    id: meta.id,
    parents: JSON.parse(meta.parents) as string[],
    type: meta.type,
    ...(view.mergedFrom ? { mergedFrom: view.mergedFrom } : {}),
    createdAt: meta.created_at,
    pages: serializePages(tree.pages, pageOptions),
    files: tree.files.map((file) => serializeFile(file, pageOptions.urls, spaceId, signer)),
    // Reusable content is not modelled: every revision has none.
    reusableContents: [],
    urls: {
      app: view.urls.app,
      ...(view.urls.published ? { published: view.urls.published } : {}),
      ...(view.urls.public ? { public: view.urls.public } : {}),
    },
  };
}

export function serializePagesResponse(
  tree: RevisionTree,
  pageOptions: PageSerializeOptions,
): { pages: ApiPage[] } {
  return { pages: serializePages(tree.pages, pageOptions) };
}

/** Where a change's files are looked up to give them download URLs. */
export interface ChangeContext {
  spaceId: string;
  base: RevisionTree;
  head: RevisionTree;
  urls: Urls;
  signer: FileUrlSigner;
}

type ApiAttributes = Record<string, { before?: unknown; after?: unknown }>;

/**
 * A semantic change as the published API shows it: files get download URLs, a link page's `href`
 * change is a `target` change, and a file's new bytes are a `downloadURL` change.
 */
export function serializeChange(change: RevisionChange, context: ChangeContext) {
  switch (change.type) {
    case 'page_created':
    case 'page_deleted':
      return { type: change.type, page: change.page };
    case 'page_moved':
      return { type: change.type, page: change.page, parent: change.parent };
    case 'page_edited': {
      const attributes: ApiAttributes = { ...change.attributes };
      const href = attributes['href'];
      if (href) {
        delete attributes['href'];
        attributes['target'] = {
          ...(typeof href.before === 'string' ? { before: defaultContentRef(href.before) } : {}),
          ...(typeof href.after === 'string' ? { after: defaultContentRef(href.after) } : {}),
        };
      }
      return { type: change.type, page: change.page, attributes };
    }
    case 'file_created':
    case 'file_deleted': {
      const tree = change.type === 'file_created' ? context.head : context.base;
      return { type: change.type, file: changedFile(change.file.id, tree, context) };
    }
    case 'file_edited': {
      const attributes: ApiAttributes = { ...change.attributes };
      const blob = attributes['blob'];
      delete attributes['blob'];
      const before = findFile(context.base, change.file.id);
      const after = findFile(context.head, change.file.id);
      // New bytes, name or type all give the file a new download URL.
      if (before && after && (blob || attributes['name'] || attributes['contentType'])) {
        attributes['downloadURL'] = {
          before: fileDownloadUrl(before, context.urls, context.spaceId, context.signer),
          after: fileDownloadUrl(after, context.urls, context.spaceId, context.signer),
        };
      }
      return {
        type: change.type,
        file: changedFile(change.file.id, context.head, context),
        attributes,
      };
    }
  }
}

function findFile(tree: RevisionTree, fileId: string): StoredFile | undefined {
  return tree.files.find((file) => file.id === fileId);
}

function changedFile(fileId: string, tree: RevisionTree, context: ChangeContext) {
  // The diff only names files present in the tree it took them from.
  const file = findFile(tree, fileId)!;
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: fileDownloadUrl(file, context.urls, context.spaceId, context.signer),
  };
}
