import { createReadStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';
import type { ImportFile } from './list-import-files';

/** What the server reads of a Git Sync layout: Markdown, `.gitbook.yaml` and assets. */
export function isImported(path: string): boolean {
  return (
    /\.md$/i.test(path) ||
    /^\.gitbook\.ya?ml$/.test(path) ||
    /(?:^|\/)\.gitbook\/assets\/[^/]+$/.test(path)
  );
}

/**
 * A tar of `files`, produced as it is read: each file is streamed from disk into its entry in
 * turn, so memory holds a few chunks whatever the folder's size (the reader's backpressure
 * paces the disk reads).
 */
export function packImportTar(files: readonly ImportFile[]): Readable {
  const pack = tar.pack();
  const out = new PassThrough();
  pipeline(pack, out).catch((error: unknown) => {
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  void (async () => {
    try {
      for (const file of files) {
        const entry = pack.entry({ name: file.path, size: file.size, type: 'file', mode: 0o644 });
        await pipeline(createReadStream(file.absolute), entry);
      }
      pack.finalize();
    } catch (error) {
      pack.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return out;
}
