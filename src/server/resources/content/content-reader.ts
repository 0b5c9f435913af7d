import { diffRevisionTrees } from '../../content/diff-revision-trees';
import { FileUrlSigner } from '../../content/file-url-signer';
import {
  findPage,
  serializeFile,
  serializePage,
  type ApiPage,
  type PageFormat,
  type PageSerializeOptions,
} from '../../content/page-serializer';
import type { RevisionTree, StoredFile, StoredPage } from '../../content/revision-tree';
import { notFound } from '../../http/api-error';
import { listEnvelope, paginateArray, type PageQuery } from '../../http/paginate';
import type { ServerContext } from '../../server-context';
import type { MarkdownItem } from '../../workers/markdown-jobs';
import { rawJsonMarker, stringifyWithRawJson } from './raw-json';
import { ChangeRequestQueries } from '../change-requests/change-request-queries';
import { serializeChangeRequest } from '../change-requests/change-request-serializer';
import { DEFAULT_CHANGES_LIMIT } from './content-schema';
import { ContentQueries, type RevisionMetaRow } from './content-queries';
import { JsonResponseCache, type JsonBytes } from './json-response-cache';
import { revisionJsonWithMarkdown } from './revision-json';
import {
  serializeChange,
  serializePagesResponse,
  serializeRevision,
  type RevisionUrls,
} from './revision-serializer';

/** Which revision a read is about, and how its URLs are built. */
export interface ContentSource {
  spaceId: string;
  revision: RevisionMetaRow;
  urls: RevisionUrls;
  /** Change-request content: page app URLs point into the change request (its number). */
  changeRequest?: string;
}

const EMPTY_TREE: RevisionTree = { pages: [], files: [] };

/** Document pages' body hashes, each once. */
function bodyHashes(pages: readonly StoredPage[], into = new Set<string>()): Set<string> {
  for (const page of pages) {
    if (page.body) into.add(page.body);
    bodyHashes(page.pages, into);
  }
  return into;
}

/**
 * Reads of a revision's content (the live revision of a space, a revision by id, a change
 * request's revision): access checks, then responses. Page trees are sent as pre-serialised
 * JSON (see JsonResponseCache); everything is built from objects made field by field.
 */
export class ContentReader {
  readonly queries: ContentQueries;
  readonly signer: FileUrlSigner;
  private readonly changeRequests: ChangeRequestQueries;
  private readonly cache = new JsonResponseCache();

  constructor(private readonly ctx: ServerContext) {
    this.queries = new ContentQueries(ctx.db);
    this.signer = new FileUrlSigner(ctx.db);
    this.changeRequests = new ChangeRequestQueries(ctx.db);
  }

  // --- sources ----------------------------------------------------------------------------------

  /** The live revision of a space the caller may read. */
  spaceSource(userId: string, spaceId: string): ContentSource {
    this.ctx.access.requireSpace(userId, spaceId, 'read');
    const space = this.queries.space(spaceId);
    const revision = space ? this.queries.revision(space.revision_id) : undefined;
    if (!space || !revision) throw notFound(`Space ${spaceId}`);
    const { urls } = this.ctx;
    const published = urls.published(`/${space.organization_id}/${space.id}`);
    return {
      spaceId,
      revision,
      urls: {
        app: urls.app(`/s/${spaceId}`),
        // As on the Space resource: public and unlisted spaces are published.
        ...(space.visibility === 'public' || space.visibility === 'unlisted' ? { published } : {}),
        ...(space.visibility === 'public' ? { public: published } : {}),
      },
    };
  }

  /** A revision by id; one of another space is as unknown as one that does not exist. */
  revisionSource(userId: string, spaceId: string, revisionId: string): ContentSource {
    this.ctx.access.requireSpace(userId, spaceId, 'read');
    const revision = this.queries.revision(revisionId);
    if (!revision || revision.space_id !== spaceId) throw notFound(`Revision ${revisionId}`);
    return {
      spaceId,
      revision,
      urls: { app: this.ctx.urls.app(`/s/${spaceId}/~/revisions/${revisionId}`) },
    };
  }

