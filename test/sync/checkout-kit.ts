import { ChangeRequestStatus, type ChangeRequestContentChange } from '@gitbook/api';
import { WorkspaceChangeRequestRemote } from '../../src/main/change-requests/workspace-change-request-remote';
import { WorkspaceOutboxRemote } from '../../src/main/outbox/workspace-outbox-remote';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { SyncEngine } from '../../src/main/sync/sync-engine';
import type { RemoteWorkspace } from '../../src/main/sync-ports';
import type { TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import { engineFor, TEST_DEVICE, type EngineKit } from './sync-test-kit';

/**
 * Like pushEngineFor, with the change-request side on (what checkouts need). `remote`: the
 * engine's reads of spaces and revisions instead of the plain client; `fetch`: every request's.
 */
export function checkoutEngineFor(
  t: TestServer,
  token: string = TOKENS.ada,
  options: { remote?: RemoteWorkspace; fetch?: typeof fetch } = {},
): EngineKit {
  const kit = engineFor(t, token);
  const client = new WorkspaceClient({
    endpoint: t.url,
    token,
    // A failed request is retried at once: a test's unreachable server costs no waiting.
    ...(options.fetch ? { fetch: options.fetch, http: { sleep: async () => {} } } : {}),
  });
  const engine = new SyncEngine({
    cache: kit.cache,
    remote: options.remote ?? client,
    folder: kit.folder,
    clock: { now: () => new Date() },
    push: {
      remote: new WorkspaceOutboxRemote(client),
      deviceName: TEST_DEVICE,
      maxOfflineWaits: 0,
    },
    changeRequests: { remote: new WorkspaceChangeRequestRemote(client), intervalMs: 3_600_000 },
  });
  return { ...kit, engine };
}

/** A change request another user opens on the space, with these changes. */
export async function openChangeRequest(
  t: TestServer,
  spaceId: string,
  subject: string,
  changes: ChangeRequestContentChange[] = [],
): Promise<{ id: string; number: number }> {
  const api = t.client(TOKENS.ada).spaces;
  const { data } = await api.createChangeRequest(spaceId, { subject });
  if (changes.length > 0) {
    await api.updateChangeRequestContent(spaceId, data.id, { changes }, { compat: false });
  }
  await api.updateChangeRequestById(spaceId, data.id, { status: ChangeRequestStatus.Open });
  return { id: data.id, number: data.number };
}

/** Someone else edits a page of the change request on the server. */
export async function editInChangeRequest(
  t: TestServer,
  spaceId: string,
  changeRequestId: string,
  pageId: string,
  markdown: string,
): Promise<void> {
  await t
    .client(TOKENS.ada)
    .spaces.updateChangeRequestContent(
      spaceId,
      changeRequestId,
      { changes: [{ operation: 'update_page', page: pageId, document: { markdown } }] },
      { compat: false },
    );
}

/** A page of the change request as the server stores it (Markdown). */
export async function changeRequestMarkdown(
  t: TestServer,
  spaceId: string,
  changeRequestId: string,
  pageId: string,
): Promise<string | undefined> {
  const { data } = await t
    .client(TOKENS.ada)
    .spaces.getPageInChangeRequestById(spaceId, changeRequestId, pageId, { format: 'markdown' });
  return (data as { markdown?: string }).markdown;
}

/** A page of the space's main content (Markdown). */
export async function mainMarkdown(
  t: TestServer,
  spaceId: string,
  pageId: string,
): Promise<string | undefined> {
  const { data } = await t
    .client(TOKENS.ada)
    .spaces.getPageById(spaceId, pageId, { format: 'markdown' });
  return (data as { markdown?: string }).markdown;
}
