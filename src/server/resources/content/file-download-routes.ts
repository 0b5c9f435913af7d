import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signedBlob } from '../../content/page-serializer';
import { notFound } from '../../http/api-error';
import { NoContent, errorResponses } from '../../http/common-schemas';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import type { ContentReader } from './content-reader';

const IdParam = Type.String({ minLength: 1, maxLength: 100 });

const Blob = Type.String({ pattern: '^[0-9a-f]{64}$' });
const Name = Type.String({ maxLength: 1024 });

export const FileDownloadParams = Type.Object({
  spaceId: IdParam,
  fileId: IdParam,
  blob: Blob,
  name: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const FileDownloadQuery = Type.Object({
  type: Type.String({ minLength: 1, maxLength: 255 }),
  sig: Type.String({ minLength: 1, maxLength: 128 }),
});

/** The form for names that cannot be a path segment (see fileDownloadUrl): `?name=` instead. */
export const NamedFileDownloadParams = Type.Object({
  spaceId: IdParam,
  fileId: IdParam,
  blob: Blob,
});
export const NamedFileDownloadQuery = Type.Object({
  name: Name,
  type: Type.String({ minLength: 1, maxLength: 255 }),
  sig: Type.String({ minLength: 1, maxLength: 128 }),
});

/** `type/subtype` with optional parameters: anything else is not sent as a Content-Type. */
const MEDIA_TYPE =
  /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(?:\s*;\s*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"[^"\\\r\n]*"))*$/;

/** Scripts in served files (SVG, HTML) never run with this server's origin. */
const SANDBOX = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/** A year: the URL names the bytes by hash, so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * `inline` or `attachment` with the file name: a quoted ASCII fallback (quotes, slashes,
 * backslashes, controls and non-ASCII replaced) and the exact name as RFC 5987 UTF-8.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\/]/g, '_').trim();
  const fallback = ascii && !/^\.+$/.test(ascii) ? ascii : 'file';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * GET /v1/files/{spaceId}/{fileId}/{blob}/{name}?type=…&sig=… — the `downloadURL` of files, and
 * GET /v1/files/{spaceId}/{fileId}/{blob}?name=…&type=…&sig=… for names that cannot be a path
 * segment. It takes no token (image tags and plain fetches use it) and is rate-limited by
 * address; the signature (see fileDownloadUrl) is what authorises it, and any mismatch is a
 * plain 404.
 */
export function fileDownloadRoutes(
  app: TypedApp,
  _ctx: ServerContext,
  reader: ContentReader,
): void {
  const response = {
    200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
    304: NoContent,
    ...errorResponses,
  };
  app.get(
    '/v1/files/:spaceId/:fileId/:blob/:name',
    {
      config: { public: true },
      schema: { params: FileDownloadParams, querystring: FileDownloadQuery, response },
    },
    async (request, reply) =>
      serveFile(reader, { ...request.params, ...request.query }, request.headers, reply),
  );
  app.get(
    '/v1/files/:spaceId/:fileId/:blob',
    {
      config: { public: true },
      schema: { params: NamedFileDownloadParams, querystring: NamedFileDownloadQuery, response },
    },
    async (request, reply) =>
      serveFile(reader, { ...request.params, ...request.query }, request.headers, reply),
  );
}

interface Download {
  spaceId: string;
  fileId: string;
  blob: string;
  name: string;
  type: string;
  sig: string;
}

/** Checks a download's signature and sends the bytes (or 304, or a plain 404). */
function serveFile(
  reader: ContentReader,
  download: Download,
  headers: FastifyRequest['headers'],
  reply: FastifyReply,
): FastifyReply {
  const { spaceId, fileId, blob, name, type, sig } = download;
  const missing = () => notFound(`File ${fileId}`);
  if (!reader.signer.verify(spaceId, fileId, signedBlob(blob, type, name), sig)) throw missing();
  // A deleted space takes its files offline even though their URLs stay valid.
  const space = reader.queries.space(spaceId);
  if (!space || space.deleted_at) throw missing();

  const etag = `"${blob}"`;
  const cacheable = {
    'cache-control': IMMUTABLE,
    etag,
    'x-content-type-options': 'nosniff',
    'content-security-policy': SANDBOX,
  };
  if (headers['if-none-match'] === etag) {
    return reply.code(304).headers(cacheable).send(undefined);
  }

  const bytes = reader.queries.blob(blob);
  if (!bytes) throw missing();
  const contentType = MEDIA_TYPE.test(type) ? type : 'application/octet-stream';
  const inline = contentType.toLowerCase().startsWith('image/');
  return reply
    .headers({
      ...cacheable,
      'content-type': contentType,
      'content-length': String(bytes.length),
      // The blob is named by its sha256: clients check the bytes they received (RFC 9530).
      'repr-digest': `sha-256=:${Buffer.from(blob, 'hex').toString('base64')}:`,
      'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', name),
    })
    .send(bytes);
}
