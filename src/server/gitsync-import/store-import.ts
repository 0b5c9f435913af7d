import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { RevisionStore } from '../content/revision-store';
import type { StoredFile, StoredPage } from '../content/revision-tree';
import { notFound } from '../http/api-error';
import { newId } from '../ids';
import {
  ChangeRequestQueries,
  type ChangeRequestRow,
} from '../resources/change-requests/change-request-queries';
import { imageDimensions } from '../resources/change-requests/image-dimensions';
import type { ServerContext } from '../server-context';
import type { GitBookConfig } from '../../shared/gitsync/gitbook-config';
import type { SpooledFile } from './archive-collector';
import { GitSyncConfigStore } from './gitsync-config-store';
import type { PlannedFile, PlannedPage } from './plan-import-tree';

export interface StoreImportInput {
  spaceId: string;
  userId: string;
  subject: string;
  pages: readonly PlannedPage[];
  files: readonly PlannedFile[];
  /** Where each planned file's bytes wait, by archive path. */
  spooled: ReadonlyMap<string, SpooledFile>;
  /** The layout's `.gitbook.yaml` (text as written and as read): kept with the change request. */
  gitbookConfig?: { text: string; config: GitBookConfig };
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.zip': 'application/zip',
};

/**
 * Stores an import plan as one revision of a new change request, opened for review. File bytes
 * are read one at a time (content-addressed, so a failed import leaves at most unreferenced
 * bytes); the change request, its revision and its page bodies are written in one transaction.
 * The revision holds the imported pages and files only: merging it makes the space the layout
 * (and its `.gitbook.yaml`, kept with the change request, the space's).
 */
export async function storeImport(
  ctx: ServerContext,
  input: StoreImportInput,
): Promise<{ row: ChangeRequestRow; revision: string }> {
  const store = new RevisionStore(ctx.db);
  const now = ctx.clock.now().toISOString();
  const files: StoredFile[] = [];
  for (const planned of input.files) {
    const spooled = input.spooled.get(planned.path);
    if (spooled === undefined) continue;
    const bytes = await readFile(spooled.file);
    const dimensions = imageDimensions(bytes);
    files.push({
      id: planned.id,
      name: planned.name,
      contentType: CONTENT_TYPES[extname(planned.name).toLowerCase()] ?? 'application/octet-stream',
      size: bytes.byteLength,
      blob: store.putBlob(bytes),
      ...(dimensions ? { dimensions } : {}),
      createdAt: now,
    });
  }
  const queries = new ChangeRequestQueries(ctx.db);
  return ctx.db.transaction(() => {
    const base = queries.spaceRevision(input.spaceId);
    if (!base) throw notFound(`Space ${input.spaceId}`);
    const pages = input.pages.map((page) => storedPage(page, store, now));
    const created = queries.create(input.spaceId, input.userId, input.subject, base, now);
    const revision = store.create(input.spaceId, { pages, files }, [base], 'edits', now);
    queries.setRevision(created.id, revision, now);
    queries.update(created.id, { status: 'open' }, now);
    if (input.gitbookConfig !== undefined) {
      const { text, config } = input.gitbookConfig;
      const owner = { spaceId: input.spaceId, changeRequestId: created.id };
      new GitSyncConfigStore(ctx.db).put(owner, text, config, input.userId, now);
    }
    return { row: queries.find(input.spaceId, created.id)!, revision };
  })();
}

function storedPage(page: PlannedPage, store: RevisionStore, now: string): StoredPage {
  const { markdown, pages, source: _source, ...fields } = page;
  const stored: StoredPage = {
    ...fields,
    createdAt: now,
    updatedAt: now,
    pages: pages.map((child) => storedPage(child, store, now)),
  };
  if (page.type === 'document') {
    stored.documentId = newId();
    stored.body = store.putBody(markdown ?? '');
  }
  return stored;
}
