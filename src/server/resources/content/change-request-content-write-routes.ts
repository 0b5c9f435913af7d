import { TextDecoder } from 'node:util';
import { Type } from '@sinclair/typebox';
import {
  applyContentChanges,
  ContentChangeError,
  type ApplyDeps,
  type ContentChange,
  type DocumentInput,
  type ResolvedFileInput,
} from '../../content/apply-content-changes';
import { FrontmatterError, readPageMarkdown } from '../../content/markdown-document';
import { serializeFile } from '../../content/page-serializer';
import { RevisionStore } from '../../content/revision-store';
import { slugify, type RevisionTree } from '../../content/revision-tree';
import { SafeFetchError, type SafeFetchResult } from '../../content/safe-url-fetch';
import { badRequest, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses } from '../../http/common-schemas';
import { MAX_PAGE_TITLE_LENGTH, pageTitleProblem } from '../../http/text-schemas';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { CpuJobError, type CpuPool } from '../../workers/cpu-pool';
import { baseRevisionOf } from '../change-requests/change-request-merge';
import {
  ChangeRequestQueries,
  type ChangeRequestRow,
} from '../change-requests/change-request-queries';
import { requireActive } from '../change-requests/require-active';
import { ChangeRequestParams } from '../change-requests/change-request-schema';
import {
  ChangeRequestSchema,
  presentChangeRequest,
} from '../change-requests/change-request-serializer';
import {
  ContentChangesBody,
  ContentChangesQuery,
  ContentUpdateSchema,
  IMPORT_SOURCES,
  MAX_PAGE_MARKDOWN_CHARS,
  ImportBody,
  ImportResponse,
  type ContentChangeBody,
  type DocumentBody,
  type FileInputBody,
  type ImportSource,
} from '../change-requests/content-change-schema';
import { imageDimensions } from '../change-requests/image-dimensions';
import { readMarkdown } from '../change-requests/read-markdown';
import { urlFetcherFor } from '../change-requests/url-fetcher';
import { contentReaderFor } from './content-reader';

/** Published: `base64` files are at most 1 MB. */
export const MAX_BASE64_BYTES = 1024 * 1024;
/** Files fetched by URL (no published limit; this keeps one batch's memory bounded). */
const MAX_URL_FILE_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Files of one batch fetched at the same time. */
const FETCH_CONCURRENCY = 4;

/**
 * Writing a change request's content: POST …/content (updateChangeRequestContent, a batch of up
 * to 50 changes applied atomically as one revision) and POST …/content/import (one page from a
 * URL). Both need `edit` on the space and a change request that is draft or open.
 *
 * URLs are fetched first (asynchronously, with safeFetch's SSRF guard); then reading the change
 * request, applying the changes, storing the revision and moving the change request happen in one
 * synchronous transaction, so concurrent writes never lose each other's changes.
 */