  /** The current revision of a change request, by id or number. */
  changeRequestSource(userId: string, spaceId: string, ref: string): ContentSource {
    const { changeRequest, revision } = this.changeRequest(userId, spaceId, ref);
    return {
      spaceId,
      revision,
      changeRequest: String(changeRequest.number),
      urls: { app: this.ctx.urls.app(`/s/${spaceId}/~/changes/${changeRequest.number}`) },
    };
  }

  private changeRequest(userId: string, spaceId: string, ref: string) {
    this.ctx.access.requireSpace(userId, spaceId, 'read');
    const changeRequest = this.changeRequests.find(spaceId, ref);
    const revision = changeRequest ? this.queries.revision(changeRequest.revision_id) : undefined;
    if (!changeRequest || !revision) throw notFound(`Change request ${ref}`);
    return { changeRequest, revision };
  }

  // --- responses --------------------------------------------------------------------------------

  /** The Revision resource; with a format every document page carries its content. */
  async revisionBytes(source: ContentSource, format: PageFormat | undefined): Promise<JsonBytes> {
    const mergedFrom = this.mergedFrom(source);
    // The change request of a merge revision can change later (comments, subject): its current
    // form is part of the key, so a cached revision never shows an old one.
    const key = this.key(source, 'revision', format ?? '', JSON.stringify(mergedFrom ?? null));
    return this.cache.getBytesAsync(key, async () => {
      const tree = this.tree(source);
      const view = {
        meta: source.revision,
        tree,
        urls: source.urls,
        ...(mergedFrom ? { mergedFrom } : {}),
      };
      if (format !== 'markdown') {
        const [options, documents] = await this.pageOptions(source, format, tree.pages);
        return withDocuments(serializeRevision(view, options, this.signer), documents);
      }
      // Markdown is spliced in as SQLite quoted it: no escaping of megabytes in JavaScript.
      const [options] = await this.pageOptions(source, undefined, []);
      const { pages, ...fields } = serializeRevision(view, options, this.signer);
      const quoted = this.queries.quotedBodies([...bodyHashes(tree.pages)]);
      return revisionJsonWithMarkdown(fields, pages as ApiPage[], tree.pages, quoted);
    });
  }

  /** `{ pages }`: the page tree without content. */
  async pagesBytes(source: ContentSource): Promise<JsonBytes> {
    const [options] = await this.pageOptions(source, undefined, []);
    return this.cache.get(this.key(source, 'pages'), () =>
      serializePagesResponse(this.tree(source), options),
    );
  }

  pageByIdBytes(
    source: ContentSource,
    pageId: string,
    format: PageFormat | undefined,
  ): Promise<JsonBytes> {
    return this.pageBytes(
      source,
      format,
      `id:${pageId}`,
      `Page ${pageId}`,
      (page) => page.id === pageId,
    );
  }

  /**
   * A document or group page by its path (`guides/setup`); slashes around it are ignored and an
   * empty path is the first document page, the space's landing page.
   */
  pageByPathBytes(
    source: ContentSource,
    rawPath: string,
    format: PageFormat | undefined,
  ): Promise<JsonBytes> {
    const path = rawPath.replace(/^\/+|\/+$/g, '');
    const match =
      path === ''
        ? (page: StoredPage) => page.type === 'document'
        : (page: StoredPage, pagePath: string) => page.type !== 'link' && pagePath === path;
    return this.pageBytes(source, format, `path:${path}`, `Page at path "${path}"`, match);
  }

