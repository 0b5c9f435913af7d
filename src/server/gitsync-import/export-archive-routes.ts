import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import * as tar from 'tar-stream';
import { callerOf } from '../http/authenticate';
import { errorResponses } from '../http/common-schemas';
import type { TypedApp } from '../http/typed-app';
import { SpaceParams } from '../resources/spaces/space-schema';
import type { ServerContext } from '../server-context';
import { spaceExport, type ExportedFile } from './space-export';

/**
 * Quire extension: `GET /v1/spaces/{spaceId}/git/export-archive` answers the space's live
 * content as a tar of its Git Sync layout (SUMMARY.md, README.md, folders, `.gitbook/assets/`),
 * the files a fresh `quire` mirror writes, byte for byte. Streamed: one file in memory at a time.
 */
export function exportArchiveRoutes(app: TypedApp, ctx: ServerContext): void {
  app.get(
    '/v1/spaces/:spaceId/git/export-archive',
    {
      schema: {
        params: SpaceParams,
        response: {
          200: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { spaceId } = request.params;
      const files = await spaceExport(ctx, callerOf(request).userId, spaceId);
      return reply
        .header('content-type', 'application/x-tar')
        .header('content-disposition', `attachment; filename="${spaceId}.tar"`)
        .send(Readable.from(tarStream(files)));
    },
  );
}

/**
 * The files as a tar stream. Each entry is written through its sink, which waits while the
 * reader is behind, so one file at a time is read from the store.
 */
function tarStream(files: readonly ExportedFile[]): tar.Pack {
  const pack = tar.pack();
  const mtime = new Date(0);
  void (async () => {
    try {
      for (const file of files) {
        const bytes = file.bytes();
        await new Promise<void>((resolve, reject) => {
          const sink = pack.entry(
            { name: file.path, size: bytes.length, mode: 0o644, mtime },
            (error) => (error ? reject(error) : resolve()),
          );
          sink.end(bytes);
        });
      }
      pack.finalize();
    } catch (error) {
      pack.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return pack;
}
