import { randomBytes } from 'node:crypto';
import { open, link, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { DownloadSink } from '../sync-ports';
import type { ReviewRemote } from './review-remote';

/** A PDF larger than this is refused (a hostile or broken server), 200 MiB by default. */
export const DEFAULT_MAX_PDF_BYTES = 200 * 1024 * 1024;
const PDF_MAGIC = '%PDF-';
/** Characters Windows and macOS refuse (or misread) in a file name. */
const UNSAFE_IN_NAMES = '<>:"/\\|?*';

/** The download was not a PDF, or the target cannot be used: the message says which. */
export class PdfSaveError extends Error {
  override readonly name = 'PdfSaveError';

  constructor(
    /** `target`: where to save is unusable; `content`: what came is not an acceptable PDF. */
    readonly reason: 'target' | 'content',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Downloads the PDF at `url` beside `target` (a temporary file), checks that it is one, and gives
 * it `target`'s name, or `name (2).pdf`, `(3)`… when that is taken: never overwriting a file.
 * Returns the path written and its size. Nothing is left behind on failure.
 */
export async function savePdf(
  remote: Pick<ReviewRemote, 'download'>,
  url: string,
  target: string,
  maxBytes = DEFAULT_MAX_PDF_BYTES,
): Promise<{ file: string; bytes: number }> {
  const folder = path.dirname(target);
  const folderStat = await stat(folder).catch(() => undefined);
  if (!folderStat?.isDirectory())
    throw new PdfSaveError('target', `no folder ${folder} to save the PDF in`);
  const temp = path.join(folder, `.quire-pdf-${randomBytes(6).toString('hex')}.part`);
  const handle = await open(temp, 'w+');
  try {
    const { size } = await remote.download({ url, maxBytes, what: 'the PDF' }, fileSink(handle));
    await checkPdf(handle, size);
    await handle.sync();
    await handle.close();
    return { file: await linkFresh(temp, target), bytes: size };
  } finally {
    await handle.close().catch(() => {});
    await rm(temp, { force: true });
  }
}

function fileSink(handle: FileHandle): DownloadSink {
  let position = 0;
  return {
    async reset() {
      await handle.truncate(0);
      position = 0;
    },
    async write(chunk) {
      await handle.write(chunk, 0, chunk.length, position);
      position += chunk.length;
    },
  };
}

async function checkPdf(handle: FileHandle, size: number): Promise<void> {
  const head = Buffer.alloc(PDF_MAGIC.length);
  await handle.read(head, 0, head.length, 0);
  if (size < PDF_MAGIC.length || head.toString('latin1') !== PDF_MAGIC) {
    throw new PdfSaveError(
      'content',
      'the server sent something that is not a PDF; nothing was saved',
    );
  }
}

/**
 * Hard-links the finished temp file under the first free name: `link` fails on an existing
 * name (never replaces it, unlike rename), so two exports never overwrite each other.
 */
async function linkFresh(temp: string, target: string): Promise<string> {
  const ext = path.extname(target);
  const stem = target.slice(0, target.length - ext.length);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? target : `${stem} (${n})${ext}`;
    try {
      await link(temp, candidate);
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new PdfSaveError('target', `no free name for ${target}`);
}

/** "<space> #<n> <subject>.pdf", without characters a file name cannot hold. */
export function pdfFileName(space: string, number: number, subject: string): string {
  const name = [...`${space} #${number} ${subject}`]
    .map((ch) => (ch.charCodeAt(0) < 32 || UNSAFE_IN_NAMES.includes(ch) ? ' ' : ch))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 150);
  return `${name}.pdf`;
}