export function changeRequestContentWriteRoutes(app: TypedApp, ctx: ServerContext): void {
  const { access, db, urls } = ctx;
  const queries = new ChangeRequestQueries(db);
  const store = new RevisionStore(db);
  const reader = contentReaderFor(ctx);
  const fetcher = urlFetcherFor(ctx);
  const prefix = '/v1/spaces/:spaceId/change-requests/:changeRequestId';
  const written = new RecentTrees(8);

  const load = (userId: string, spaceId: string, ref: string) => {
    access.requireSpace(userId, spaceId, 'edit');
    const row = queries.find(spaceId, ref);
    if (!row) throw notFound(`Change request ${ref}`);
    requireActive(row, 'edited');
    return row;
  };

  /**
   * Applies `changes` on top of the change request's current revision and stores the result as
   * its new revision, all in one transaction (see the module comment).
   */
  const commit = (row: ChangeRequestRow, userId: string, changes: readonly ContentChange[]) => {
    try {
      return db.transaction(() => {
        const current = queries.find(row.space_id, row.id)!;
        requireActive(current, 'edited');
        const tree = written.get(current.revision_id) ?? reader.queries.tree(current.revision_id);
        if (!tree) throw notFound(`Revision ${current.revision_id}`);
        const now = ctx.clock.now().toISOString();
        const deps: ApplyDeps = {
          now,
          putBody: (markdown) => store.putBody(markdown),
          getBody: (hash) => store.getBody(hash) ?? '',
          putBlob: (bytes) => store.putBlob(bytes),
          readMarkdown,
          revertSource: (revisionId) => {
            const id = revisionId ?? baseRevisionOf(current);
            const meta = reader.queries.revision(id);
            return meta && meta.space_id === current.space_id ? reader.queries.tree(id) : undefined;
          },
        };
        const applied = applyContentChanges(tree, changes, deps);
        const revision = store.create(
          current.space_id,
          applied.tree,
          [current.revision_id],
          'edits',
          now,
        );
        queries.setRevision(current.id, revision, now);
        queries.addContributor(current.id, userId);
        written.remember(revision, applied.tree);
        return { applied, revision, row: queries.find(current.space_id, current.id)! };
      })();
    } catch (error) {
      if (error instanceof ContentChangeError) throw badRequest(`body.${error.message}`);
      throw error;
    }
  };

  app.post(
    `${prefix}/content`,
    {
      schema: {
        params: ChangeRequestParams,
        querystring: ContentChangesQuery,
        body: ContentChangesBody,
        response: {
          200: Type.Union([ChangeRequestSchema, ContentUpdateSchema]),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { spaceId, changeRequestId } = request.params;
      const row = load(userId, spaceId, changeRequestId);
      const changes = await resolveChanges(request.body.changes, fetcher);
      const { applied, row: updated } = commit(row, userId, changes);

      const changeRequest = presentChangeRequest(queries, updated, urls);
      if (request.query.compat !== false) return changeRequest;
      const location = (pageId: string) => ({
        object: 'page' as const,
        id: pageId,
        urls: {
          location: urls.api(
            `/spaces/${spaceId}/change-requests/${updated.id}/content/page/${pageId}`,
          ),
        },
      });
      return {
        changeRequest,
        changes: applied.affected.map((change) =>
          change.object === 'deleted_page'
            ? { object: change.object, page: change.pageId }
            : change.object === 'created_page'
              ? {
                  object: change.object,
                  ...(change.ref !== undefined ? { ref: change.ref } : {}),
                  page: location(change.pageId),
                }
              : { object: change.object, page: location(change.pageId) },
        ),
        insertedFiles: applied.insertedFiles.map((file) =>
          serializeFile(file, urls, spaceId, reader.signer),
        ),
      };
    },
  );

  app.post(
    `${prefix}/content/import`,
    {
      schema: {
        params: ChangeRequestParams,
        body: ImportBody,
        response: { 201: ImportResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { spaceId, changeRequestId } = request.params;
      const row = load(userId, spaceId, changeRequestId);
      const source = request.body.source;
      if (!(IMPORT_SOURCES as readonly string[]).includes(source)) {
        throw badRequest(
          `body.source "${source}" is not supported; supported sources: ${IMPORT_SOURCES.join(', ')}`,
        );
      }
      let fetched: SafeFetchResult;
      try {
        fetched = await fetcher.fetch(request.body.url, {
          timeoutMs: FETCH_TIMEOUT_MS,
          maxBytes: IMPORT_MAX_BYTES,
          accept:
            source === 'markdown'
              ? 'text/markdown, text/plain;q=0.9, */*;q=0.1'
              : 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1',
        });
      } catch (error) {
        if (error instanceof SafeFetchError) throw badRequest(fetchMessage('body', error));
        throw error;
      }
      if (fetched.status < 200 || fetched.status > 299) {
        throw badRequest(`body.url answered HTTP ${fetched.status}`);
      }
      const page = await importedPage(ctx.cpu, fetched, source as ImportSource);

      const { revision } = db.transaction(() => {
        const current = queries.find(row.space_id, row.id)!;
        const tree = written.get(current.revision_id) ?? reader.queries.tree(current.revision_id);
        const taken = new Set(tree?.pages.map((item) => item.slug));
        const base = slugify(page.title);
        let slug = base;
        for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 95)}-${n}`;
        return commit(current, userId, [
          {
            operation: 'insert_page',
            title: page.title,
            slug,
            document: { markdown: page.markdown },
          },
        ]);
      })();
      return reply.code(201).send({ revision, importedResources: 1, totalResources: 1 });
    },
  );
}

/**
 * Trees of revisions this module just wrote, so the next write to the same change request starts
 * from the tree in memory instead of parsing its JSON again. Entries are never mutated (the apply
 * step works on a copy). If the transaction that wrote one rolls back, its revision id was never
 * stored, so nothing can look it up.
 */
class RecentTrees {
  private readonly trees = new Map<string, RevisionTree>();
  constructor(private readonly size: number) {}
  get(revisionId: string): RevisionTree | undefined {
    return this.trees.get(revisionId);
  }
  remember(revisionId: string, tree: RevisionTree): void {
    this.trees.set(revisionId, tree);
    if (this.trees.size > this.size) {
      const oldest = this.trees.keys().next().value;
      if (oldest !== undefined) this.trees.delete(oldest);
    }
  }
}

/** Decodes base64 files and fetches URL files, so applying the batch needs no I/O. */
async function resolveChanges(
  body: readonly ContentChangeBody[],
  fetcher: ReturnType<typeof urlFetcherFor>,
): Promise<ContentChange[]> {
  const tasks: (() => Promise<void>)[] = [];
  const changes = body.map((change, index): ContentChange => {
    const field = `body.changes.${index}`;
    switch (change.operation) {
      case 'insert_page': {
        const { condition: _condition, document, ...rest } = change;
        return { ...rest, document: documentInput(document, `${field}.document`) };
      }
      case 'update_page': {
        const { condition: _condition, document, ...rest } = change;
        return {
          ...rest,
          ...(document !== undefined
            ? { document: documentInput(document, `${field}.document`) }
            : {}),
        };
      }
      case 'delete_page':
        return change;
      case 'revert_page': {
        if (change.block !== undefined) {
          throw badRequest(
            `${field}.block: reverting single blocks is not supported (pages are stored as Markdown, without block keys); omit block to revert the whole page`,
          );
        }
        return {
          operation: 'revert_page',
          page: change.page,
          ...(change.revision !== undefined ? { revision: change.revision } : {}),
        };
      }
      case 'insert_files': {
        const files = change.files.map((file, fileIndex) => {
          const resolved: ResolvedFileInput = {
            ...(file.ref !== undefined ? { ref: file.ref } : {}),
            name: file.name,
            contentType: file.contentType ?? 'application/octet-stream',
            bytes: new Uint8Array(0),
          };
          const where = `${field}.files.${fileIndex}`;
          const fetch = fileSource(file, where, resolved);
          if (fetch) tasks.push(() => fetch(fetcher));
          return resolved;
        });
        return { operation: 'insert_files', files };
      }
    }
  });
  await runLimited(tasks, FETCH_CONCURRENCY);
  return changes;
}

function documentInput(document: DocumentBody, field: string): DocumentInput {
  if (document.markdown !== undefined && document.document !== undefined) {
    throw badRequest(`${field} must have either markdown or document, not both`);
  }
  if (document.markdown !== undefined) {
    if (document.markdown.length > MAX_PAGE_MARKDOWN_CHARS) {
      throw badRequest(
        `${field}.markdown must NOT have more than ${MAX_PAGE_MARKDOWN_CHARS} characters`,
      );
    }
    return { markdown: document.markdown };
  }
  if (document.document !== undefined) return { document: document.document };
  return {};
}

/**
 * Fills `resolved` from a base64 file right away; for a URL file, returns the fetch that will.
 * Dimensions are read from the bytes of PNG, GIF and JPEG images.
 */
function fileSource(
  file: FileInputBody,
  where: string,
  resolved: ResolvedFileInput,
): ((fetcher: ReturnType<typeof urlFetcherFor>) => Promise<void>) | undefined {
  const setBytes = (bytes: Uint8Array) => {
    resolved.bytes = bytes;
    const dimensions = imageDimensions(bytes);
    if (dimensions) resolved.dimensions = dimensions;
  };
  if ((file.url === undefined) === (file.base64 === undefined)) {
    throw badRequest(`${where} must have exactly one of url and base64`);
  }
  if (file.base64 !== undefined) {
    if (file.contentType === undefined) {
      throw badRequest(`${where}.contentType is required with base64`);
    }
    const text = file.base64.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) {
      throw badRequest(`${where}.base64 is not valid base64`);
    }
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length > MAX_BASE64_BYTES) {
      throw badRequest(
        `${where}.base64 decodes to ${bytes.length} bytes; the limit is 1 MB (${MAX_BASE64_BYTES} bytes): send larger files by url`,
      );
    }
    setBytes(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
    return undefined;
  }
  const url = file.url!;
  return async (fetcher) => {
    let fetched: SafeFetchResult;
    try {
      fetched = await fetcher.fetch(url, {
        timeoutMs: FETCH_TIMEOUT_MS,
        maxBytes: MAX_URL_FILE_BYTES,
      });
    } catch (error) {
      if (error instanceof SafeFetchError) throw badRequest(fetchMessage(where, error));
      throw error;
    }
    if (fetched.status < 200 || fetched.status > 299) {
      throw badRequest(`${where}.url answered HTTP ${fetched.status}`);
    }
    if (file.contentType === undefined) {
      resolved.contentType =
        fetched.contentType?.split(';')[0]?.trim().toLowerCase() || 'application/octet-stream';
    }
    setBytes(new Uint8Array(fetched.body.buffer, fetched.body.byteOffset, fetched.body.length));
  };
}

/** A safeFetch refusal or failure, naming the `url` field it is about. */
function fetchMessage(parent: string, error: SafeFetchError): string {
  return error.message.startsWith('url ')
    ? `${parent}.${error.message}`
    : `${parent}.url: ${error.message}`;
}

/** Runs the tasks, at most `limit` at a time; the first failure rejects (others still settle). */
async function runLimited(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < tasks.length && failure === undefined) {
      const task = tasks[next++]!;
      try {
        await task();
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  if (failure !== undefined) throw failure;
}

/** The charset a response declares (header, else a `<meta charset>`), for decoding its text. */
function decodeText(fetched: SafeFetchResult): string {
  const declared =
    /charset\s*=\s*"?([\w.:-]+)/i.exec(fetched.contentType ?? '')?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(
      fetched.body.subarray(0, 2048).toString('latin1'),
    )?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(fetched.body).replace(/^\uFEFF/, '');
}

/**
 * The page an import makes: its Markdown and a title (heading or frontmatter, else the URL's).
 * HTML is converted on the worker threads: 5 MB of hostile markup must not stall the server.
 */
async function importedPage(
  cpu: CpuPool,
  fetched: SafeFetchResult,
  source: ImportSource,
): Promise<{ title: string; markdown: string }> {
  if (fetched.body.includes(0)) throw badRequest('body.url did not answer with text');
  const text = decodeText(fetched);
  let markdown = text;
  if (source !== 'markdown') {
    const options = { baseUrl: fetched.url, mainContent: source === 'website' };
    try {
      markdown = (await cpu.run('html-to-markdown', { html: text, options })).markdown;
    } catch (error) {
      throw error instanceof CpuJobError ? error.toApiError("The page's Markdown") : error;
    }
  }
  if (!markdown.trim()) throw badRequest('body.url answered with no text to import');
  if (markdown.length > MAX_PAGE_MARKDOWN_CHARS) {
    throw badRequest(
      `body.url: the imported page would have ${markdown.length} characters of Markdown; a page holds at most ${MAX_PAGE_MARKDOWN_CHARS}`,
    );
  }
  let title: string | undefined;
  try {
    title = readPageMarkdown(markdown).title;
  } catch (error) {
    if (error instanceof FrontmatterError) throw badRequest(`body.url: ${error.message}`);
    throw error;
  }
  const problem = title === undefined ? undefined : pageTitleProblem(title);
  if (problem) {
    throw badRequest(
      `body.url: the imported page's title (frontmatter "title" or the leading "# Heading") ${problem}`,
    );
  }
  return { title: title ?? titleFromUrl(fetched.url), markdown };
}

function titleFromUrl(url: string): string {
  const parsed = new URL(url);
  const last = parsed.pathname.split('/').filter(Boolean).pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // keep the raw segment
  }
  // Made up here, so made to fit: no control characters, at most a page title's length.
  const title = Array.from(
    name
      .replace(/\.(md|markdown|mdx|txt|html?)$/i, '')
      .replace(/[-_\p{Cc}\p{Cs}]+/gu, ' ')
      .trim(),
  )
    .slice(0, MAX_PAGE_TITLE_LENGTH)
    .join('')
    .trim();
  return title || parsed.hostname || 'Imported page';
}
