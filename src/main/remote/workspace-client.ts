import { ContentType, GitBookAPI, GitBookAPIError } from '@gitbook/api';
import type {
  DownloadResult,
  DownloadSink,
  RemoteFile,
  RemoteOrganization,
  RemotePage,
  RemoteRevision,
  RemoteSpace,
  RemoteUser,
  RemoteWorkspace,
} from '../sync-ports';
import {
  RemoteError,
  RemoteHttpError,
  RemoteProtocolError,
  RemoteRedirectError,
  remoteErrorForStatus,
} from './errors';
import { FileDownloader, type FileDownloaderOptions } from './file-downloader';
import { collectPages, type ListPage } from './paginate';
import {
  isDeletedSpace,
  parseFile,
  parseOrganization,
  parsePage,
  parsePages,
  parseSpace,
  parseUser,
  walkPages,
} from './parse-remote';
import { redactUrl } from './rate-limit-headers';
import {
  createRateLimitedFetch,
  type RateLimitedFetch,
  type RateLimitedFetchOptions,
} from './rate-limited-fetch';

export interface WorkspaceClientOptions {
  /** The server's base URL, without `/v1` (the client appends it; a trailing `/v1` is dropped). */
  endpoint: string;
  token: string;
  /** The transport under the rate limiter (default: the global fetch). */
  fetch?: typeof fetch;
  userAgent?: string;
  /** Items per list page (default and published maximum 1000: one request per organization). */
  pageSize?: number;
  /** Largest file downloadFile accepts (default 100 MiB). */
  maxDownloadBytes?: number;
  /** Queue, retry and timing settings of the rate-limited fetch (tests inject clock and sleep). */
  http?: Omit<RateLimitedFetchOptions, 'fetch' | 'tokenOrigin'>;
  /** Queue, retry and timing settings of streamed file downloads (streamFile). */
  downloads?: Omit<FileDownloaderOptions, 'fetch'>;
}

const DEFAULT_PAGE_SIZE = 1000;
const DEFAULT_MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;
/** Redirects followed by a token-free download before giving up. */
const MAX_DOWNLOAD_REDIRECTS = 5;

/** Path parameters are interpolated raw by the client: an id with `/`, `?` or `#` must not bend the URL. */
const segment = encodeURIComponent;

/**
 * The sync engine's view of a workspace server: the published `@gitbook/api` client carried by our
 * rate-limited fetch. Works against our server (one request per revision, `format=markdown`) and
 * against GitBook's API (per-page reads of changed pages where the revision comes without Markdown).
 * Every failure is a RemoteError subclass.
 */
export class WorkspaceClient implements RemoteWorkspace {
  /** The normalised endpoint (no trailing slash, no `/v1`). */
  readonly endpoint: string;
  /**
   * The published client, for calls this class does not wrap. Per-call headers (an
   * `Idempotency-Key`, say) go in its last `params` argument and are resent unchanged on every
   * retry; wrap the call in `call()` to get typed errors.
   */
  readonly api: GitBookAPI;
  private readonly origin: string;
  private readonly http: RateLimitedFetch;
  private readonly pageSize: number;
  private readonly maxDownloadBytes: number;
  private readonly downloader: FileDownloader;

