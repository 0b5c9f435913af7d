import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export interface UploadTarget {
  /** The server's origin, without `/v1`. */
  server: string;
  token: string;
  spaceId: string;
  subject?: string;
  merge?: boolean;
}

/** What the server answers to an import (`POST …/git/import-archive`, 201). */
export interface ImportAnswer {
  changeRequest: {
    id: string;
    number: number;
    subject?: string;
    status: string;
    urls: { app?: string; location?: string };
  };
  revision: string;
  merged: boolean;
  pages: number;
  files: number;
  redirects: number;
  problems: { path: string; message: string; line?: number }[];
}

/** The server refused the import or could not be reached; `status` 0 for a network failure. */
export class ImportUploadError extends Error {
  override readonly name = 'ImportUploadError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Streams `archive` (a tar) to the server's import operation and reads its answer. */
export async function uploadImport(
  target: UploadTarget,
  archive: Readable,
  fetchImpl: typeof fetch = fetch,
): Promise<ImportAnswer> {
  const query = new URLSearchParams();
  if (target.subject !== undefined) query.set('subject', target.subject);
  if (target.merge) query.set('merge', 'true');
  const url = `${target.server.replace(/\/+$/, '')}/v1/spaces/${encodeURIComponent(target.spaceId)}/git/import-archive${query.size > 0 ? `?${query.toString()}` : ''}`;
  const body = Readable.toWeb(archive) as WebReadableStream<Uint8Array>;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/x-tar' },
      body: body as unknown as RequestInit['body'],
      // A streamed request body (Node's fetch needs it said).
      duplex: 'half',
    } as RequestInit);
  } catch (error) {
    archive.destroy();
    throw new ImportUploadError(0, `cannot reach ${target.server}: ${causeOf(error)}`);
  }
  const text = await response.text();
  if (response.status === 201) return JSON.parse(text) as ImportAnswer;
  throw new ImportUploadError(response.status, errorMessage(response.status, text));
}

function errorMessage(status: number, text: string): string {
  let message = text.slice(0, 500);
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') message = parsed.error.message;
  } catch {
    // Not JSON: the start of the text says what it is.
  }
  return `${status}: ${message}`;
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
