import type { ChangeRequestContentChange } from '@gitbook/api';
import { RemoteProtocolError } from '../remote/errors';
import { parsePage, parsePages, walkPages } from '../remote/parse-remote';
import type { WorkspaceClient } from '../remote/workspace-client';
import type { RemotePage } from '../sync-ports';
import type {
  ContentChangesBody,
  ContentUpdateResult,
  OutboxChangeRequest,
  OutboxRemote,
} from './outbox-remote';

/** Path parameters are interpolated raw by the published client. */
const segment = encodeURIComponent;

/**
 * The outbox's calls over the WorkspaceClient: the published client on the rate-limited fetch
 * (shared queue, server pacing, retries). Idempotency-Keys go in the per-call headers, which every
 * retry resends unchanged; POSTs without one are never retried after an ambiguous failure.
 */
export class WorkspaceOutboxRemote implements OutboxRemote {
  constructor(private readonly client: WorkspaceClient) {}

  async createChangeRequest(
    spaceId: string,
    subject: string,
    options: { idempotencyKey: string },
  ): Promise<OutboxChangeRequest> {
    const value = await this.client.call((api) =>
      api.spaces.createChangeRequest(
        segment(spaceId),
        { subject },
        { headers: { 'Idempotency-Key': options.idempotencyKey } },
      ),
    );
    return parseChangeRequest(value);
  }

  async getChangeRequest(spaceId: string, changeRequestId: string): Promise<OutboxChangeRequest> {
    const value = await this.client.call((api) =>
      api.spaces.getChangeRequestById(segment(spaceId), segment(changeRequestId)),
    );
    return parseChangeRequest(value);
  }

  async updateChangeRequestContent(
    spaceId: string,
    changeRequestId: string,
    body: ContentChangesBody,
    options: { idempotencyKey: string },
  ): Promise<ContentUpdateResult> {
    const value = await this.client.call((api) =>
      api.spaces.updateChangeRequestContent(
        segment(spaceId),
        segment(changeRequestId),
        // Our body is a subset of the published one (Markdown documents only).
        body as { changes: ChangeRequestContentChange[] },
        { compat: false },
        { headers: { 'Idempotency-Key': options.idempotencyKey } },
      ),
    );
    return parseContentUpdate(value);
  }

  async getPage(spaceId: string, changeRequestId: string, pageId: string): Promise<RemotePage> {
    const value = await this.client.call((api) =>
      api.spaces.getPageInChangeRequestById(
        segment(spaceId),
        segment(changeRequestId),
        segment(pageId),
        { format: 'markdown' },
      ),
    );
    return parsePage(value);
  }

  async getChangeRequestMarkdown(
    spaceId: string,
    changeRequestId: string,
  ): Promise<ReadonlyMap<string, string>> {
    // The published client's getCurrentRevisionOfChangeRequest does not declare `format`.
    const path = `/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/content`;
    const value = await this.client.call((api) =>
      api.request<unknown>({
        path,
        method: 'GET',
        query: { format: 'markdown' },
        secure: true,
        format: 'json',
      }),
    );
    const json = record(value, `Change request ${changeRequestId}`);
    const markdown = new Map<string, string>();
    for (const page of walkPages(parsePages(json['pages'], `Change request ${changeRequestId}`))) {
      if (page.markdown !== undefined) markdown.set(page.id, page.markdown);
    }
    return markdown;
  }

  async updateChangeRequestFromMain(
    spaceId: string,
    changeRequestId: string,
  ): Promise<'update' | 'conflicts'> {
    const value = await this.client.call((api) =>
      api.spaces.updateChangeRequest(segment(spaceId), segment(changeRequestId)),
    );
    const result = record(value, `Change request ${changeRequestId} update`)['result'];
    if (result !== 'update' && result !== 'conflicts') {
      throw new Error(`Change request ${changeRequestId} update answered result ${String(result)}`);
    }
    return result;
  }

  async getChangeRequestPages(spaceId: string, changeRequestId: string): Promise<RemotePage[]> {
    // Without `format` the content is the tree alone: one small read, whatever the space's size.
    const path = `/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/content`;
    const value = await this.client.call((api) =>
      api.request<unknown>({ path, method: 'GET', secure: true, format: 'json' }),
    );
    const json = record(value, `Change request ${changeRequestId}`);
    return parsePages(json['pages'], `Change request ${changeRequestId}`);
  }
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RemoteProtocolError(`${what} is not an object`);
  }
  return value as Record<string, unknown>;
}

function text(json: Record<string, unknown>, key: string, what: string): string {
  const value = json[key];
  if (typeof value !== 'string' || value === '') {
    throw new RemoteProtocolError(`${what} has no \`${key}\``);
  }
  return value;
}

function parseChangeRequest(value: unknown): OutboxChangeRequest {
  const json = record(value, 'A change request');
  const id = text(json, 'id', 'A change request');
  const number = json['number'];
  if (typeof number !== 'number') {
    throw new RemoteProtocolError(`Change request ${id} has no \`number\``);
  }
  return {
    id,
    number,
    status: text(json, 'status', `Change request ${id}`),
    subject: typeof json['subject'] === 'string' ? json['subject'] : '',
    ...(typeof json['revisionInitial'] === 'string'
      ? { baseRevision: json['revisionInitial'] }
      : {}),
    ...appUrl(json['urls']),
  };
}

function appUrl(urls: unknown): { url?: string } {
  if (typeof urls !== 'object' || urls === null) return {};
  const app = (urls as Record<string, unknown>)['app'];
  return typeof app === 'string' ? { url: app } : {};
}

/** The `compat=false` shape; a bare change request (a server ignoring compat) is refused. */
function parseContentUpdate(value: unknown): ContentUpdateResult {
  const json = record(value, 'A content update');
  if (!Array.isArray(json['changes'])) {
    throw new RemoteProtocolError(
      'The content update has no `changes` list (the server ignored compat=false)',
    );
  }
  const changes = json['changes'].map((item): ContentUpdateResult['changes'][number] => {
    const change = record(item, 'A content update change');
    switch (change['object']) {
      case 'created_page': {
        const pageId = text(record(change['page'], 'A created page'), 'id', 'A created page');
        return typeof change['ref'] === 'string'
          ? { object: 'created_page', ref: change['ref'], pageId }
          : { object: 'created_page', pageId };
      }
      case 'updated_page':
        return {
          object: 'updated_page',
          pageId: text(record(change['page'], 'An updated page'), 'id', 'An updated page'),
        };
      case 'deleted_page':
        return { object: 'deleted_page', pageId: text(change, 'page', 'A deleted page') };
      default:
        throw new RemoteProtocolError(`Unknown content update change ${String(change['object'])}`);
    }
  });
  const files = Array.isArray(json['insertedFiles']) ? json['insertedFiles'] : [];
  return {
    changeRequest: parseChangeRequest(json['changeRequest']),
    changes,
    insertedFiles: files.map((item) => {
      const file = record(item, 'An inserted file');
      const id = text(file, 'id', 'An inserted file');
      return { id, name: typeof file['name'] === 'string' ? file['name'] : id };
    }),
  };
}