  constructor(private readonly options: WorkspaceClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.endpoint);
    } catch {
      throw new TypeError(`Not a URL: ${options.endpoint}`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new TypeError(`The endpoint must be an http(s) URL, not ${parsed.protocol}`);
    }
    this.endpoint = options.endpoint.replace(/\/+$/, '').replace(/\/v1$/, '');
    this.origin = parsed.origin;
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.maxDownloadBytes = options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
    this.http = createRateLimitedFetch({
      ...options.http,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      tokenOrigin: this.origin,
    });
    this.downloader = new FileDownloader({
      ...options.downloads,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const http = this.http;
    this.api = new GitBookAPI({
      endpoint: this.endpoint,
      authToken: options.token,
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      serviceBinding: { fetch: (input, init) => http(input, init) },
    });
  }

  /** Runs a client call, resolving to its data and mapping every failure to a RemoteError. */
  async call<T>(operation: (api: GitBookAPI) => Promise<{ data: T }>): Promise<T> {
    try {
      return (await operation(this.api)).data;
    } catch (error) {
      throw toRemoteError(error);
    }
  }

  async whoAmI(): Promise<RemoteUser> {
    return parseUser(await this.call((api) => api.user.getAuthenticatedUser()));
  }

  async listOrganizations(): Promise<RemoteOrganization[]> {
    const items = await collectPages(async (page) =>
      listPage(
        await this.call((api) =>
          api.orgs.listOrganizationsForAuthenticatedUser({ page, limit: this.pageSize }),
        ),
      ),
    );
    return items.map(parseOrganization);
  }

  /** Spaces in the trash are left out: for the engine they are gone. */
  async listSpaces(organizationId: string): Promise<RemoteSpace[]> {
    const items = await collectPages(async (page) =>
      listPage(
        await this.call((api) =>
          api.orgs.listSpacesInOrganizationById(segment(organizationId), {
            page,
            limit: this.pageSize,
          }),
        ),
      ),
    );
    return items
      .filter((item) => !isDeletedSpace(item))
      .map((item) => parseSpace(item, organizationId));
  }

  /**
   * One request where the server puts every document page's Markdown in the revision. Otherwise
   * one more per document page, except pages whose `updatedAt` equals the one in `knownPages`:
   * those come back WITHOUT `markdown`, and the caller keeps its cached copy.
   */
  async getRevision(
    spaceId: string,
    revisionId: string,
    knownPages: ReadonlyMap<string, string> = new Map(),
  ): Promise<RemoteRevision> {
    const json = await this.readRevision(spaceId, revisionId);
    const what = `Revision ${revisionId}`;
    const pages = parsePages(json['pages'], what);
    const files = Array.isArray(json['files'])
      ? json['files'].map(parseFile)
      : await this.listFiles(spaceId, revisionId);

    const toRead: RemotePage[] = [];
    for (const page of walkPages(pages)) {
      if (page.type !== 'document' || page.markdown !== undefined) continue;
      const known = knownPages.get(page.id);
      if (known !== undefined && page.updatedAt !== undefined && known === page.updatedAt) continue;
      toRead.push(page);
    }
    // The queue bounds how many of these run at once.
    await Promise.all(
      toRead.map(async (page) => {
        page.markdown = await this.readPageMarkdown(spaceId, revisionId, page.id);
      }),
    );
    return { id: typeof json['id'] === 'string' ? json['id'] : revisionId, pages, files };
  }

  /**
   * A file's bytes. The token goes only to the endpoint's own origin; a download elsewhere is sent
   * without it, and only such token-free downloads follow redirects (never back to carrying it).
   */
  async downloadFile(file: RemoteFile): Promise<Uint8Array> {
    if (file.size > this.maxDownloadBytes) {
      throw new RemoteProtocolError(
        `File ${file.id} is ${file.size} bytes, more than the ${this.maxDownloadBytes} allowed`,
      );
    }
    let url = this.downloadUrl(file.downloadURL, this.endpoint);
    let withToken = url.origin === this.origin;
    for (let hops = 0; ; hops++) {
      try {
        const headers: Record<string, string> = withToken
          ? { authorization: `Bearer ${this.options.token}` }
          : {};
        if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
        const response = await this.http(
          url.href,
          { headers },
          { maxBytes: this.maxDownloadBytes },
        );
        if (!response.ok) {
          const message = `Downloading file ${file.id} failed: ${response.status} ${response.statusText}`;
          throw remoteErrorForStatus(response.status, message, { url: redactUrl(url.href) });
        }
        return new Uint8Array(await response.arrayBuffer());
      } catch (error) {
        if (
          error instanceof RemoteRedirectError &&
          !withToken &&
          error.location !== undefined &&
          hops < MAX_DOWNLOAD_REDIRECTS
        ) {
          url = this.downloadUrl(error.location, url.href);
          withToken = false;
          continue;
        }
        throw toRemoteError(error);
      }
    }
  }

  /**
   * Streams a file into `sink` through the download queue (see FileDownloader), with the same
   * rules as downloadFile: the token only to the endpoint's origin, redirects only without it.
   */
  async streamFile(
    file: RemoteFile,
    sink: DownloadSink,
    signal?: AbortSignal,
  ): Promise<DownloadResult> {
    if (file.size > this.maxDownloadBytes) {
      throw new RemoteProtocolError(
        `File ${file.id} is ${file.size} bytes, more than the ${this.maxDownloadBytes} allowed`,
      );
    }
    const expectedSize =
      Number.isSafeInteger(file.size) && file.size >= 0 ? { expectedSize: file.size } : {};
    return this.stream(
      { url: file.downloadURL, maxBytes: this.maxDownloadBytes, what: `file ${file.id}` },
      expectedSize,
      sink,
      signal,
    );
  }

  /**
   * Streams a URL the server handed out (a PDF's, say) into `sink`, through the same queue and
   * rules as streamFile, refusing more than `maxBytes`.
   */
  async streamUrl(
    request: { url: string; maxBytes: number; what: string },
    sink: DownloadSink,
    signal?: AbortSignal,
  ): Promise<DownloadResult> {
    return this.stream(request, {}, sink, signal);
  }

  private async stream(
    request: { url: string; maxBytes: number; what: string },
    expected: { expectedSize?: number },
    sink: DownloadSink,
    signal?: AbortSignal,
  ): Promise<DownloadResult> {
    const url = this.downloadUrl(request.url, this.endpoint);
    const withToken = url.origin === this.origin;
    const headers: Record<string, string> = withToken
      ? { authorization: `Bearer ${this.options.token}` }
      : {};
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    try {
      return await this.downloader.download(
        {
          url,
          headers,
          ...expected,
          maxBytes: request.maxBytes,
          // A request that carried the token follows no redirect; the others never regain it.
          redirect: (location, from) =>
            withToken ? undefined : this.downloadUrl(location, from.href),
          what: request.what,
        },
        sink,
        signal,
      );
    } catch (error) {
      throw toRemoteError(error);
    }
  }

  async getGitConfig(spaceId: string): Promise<string | undefined> {
    let value: unknown;
    try {
      value = await this.call((api) =>
        api.request<unknown>({
          path: gitConfigPath(spaceId),
          method: 'GET',
          secure: true,
          format: 'json',
        }),
      );
    } catch (error) {
      // No configuration, or a server without the extension: nothing to write.
      if (error instanceof RemoteError && error.status === 404) return undefined;
      throw error;
    }
    const text = (value as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') {
      throw new RemoteProtocolError(`The .gitbook.yaml of space ${spaceId} has no text`);
    }
    return text;
  }

  async putGitConfig(spaceId: string, text: string): Promise<void> {
    await this.call((api) =>
      api.request<unknown>({
        path: gitConfigPath(spaceId),
        method: 'PUT',
        body: { text },
        type: ContentType.Json,
        secure: true,
        format: 'json',
      }),
    );
  }

  private downloadUrl(value: string, base: string): URL {
    if (hasDotSegment(value)) {
      // URL parsing drops `.` and `..` (`%2e` too): the request would go to another path.
      throw new RemoteProtocolError(
        `Refusing the download URL ${value.split(/[?#]/, 1)[0]}: a "." or ".." segment would make it resolve elsewhere`,
      );
    }
    let url: URL;
    try {
      url = new URL(value, base);
    } catch {
      throw new RemoteProtocolError(`Not a download URL: ${redactUrl(value)}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new RemoteProtocolError(`Refusing to download from a ${url.protocol} URL`);
    }
    return url;
  }

  /**
   * `GET /spaces/{id}/revisions/{rev}?format=markdown`. The published client's getRevisionById
   * (0.202.0) does not declare `format`, so this goes through its generic `request`. A server that
   * rejects the parameter (400) is asked again without it and read page by page.
   */
  private async readRevision(
    spaceId: string,
    revisionId: string,
  ): Promise<Record<string, unknown>> {
    const path = `/spaces/${segment(spaceId)}/revisions/${segment(revisionId)}`;
    const read = (query: Record<string, string>) =>
      this.call((api) =>
        api.request<unknown>({ path, method: 'GET', query, secure: true, format: 'json' }),
      );
    let value: unknown;
    try {
      value = await read({ format: 'markdown' });
    } catch (error) {
      if (!(error instanceof RemoteHttpError) || error.status !== 400) throw error;
      value = await read({});
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new RemoteProtocolError(`Revision ${revisionId} is not an object`);
    }
    return value as Record<string, unknown>;
  }

  private async readPageMarkdown(
    spaceId: string,
    revisionId: string,
    pageId: string,
  ): Promise<string> {
    const value = await this.call((api) =>
      api.spaces.getPageInRevisionById(segment(spaceId), segment(revisionId), segment(pageId), {
        format: 'markdown',
      }),
    );
    const page = parsePage(value);
    if (page.markdown === undefined) {
      // Never guess "": an empty page pushed back would erase the real one.
      throw new RemoteProtocolError(`Page ${pageId} came back without its Markdown`);
    }
    return page.markdown;
  }

  private async listFiles(spaceId: string, revisionId: string): Promise<RemoteFile[]> {
    const items = await collectPages(async (page) =>
      listPage(
        await this.call((api) =>
          api.spaces.listFilesInRevisionById(segment(spaceId), segment(revisionId), {
            page,
            limit: this.pageSize,
          }),
        ),
      ),
    );
    return items.map(parseFile);
  }
}

function listPage(value: unknown): ListPage<unknown> {
  if (
    value === null ||
    typeof value !== 'object' ||
    !Array.isArray((value as ListPage<unknown>).items)
  ) {
    throw new RemoteProtocolError('A list response has no `items` array');
  }
  return value as ListPage<unknown>;
}

/** Typed errors for everything the client and the fetch under it can throw. */
export function toRemoteError(error: unknown): unknown {
  if (error instanceof RemoteError) return error;
  if (error instanceof GitBookAPIError) {
    const url = error.response?.url ? redactUrl(error.response.url) : undefined;
    return remoteErrorForStatus(error.code, `${error.code} ${error.errorMessage}`, {
      ...(url ? { url } : {}),
      cause: error,
    });
  }
  // A 2xx whose body is not the JSON it should be.
  if (error instanceof SyntaxError) {
    return new RemoteProtocolError(`The server sent invalid JSON: ${error.message}`, {
      cause: error,
    });
  }
  // Cancellation (the caller's abort reason) and programming errors pass through unchanged.
  return error;
}

/**
 * Whether a URL (absolute or relative) has a `.` or `..` path segment, spelled out or
 * percent-encoded: a server that puts an untrusted name (a file called `..`) into a path segment
 * unescaped produces one.
 */
export function hasDotSegment(value: string): boolean {
  const afterAuthority = value.replace(/^[a-z][a-z0-9+.-]*:(?:[/\\]{2}[^/\\?#]*)?/i, '');
  const path = afterAuthority.split(/[?#]/, 1)[0] ?? '';
  return path.split(/[/\\]/).some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

const gitConfigPath = (spaceId: string) => `/spaces/${segment(spaceId)}/git/config`;
