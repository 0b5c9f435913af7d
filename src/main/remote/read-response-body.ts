import { RemoteProtocolError } from './errors';
import { redactUrl } from './rate-limit-headers';

/** Error bodies are read only for their message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** `error.message` from a JSON error envelope, else the start of the text. */
export async function errorMessage(response: Response): Promise<string> {
  let text: string;
  try {
    text = new TextDecoder().decode(await readBody(response, MAX_ERROR_BODY_BYTES, response.url));
  } catch {
    return response.statusText;
  }
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON: fall back to the text
  }
  return text.slice(0, 200) || response.statusText;
}

/**
 * The whole body, refusing more than `maxBytes`. With no content coding, a body shorter than its
 * Content-Length is a broken transfer (retried like a network error).
 */
export async function readBody(
  response: Response,
  maxBytes: number,
  url: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const declaredText = response.headers.get('content-length');
  const coding = (response.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const declared =
    declaredText !== null && /^\d+$/.test(declaredText.trim()) && coding === 'identity'
      ? Number(declaredText)
      : undefined;
  const tooLarge = () =>
    new RemoteProtocolError(`Response of ${redactUrl(url)} is larger than ${maxBytes} bytes`, {
      status: response.status,
      url: redactUrl(url),
    });
  if (declared !== undefined && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);

  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (declared !== undefined && total !== declared) {
    throw new Error(
      `Body of ${redactUrl(url)} has ${total} bytes, Content-Length said ${declared}`,
    );
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
