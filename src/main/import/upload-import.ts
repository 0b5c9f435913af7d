import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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

/**
 * Streams `archive` (a tar) to the server's import operation and reads its answer. node:http
 * rather than fetch: piping into the request keeps backpressure end to end, so the client holds
 * a few chunks of the archive at a time (fetch with a stream body read it ahead into memory).
 */
export async function uploadImport(target: UploadTarget, archive: Readable): Promise<ImportAnswer> {
  const query = new URLSearchParams();
  if (target.subject !== undefined) query.set('subject', target.subject);
  if (target.merge) query.set('merge', 'true');
  const url = new URL(
    `${target.server.replace(/\/+$/, '')}/v1/spaces/${encodeURIComponent(target.spaceId)}/git/import-archive${query.size > 0 ? `?${query.toString()}` : ''}`,
  );
  const client = url.protocol === 'https:' ? https : http;
  const request = client.request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/x-tar' },
    // One upload, one connection: never left open in a keep-alive pool after a refusal.
    agent: false,
  });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  let response: IncomingMessage;
  try {
    // The server may answer (a refused entry) before the whole archive is sent: no need to wait.
    const sent = pipeline(archive, request).catch(() => undefined);
    response = await answered;
    if (response.statusCode === 201) await sent;
    else archive.destroy();
  } catch (error) {
    archive.destroy();
    throw new ImportUploadError(0, `cannot reach ${target.server}: ${causeOf(error)}`);
  }
  const text = await readText(response, MAX_ANSWER_BYTES);
  const status = response.statusCode ?? 0;
  if (status === 201) return JSON.parse(text) as ImportAnswer;
  throw new ImportUploadError(status, errorMessage(status, text));
}

/** The answer lists pages' problems; more than this is not an answer of ours. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

async function readText(response: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw new ImportUploadError(response.statusCode ?? 0, 'the server answered too much');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
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
