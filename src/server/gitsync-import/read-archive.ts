import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';
import * as yauzl from 'yauzl';
import { ArchiveCollector } from './archive-collector';
import { ArchiveEntryError, type ArchiveLimits } from './archive-limits';

export type ArchiveFormat = 'tar' | 'zip';

/**
 * Reads an uploaded archive into an ArchiveCollector, entry by entry. Throws ArchiveEntryError
 * for the first entry refused (the collector removes what it spooled; nothing else is written)
 * and for an archive over `maxArchiveBytes` as uploaded.
 */
export async function readArchive(
  format: ArchiveFormat,
  body: Readable,
  limits: ArchiveLimits,
): Promise<ArchiveCollector> {
  const collector = new ArchiveCollector(limits);
  try {
    if (format === 'tar') await readTar(body, limits, collector);
    else await readZip(body, limits, collector);
    return collector;
  } catch (error) {
    await collector.dispose();
    throw error;
  }
}

/**
 * Pipes the upload through the size limit into `target`. When anything fails, the rest of the
 * upload is read and dropped rather than the connection torn down, so the client (still
 * sending) receives the 400 that names the entry instead of a broken pipe.
 */
async function feed(
  body: Readable,
  limits: ArchiveLimits,
  target: NodeJS.WritableStream,
): Promise<void> {
  const limit = uploadLimit(limits);
  body.pipe(limit);
  body.once('error', (error) => limit.destroy(error));
  try {
    await pipeline(limit, target);
  } finally {
    body.unpipe(limit);
    if (!body.readableEnded) body.resume();
  }
}

/** Counts the uploaded bytes, failing the stream past the limit. */
function uploadLimit(limits: ArchiveLimits): Transform {
  let size = 0;
  return new Transform({
    transform: (chunk: Buffer, _encoding, done) => {
      size += chunk.length;
      if (size > limits.maxArchiveBytes) {
        done(new ArchiveEntryError('(archive)', `is larger than ${limits.maxArchiveBytes} bytes`));
      } else done(null, chunk);
    },
  });
}

async function readTar(
  body: Readable,
  limits: ArchiveLimits,
  collector: ArchiveCollector,
): Promise<void> {
  const extract = tar.extract();
  const consume = async () => {
    try {
      for await (const entry of extract) {
        const { name, type } = entry.header;
        const kind = type === 'contiguous-file' ? 'file' : (type ?? 'file');
        const path = collector.accept(name, kind);
        if (path === undefined) entry.resume();
        else await collector.read(name, path, entry);
      }
    } catch (error) {
      // Stops the upload too: nothing more is read once an entry is refused.
      extract.destroy(error instanceof Error ? error : undefined);
      throw error;
    }
  };
  await Promise.all([feed(body, limits, extract), consume()]);
}

/** Unix file type bits of a zip entry made on Unix (0 when the archiver did not record them). */
function zipEntryType(entry: yauzl.Entry, name: string): string {
  const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
  if (mode === 0o120000) return 'symlink';
  if (mode === 0o020000) return 'character-device';
  if (mode === 0o060000) return 'block-device';
  if (mode === 0o010000) return 'fifo';
  if (mode === 0o140000) return 'socket';
  return name.endsWith('/') || mode === 0o040000 ? 'directory' : 'file';
}

/** A zip's entries need random access: the upload is spooled to a temporary file first. */
async function readZip(
  body: Readable,
  limits: ArchiveLimits,
  collector: ArchiveCollector,
): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'quire-zip-'));
  try {
    const file = join(folder, 'upload.zip');
    await feed(body, limits, createWriteStream(file));
    const zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
    });
    try {
      await readZipEntries(zip, limits, collector);
    } finally {
      zip.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function readZipEntries(
  zip: yauzl.ZipFile,
  limits: ArchiveLimits,
  collector: ArchiveCollector,
): Promise<void> {
  let declared = 0;
  for (;;) {
    const entry = await nextZipEntry(zip);
    if (entry === undefined) return;
    const name = yauzl.getFileNameLowLevel(
      entry.generalPurposeBitFlag,
      entry.fileNameRaw,
      entry.extraFields,
      false,
    );
    const path = collector.accept(name, zipEntryType(entry, name));
    if (path === undefined) continue;
    checkZipSizes(entry, name, limits, (declared += entry.uncompressedSize));
    if (entry.isEncrypted()) throw new ArchiveEntryError(name, 'is encrypted');
    await collector.read(name, path, await zip.openReadStreamPromise(entry));
  }
}

/** Zip bombs are refused from the central directory, before any byte is inflated. */
function checkZipSizes(
  entry: yauzl.Entry,
  name: string,
  limits: ArchiveLimits,
  declaredTotal: number,
): void {
  const { compressedSize, uncompressedSize } = entry;
  if (
    uncompressedSize > limits.ratioFloorBytes &&
    uncompressedSize > Math.max(1, compressedSize) * limits.maxRatio
  ) {
    throw new ArchiveEntryError(
      name,
      `expands ${Math.round(uncompressedSize / Math.max(1, compressedSize))} times (at most ${limits.maxRatio}): a zip bomb`,
    );
  }
  if (declaredTotal > limits.maxTotalBytes) {
    throw new ArchiveEntryError(
      name,
      `takes the archive past ${limits.maxTotalBytes} bytes extracted`,
    );
  }
}

function nextZipEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => {
      cleanup();
      resolve(entry);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}