  private pageBytes(
    source: ContentSource,
    format: PageFormat | undefined,
    what: string,
    label: string,
    match: (page: StoredPage, path: string) => boolean,
  ): Promise<JsonBytes> {
    const tree = this.tree(source);
    const found = findPage(tree.pages, match);
    if (!found) throw notFound(label);
    return this.cache.getBytesAsync(this.key(source, 'page', what, format ?? ''), async () => {
      const [options, documents] = await this.pageOptions(source, format, [found.page], false);
      return withDocuments(serializePage(found.page, options, found.parentPath), documents);
    });
  }

  /** The JSON document of a document page (getPageDocumentInRevisionById), as JSON bytes. */
  async pageDocumentBytes(source: ContentSource, pageId: string): Promise<JsonBytes> {
    const found = findPage(this.tree(source).pages, (page) => page.id === pageId);
    if (!found || found.page.type !== 'document') throw notFound(`Page ${pageId}`);
    const { page } = found;
    const item = { key: page.body ?? '', label: `page ${page.id}` };
    const documents = await this.ctx.markdown.pageDocumentsJson([
      { ...item, markdown: page.body ? (this.queries.body(page.body) ?? '') : '' },
    ]);
    return Buffer.from(documents.get(item.key)!, 'utf8') as JsonBytes;
  }

  /** Files in the order they were added (then by id), paginated. */
  files(source: ContentSource, page: PageQuery) {
    const sorted = [...this.tree(source).files].sort((a, b) => compare(fileKey(a), fileKey(b)));
    const result = paginateArray(sorted, fileKey, page, `files:${source.revision.id}`);
    return listEnvelope(
      result.items.map((file) => this.file(source.spaceId, file)),
      result.next,
      result.count,
    );
  }

  fileById(source: ContentSource, fileId: string) {
    const file = this.tree(source).files.find((candidate) => candidate.id === fileId);
    if (!file) throw notFound(`File ${fileId}`);
    return this.file(source.spaceId, file);
  }

  /** The semantic changes of a revision against its first parent. */
  revisionChanges(source: ContentSource, limit: number | undefined) {
    const parent = (JSON.parse(source.revision.parents) as string[])[0];
    const base = parent ? this.queries.tree(parent) : undefined;
    const mergedFrom = this.mergedFrom(source);
    return {
      ...(mergedFrom ? { mergedFrom } : {}),
      ...this.changes(source.spaceId, base ?? EMPTY_TREE, this.tree(source), limit),
    };
  }

  /** What a change request changes: its base (last main revision it took in) to its content. */
  changeRequestChanges(userId: string, spaceId: string, ref: string, limit: number | undefined) {
    const { changeRequest, revision } = this.changeRequest(userId, spaceId, ref);
    const baseId = changeRequest.revision_merged_ancestor ?? changeRequest.revision_initial;
    const base = this.queries.tree(baseId) ?? EMPTY_TREE;
    const head = this.queries.tree(revision.id) ?? EMPTY_TREE;
    return this.changes(spaceId, base, head, limit);
  }

  private changes(
    spaceId: string,
    base: RevisionTree,
    head: RevisionTree,
    limit = DEFAULT_CHANGES_LIMIT,
  ) {
    const all = diffRevisionTrees(base, head);
    const context = { spaceId, base, head, urls: this.ctx.urls, signer: this.signer };
    const changes = all.slice(0, limit).map((change) => serializeChange(change, context));
    return all.length > limit ? { changes, more: all.length - limit } : { changes };
  }

  // --- helpers ----------------------------------------------------------------------------------

  private file(spaceId: string, file: StoredFile) {
    return serializeFile(file, this.ctx.urls, spaceId, this.signer);
  }

  private tree(source: ContentSource): RevisionTree {
    const tree = this.queries.tree(source.revision.id);
    if (!tree) throw notFound(`Revision ${source.revision.id}`);
    return tree;
  }

  /** Everything a serialised response depends on besides the (immutable) revision. */
  private key(source: ContentSource, ...parts: string[]): string {
    return JSON.stringify([
      source.revision.id,
      source.spaceId,
      source.urls,
      source.changeRequest ?? null,
      this.ctx.urls.root,
      ...parts,
    ]);
  }

