import { Type } from '@sinclair/typebox';
import { findPage } from '../../content/page-serializer';
import type { StoredPage } from '../../content/revision-tree';
import { ApiError, badRequest, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses } from '../../http/common-schemas';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { contentReaderFor } from '../content/content-reader';
import { CpuJobError } from '../../workers/cpu-pool';
import { pdfPages } from './change-request-pdf';
import { ChangeRequestQueries } from './change-request-queries';
import type { LoadChangeRequest } from './change-request-routes';
import {
  ChangeRequestParams,
  PdfDownloadParams,
  PdfDownloadQuery,
  PdfQuery,
  PdfResponse,
} from './change-request-schema';

/** Published: "Temporary URL to print the content. The URL will work for 1h." */
const PDF_URL_LIFETIME_S = 60 * 60;

/**
 * What a PDF URL's signature covers. The file-URL key signs it under a different shape (a JSON
 * object, where file URLs sign a JSON array) so neither kind of signature fits the other route.
 */
function signedPdf(page: string | undefined, only: boolean, expires: number): string {
  return JSON.stringify({ pdf: true, page: page ?? null, only, expires });
}

/**
 * GET …/change-requests/{CR}/pdf answers `{ url }`: a signed, token-free URL valid for an hour.
 * The URL names the change request's revision at the time of the request, so the PDF it serves
 * (rendered on download: revisions never change) is the content that was asked for.
 */
export function changeRequestPdfRoutes(
  app: TypedApp,
  ctx: ServerContext,
  load: LoadChangeRequest,
): void {
  const reader = contentReaderFor(ctx);
  const queries = new ChangeRequestQueries(ctx.db);
  const nowSeconds = () => Math.floor(ctx.clock.now().getTime() / 1000);

  /** The pages a PDF covers: the whole tree, a page with its subpages, or (`only`) the page. */
  const selectPages = (
    pages: readonly StoredPage[],
    pageId: string | undefined,
    only: boolean,
  ): StoredPage[] | undefined => {
    if (pageId === undefined) return [...pages];
    const found = findPage(pages, (page) => page.id === pageId && page.type !== 'link');
    if (!found) return undefined;
    return [only ? { ...found.page, pages: [] } : found.page];
  };

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    {
      schema: {
        params: ChangeRequestParams,
        querystring: PdfQuery,
        response: { 200: PdfResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { row } = load(callerOf(request).userId, spaceId, changeRequestId, 'read');
      const { page, only = false } = request.query;
      if (only && page === undefined) throw badRequest('query.only needs query.page');
      const tree = reader.queries.tree(row.revision_id);
      if (!tree) throw notFound(`Revision ${row.revision_id}`);
      if (!selectPages(tree.pages, page, only)) throw notFound(`Page ${page ?? ''}`);

      const expires = nowSeconds() + PDF_URL_LIFETIME_S;
      const sig = reader.signer.sign(
        spaceId,
        `pdf:${row.id}:${row.revision_id}`,
        signedPdf(page, only, expires),
      );
      const query = new URLSearchParams({
        ...(page !== undefined ? { page } : {}),
        ...(only ? { only: 'true' } : {}),
        expires: String(expires),
        sig,
      });
      const path = `/pdfs/${encodeURIComponent(spaceId)}/${encodeURIComponent(row.id)}/${encodeURIComponent(row.revision_id)}`;
      return { url: `${ctx.urls.api(path)}?${query.toString()}` };
    },
  );

  app.get(
    '/v1/pdfs/:spaceId/:changeRequestId/:revisionId',
    {
      config: { public: true },
      schema: {
        params: PdfDownloadParams,
        querystring: PdfDownloadQuery,
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId, revisionId } = request.params;
      const { page, only = false, expires, sig } = request.query;
      const missing = () => notFound('PDF');
      const signed = signedPdf(page, only, expires);
      if (!reader.signer.verify(spaceId, `pdf:${changeRequestId}:${revisionId}`, signed, sig)) {
        throw missing();
      }
      if (expires < nowSeconds()) {
        throw new ApiError(404, 'This PDF link has expired: ask for a new one');
      }
      const space = reader.queries.space(spaceId);
      const row = queries.find(spaceId, changeRequestId);
      const tree = reader.queries.tree(revisionId);
      if (!space || space.deleted_at || !row || !tree) throw missing();
      const pages = selectPages(tree.pages, page, only);
      if (!pages) throw missing();

      const hashes = new Set<string>();
      const collect = (list: readonly StoredPage[]) => {
        for (const item of list) {
          if (item.body) hashes.add(item.body);
          collect(item.pages);
        }
      };
      collect(pages);
      const bodies = reader.queries.bodies([...hashes]);
      let bytes: Buffer;
      try {
        const rendered = await ctx.cpu.run('pdf', {
          title: row.subject || `Change request #${row.number}`,
          subtitle: `Change request #${row.number} · revision ${revisionId}`,
          pages: pdfPages(pages, (hash) => bodies.get(hash) ?? ''),
        });
        bytes = Buffer.from(rendered.buffer, rendered.byteOffset, rendered.byteLength);
      } catch (error) {
        throw error instanceof CpuJobError ? error.toApiError('The PDF') : error;
      }
      return reply
        .headers({
          'content-type': 'application/pdf',
          'content-length': String(bytes.length),
          'content-disposition': `inline; filename="change-request-${row.number}.pdf"`,
          'cache-control': 'private, max-age=3600',
          'x-content-type-options': 'nosniff',
        })
        .send(bytes);
    },
  );
}
