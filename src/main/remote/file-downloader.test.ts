import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RemoteNotFoundError, RemoteProtocolError, RemoteUnavailableError } from './errors';
import { announcedSha256, FileDownloader, type DownloadRequest } from './file-downloader';

const T0 = 1_700_000_000_000;
const BYTES = Buffer.from('the bytes of an image');
const DIGEST = `sha-256=:${createHash('sha256').update(BYTES).digest('base64')}:`;

/** A sink in memory that records its resets. */
function memorySink() {
  const sink = {
    chunks: [] as Buffer[],
    resets: 0,
    reset: async () => {
      sink.resets++;
      sink.chunks = [];
    },
    write: async (chunk: Uint8Array) => {
      sink.chunks.push(Buffer.from(chunk));
    },
    text: () => Buffer.concat(sink.chunks).toString(),
  };
  return sink;
}

/** A downloader over scripted answers, on a fake clock; `sent` holds each request's time and URL. */
function harness(replies: ((url: string) => Response)[]) {
  const clock = { now: T0 };
  const sent: { at: number; url: string; headers: Headers }[] = [];
  const downloader = new FileDownloader({
    fetch: (async (input: string, init: RequestInit) => {
      sent.push({ at: clock.now, url: input, headers: new Headers(init.headers) });
      const reply = replies.shift();
      if (reply === undefined) throw new TypeError('no more answers');
      return reply(input);
    }) as typeof fetch,
    now: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
    random: () => 0.5,
  });
  return { downloader, sent, clock };
}

function request(overrides: Partial<DownloadRequest> = {}): DownloadRequest {
  return {
    url: new URL('https://files.example.test/a.png'),
    headers: {},
    expectedSize: BYTES.length,
    maxBytes: 1024,
    redirect: (location, from) => new URL(location, from),
    what: 'file f1',
    ...overrides,
  };
}

const ok =
  (body: Buffer = BYTES, headers: Record<string, string> = {}) =>
  () =>
    new Response(body, { status: 200, headers });

describe('FileDownloader', () => {
  it('streams the body into the sink and returns its sha256 and size', async () => {
    const { downloader } = harness([ok(BYTES, { 'repr-digest': DIGEST })]);
    const sink = memorySink();
    const result = await downloader.download(request(), sink);
    expect(sink.text()).toBe(BYTES.toString());
    expect(result).toEqual({
      hash: createHash('sha256').update(BYTES).digest('hex'),
      size: BYTES.length,
    });
  });

  it('starts again from the first byte when the size or the digest is wrong', async () => {
    const { downloader, sent } = harness([
      ok(BYTES.subarray(0, 5)),
      ok(Buffer.from('the bytes of an imagE'), { 'repr-digest': DIGEST }),
      ok(BYTES, { 'repr-digest': DIGEST }),
    ]);
    const sink = memorySink();
    await downloader.download(request(), sink);
    expect(sent).toHaveLength(3);
    expect(sink.resets).toBe(3);
    expect(sink.text()).toBe(BYTES.toString());
  });

  it('gives up on bytes that never match, as RemoteUnavailableError', async () => {
    const { downloader } = harness(Array.from({ length: 5 }, () => ok(BYTES.subarray(1))));
    await expect(downloader.download(request(), memorySink())).rejects.toBeInstanceOf(
      RemoteUnavailableError,
    );
  });

  it('waits out a 429 Retry-After before sending anything more', async () => {
    const { downloader, sent } = harness([
      () => new Response('', { status: 429, headers: { 'retry-after': '3' } }),
      ok(),
    ]);
    await downloader.download(request(), memorySink());
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(3000);
  });

  it('does not retry a 404, and refuses a body over the limit', async () => {
    const missing = harness([() => new Response('', { status: 404 })]);
    await expect(missing.downloader.download(request(), memorySink())).rejects.toBeInstanceOf(
      RemoteNotFoundError,
    );
    const large = harness([ok(Buffer.alloc(2000))]);
    await expect(
      large.downloader.download(request({ expectedSize: 2000 }), memorySink()),
    ).rejects.toBeInstanceOf(RemoteProtocolError);
    expect(large.sent).toHaveLength(1);
  });

  it('follows a redirect only where allowed, and never with the token', async () => {
    const redirect = () =>
      new Response(null, { status: 302, headers: { location: 'https://cdn.example.test/a' } });
    const followed = harness([redirect, ok()]);
    await followed.downloader.download(
      request({ headers: { authorization: 'Bearer x', 'user-agent': 'q' } }),
      memorySink(),
    );
    expect(followed.sent[1]!.url).toBe('https://cdn.example.test/a');
    expect(followed.sent[1]!.headers.has('authorization')).toBe(false);

    const refused = harness([redirect]);
    await expect(
      refused.downloader.download(request({ redirect: () => undefined }), memorySink()),
    ).rejects.toBeInstanceOf(RemoteProtocolError);
  });

  it('reads sha-256 from Repr-Digest or Content-Digest', () => {
    expect(announcedSha256(new Headers({ 'repr-digest': 'sha-512=:AA==:, sha-256=:AB+/=:' }))).toBe(
      'AB+/=',
    );
    expect(announcedSha256(new Headers({ 'content-digest': 'sha-256=:QQ==:' }))).toBe('QQ==');
    expect(announcedSha256(new Headers())).toBeUndefined();
  });
});