  /**
   * Page serialisation options; with a format, the bodies of `pages` (and, when `deep`, of their
   * descendants, which then carry content too) are loaded up front in one statement, and for
   * `document` converted on the worker threads before anything is serialised.
   */
  private async pageOptions(
    source: ContentSource,
    format: PageFormat | undefined,
    pages: readonly StoredPage[],
    deep = true,
  ): Promise<[PageSerializeOptions, ReadonlyMap<string, string>]> {
    let bodies = new Map<string, string>();
    let documents = new Map<string, string>();
    if (format) {
      const hashes = deep
        ? bodyHashes(pages)
        : new Set(pages.flatMap((page) => (page.body ? [page.body] : [])));
      bodies = this.queries.bodies([...hashes]);
    }
    if (format === 'document') {
      documents = await this.ctx.markdown.pageDocumentsJson(documentItems(pages, bodies, deep));
    }
    const options: PageSerializeOptions = {
      urls: this.ctx.urls,
      spaceId: source.spaceId,
      ...(source.changeRequest ? { changeRequestId: source.changeRequest } : {}),
      format,
      body: (hash) => bodies.get(hash) ?? '',
      // Converted above, keyed by hash, and spliced in by withDocuments.
      document: rawJsonMarker,
      childContent: deep,
    };
    return [options, documents];
  }

  /** The change request a merge revision came from, as the API shows it now. */
  private mergedFrom(source: ContentSource) {
    if (source.revision.type !== 'merge') return undefined;
    const row = this.queries.mergedFrom(source.spaceId, source.revision.id);
    if (!row) return undefined;
    const space = this.queries.space(source.spaceId);
    return serializeChangeRequest(
      {
        row,
        createdBy: this.queries.user(row.created_by),
        mergedBy: row.merged_by ? this.queries.user(row.merged_by) : undefined,
        spaceRevision: space?.revision_id ?? '',
        openComments: this.queries.openComments(row.id),
      },
      this.ctx.urls,
    );
  }
}

/** An empty page's document (a page without a body). */
const EMPTY_DOCUMENT_JSON = JSON.stringify({ object: 'document', data: {}, nodes: [] });

/** The JSON of a serialised response, with each page's document spliced in as converted. */
function withDocuments(value: unknown, documents: ReadonlyMap<string, string>): JsonBytes {
  const json = stringifyWithRawJson(value, (hash) => documents.get(hash) ?? EMPTY_DOCUMENT_JSON);
  return Buffer.from(json, 'utf8') as JsonBytes;
}

/** What the worker threads convert for a `document` read: each body once, labelled by a page. */
function documentItems(
  pages: readonly StoredPage[],
  bodies: ReadonlyMap<string, string>,
  deep: boolean,
): MarkdownItem[] {
  const items = new Map<string, MarkdownItem>();
  const visit = (list: readonly StoredPage[]) => {
    for (const page of list) {
      if (page.body && !items.has(page.body)) {
        const markdown = bodies.get(page.body) ?? '';
        items.set(page.body, { key: page.body, markdown, label: `page ${page.id}` });
      }
      if (deep) visit(page.pages);
    }
  };
  visit(pages);
  return [...items.values()];
}

function fileKey(file: StoredFile): string {
  return `${file.createdAt} ${file.id}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const readers = new WeakMap<ServerContext, ContentReader>();

/** One reader per server, shared by the route modules (so they share its caches and signer). */
export function contentReaderFor(ctx: ServerContext): ContentReader {
  let reader = readers.get(ctx);
  if (!reader) {
    reader = new ContentReader(ctx);
    readers.set(ctx, reader);
  }
  return reader;
}

/**
 * The server's download-URL signer, for every module that serialises files (serializeFile):
 * one per server, so every downloadURL is signed the same way.
 */
export function fileUrlSignerFor(ctx: ServerContext): FileUrlSigner {
  return contentReaderFor(ctx).signer;
}
