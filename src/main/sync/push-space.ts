/**
 * The push side of one space's sync, run before its pull: scan the folder, classify what changed
 * since the last sync or push, queue it in the durable outbox and drain the outbox into the
 * space's working change request ("Edits from <device>", a draft, never merged by Quire).
 *
 * What the cache records (one transaction with the outbox's enqueue, so an edit is neither lost
 * nor queued twice): `local_edits` rows for every file a queued change came from (its bytes, size
 * and mtime), every page file deleted and every old path of a moved page (as deletions). The file
 * index itself is NOT changed: it stays the base of the synced revision, which the pull compares
 * with. The push side compares with the index overlaid by `local_edits` (LocalEdits.overlay), so
 * an edit is pushed once; the pull treats every path in `local_edits` as locally edited (kept,
 * never overwritten or removed) until a pulled revision contains the same bytes, i.e. the working
 * change request was merged (LocalEdits.settle). That is the rule for edits waiting in the outbox
 * and for edits pushed but not merged alike.
 */
import { readFile, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { contentHash } from '../cache/content-hash';
import type { FileIndex, FileIndexEntry } from '../cache/file-index';
import type { CacheDb } from '../cache/open-cache-database';
import type { CachedSpace } from '../cache/space-cache';
import type { SyncStateStore } from '../cache/sync-state-store';
import type { ContentCache } from '../cache/content-cache';
import {
  classifyLocalChanges,
  type ClassifyResult,
  type PlannedChange,
} from '../local/classify-local-changes';
import type { IgnoreRule } from '../local/ignore-rules';
import type { LocalContentChange, PageFieldsUpdate } from '../local/local-content-change';
import { scanSpaceFolder, type ScannedFile } from '../local/scan-space-folder';
import { atomicWriteFile } from '../mirror/atomic-write';
import { SUMMARY_PATH } from '../mirror/render-gitsync-layout';
import { resolveInside } from '../mirror/resolve-inside';
import { rewriteLinkTargets } from '../mirror/rewrite-link-targets';
import type { Outbox } from '../outbox/outbox';
import type { OutboxChange, OutboxPageFields } from '../outbox/outbox-change';
import type { OutboxDrainer } from '../outbox/outbox-drainer';
import type { LocalEdit, LocalEdits } from './local-edits';

/** Markdown files larger than this are reported, not pushed. */
export const MAX_PUSHED_MARKDOWN_BYTES = 5 * 1024 * 1024;

/** Problems of one push, in the engine's report terms. */
export interface PushProblem {
  kind: 'not-pushed' | 'push-blocked' | 'push-failed';
  path: string | null;
  pageId: string | null;
  message: string;
}

export interface PushSpaceResult {
  /** Changes queued by this pass. */
  queued: number;
  /** Changes acknowledged by the server during this pass. */
  pushed: number;
  /** Files rewritten with the server's normalised Markdown (relative to the space folder). */
  written: string[];
  /** The outbox did not drain (a pause, or the server unreachable). */
  stopped: 'drained' | 'paused' | 'offline' | 'blocked';
  problems: PushProblem[];
}

export interface SpacePusherDeps {
  db: CacheDb;
  index: FileIndex;
  content: ContentCache;
  edits: LocalEdits;
  state: SyncStateStore;
  outbox: Outbox;
  drainer: OutboxDrainer;
  ignore: IgnoreRule;
  now: () => Date;
}

const ALLOW_MASS_DELETE_KEY = (spaceId: string) => `allow-mass-delete:${spaceId}`;

/** `quire confirm-deletes`: the next push of the space may delete more than half its pages. */
export function allowMassDeleteOnce(state: SyncStateStore, spaceId: string): void {
  state.set(ALLOW_MASS_DELETE_KEY(spaceId), '1');
}

export class SpacePusher {
  constructor(private readonly deps: SpacePusherDeps) {}

  async push(space: CachedSpace, spaceRoot: string): Promise<PushSpaceResult> {
    const { db, index, edits, outbox, state } = this.deps;
    const result: PushSpaceResult = {
      queued: 0,
      pushed: 0,
      written: [],
      stopped: 'drained',
      problems: [],
    };
    const view = edits.overlay(space.id, index.entries(space.id));
    const scan = await scanSpaceFolder({
      spaceRoot,
      index: view,
      ignore: this.deps.ignore,
      maxFileBytes: MAX_PUSHED_MARKDOWN_BYTES,
      pending: index.pendingWrites(space.id),
    });
    const allowMassDelete = state.get(ALLOW_MASS_DELETE_KEY(space.id)) === '1';
    const classified = classifyLocalChanges({
      scan,
      index: view,
      pages: this.deps.content.loadRevision(space.id)?.pages ?? [],
      allowMassDelete,
      markdownForPush: serverReferences(view),
    });
    for (const problem of classified.problems) {
      if (classified.guard !== null && problem.path === '') continue;
      result.problems.push({
        kind: 'not-pushed',
        path: problem.path === '' ? null : problem.path,
        pageId: problem.pageId ?? null,
        message: `${problem.path || 'the space folder'}: ${problem.message}`,
      });
    }
    if (classified.guard !== null) {
      // Nothing of this space is queued or sent until the user confirms (`quire confirm-deletes`).
      result.stopped = 'blocked';
      result.problems.push({
        kind: 'push-blocked',
        path: null,
        pageId: null,
        message:
          classified.guard === 'mass-delete'
            ? `${classified.message ?? 'Too many pages would be deleted'}; nothing was pushed (run \`quire confirm-deletes ${space.id}\` to push the deletions)`
            : (classified.message ?? 'The space folder is missing; nothing was pushed'),
      });
      return result;
    }

    if (scan.status === 'scanned' && classified.changes.length > 0) {
      const scanned = new Map<string, ScannedFile>(
        [...scan.changed, ...scan.added].map((file) => [file.path, file]),
      );
      const stamp = this.deps.now().getTime();
      db.transaction(() => {
        for (const planned of classified.changes) {
          for (const change of outboxChanges(space.id, planned, stamp)) outbox.enqueue(change);
        }
        for (const edit of editsOf(classified, scanned, view, stamp)) edits.put(space.id, edit);
        if (allowMassDelete) state.set(ALLOW_MASS_DELETE_KEY(space.id), '');
      })();
      result.queued = classified.changes.length;
    }

    if (outbox.count(space.id) === 0 && outbox.created(space.id).length === 0) return result;
    try {
      const drained = await this.deps.drainer.drain(space.id);
      result.stopped = drained.stopped;
      result.pushed = drained.sent.length;
      await this.recordDrain(space.id, spaceRoot, drained.readBack, result);
      for (const failed of outbox.failed(space.id)) {
        result.problems.push({
          kind: 'push-failed',
          path: null,
          pageId: failed.pageId,
          message: `The server refused a change (${failed.kind}${failed.pageId ? ` of page ${failed.pageId}` : ''}): ${failed.error ?? 'no reason given'}`,
        });
      }
      if (drained.stopped === 'offline') {
        result.problems.push({
          kind: 'push-failed',
          path: null,
          pageId: null,
          message: 'The server could not be reached; local edits stay queued for the next sync',
        });
      }
    } catch (error) {
      result.problems.push({
        kind: 'push-failed',
        path: null,
        pageId: null,
        message: `Pushing local edits failed (they stay queued): ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    return result;
  }

  /**
   * Records the ids of created pages (forgetting them in the outbox in the same transaction) and
   * writes the server's normalised Markdown back into files still as they were sent, updating
   * their edit rows so the rewrite is not taken for a local edit.
   */
  private async recordDrain(
    spaceId: string,
    spaceRoot: string,
    readBack: readonly { pageId: string; sentMarkdown: string; storedMarkdown: string }[],
    result: PushSpaceResult,
  ): Promise<void> {
    const { db, edits, outbox } = this.deps;
    const created = outbox.created(spaceId).filter((item) => item.kind === 'page');
    if (created.length > 0) {
      db.transaction(() => {
        for (const item of created) edits.setCreated(spaceId, item.localKey, item.remoteId);
        outbox.forgetCreated(
          spaceId,
          created.map((item) => item.localKey),
        );
      })();
    }
    const toLocal = localReferences(edits.overlay(spaceId, this.deps.index.entries(spaceId)));
    const byPage = new Map<string, LocalEdit>();
    for (const edit of edits.list(spaceId)) {
      if (edit.pageId !== null && edit.contentHash !== null) byPage.set(edit.pageId, edit);
    }
    for (const back of readBack) {
      // Frontmatter is rendered from page fields by the pull; only plain Markdown is rewritten.
      if (back.sentMarkdown.startsWith('---') || back.storedMarkdown.startsWith('---')) continue;
      const edit = byPage.get(back.pageId);
      if (edit === undefined) continue;
      // In the folder's form: server references back to relative paths, as the pull writes them.
      const text = toLocal(back.storedMarkdown, edit.path);
      const hash = contentHash(text);
      if (hash === edit.contentHash) continue;
      const absolute = resolveInside(spaceRoot, edit.path);
      // Edited again since it was queued: that edit wins, the next push sends it.
      if ((await readHash(absolute)) !== edit.contentHash) continue;
      await atomicWriteFile(absolute, text, { root: spaceRoot });
      const stats = await stat(absolute);
      edits.put(spaceId, {
        ...edit,
        contentHash: hash,
        size: stats.size,
        mtimeMs: stats.mtimeMs,
      });
      result.written.push(edit.path);
    }
  }
}

async function readHash(absolute: string): Promise<string | null> {
  try {
    return contentHash(await readFile(absolute));
  } catch {
    return null;
  }
}

/**
 * The pull writes references to uploads and pages as relative paths (Git Sync's layout); the
 * server stores `/files/<id>` and `/pages/<id>`. Pushed Markdown gets the server's form back for
 * every relative target that names an indexed asset or page; anything else is sent as written.
 */
export function serverReferences(
  view: readonly FileIndexEntry[],
): (markdown: string, path: string) => string {
  const byPath = new Map(view.map((entry) => [entry.path, entry]));
  return (markdown, path) =>
    rewriteLinkTargets(markdown, (written) => {
      const target =
        written.startsWith('<') && written.endsWith('>') ? written.slice(1, -1) : written;
      if (/^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(target)) return undefined;
      const hash = target.indexOf('#');
      const file = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? '' : target.slice(hash);
      let decoded: string;
      try {
        decoded = decodeURIComponent(file);
      } catch {
        return undefined;
      }
      const resolved = posix.normalize(posix.join(posix.dirname(path), decoded));
      const entry = byPath.get(resolved);
      if (entry?.kind === 'asset' && entry.fileId !== null && anchor === '') {
        return `/files/${entry.fileId}`;
      }
      if (entry?.kind === 'page' && entry.pageId !== null) return `/pages/${entry.pageId}${anchor}`;
      return undefined;
    });
}

/**
 * The reverse of serverReferences, as the pull renders page files: `/files/<id>` and
 * `/pages/<id>[#anchor]` naming an indexed file become paths relative to the page's file.
 */
export function localReferences(
  view: readonly FileIndexEntry[],
): (markdown: string, path: string) => string {
  const assets = new Map<string, string>();
  const pages = new Map<string, string>();
  for (const entry of view) {
    if (entry.kind === 'asset' && entry.fileId !== null) assets.set(entry.fileId, entry.path);
    if (entry.kind === 'page' && entry.pageId !== null) pages.set(entry.pageId, entry.path);
  }
  return (markdown, path) => {
    const relative = (target: string) =>
      posix
        .relative(posix.dirname(path), target)
        .replace(/[%#?]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
    return rewriteLinkTargets(markdown, (target) => {
      const file = /^\/files\/([A-Za-z0-9_-]+)$/.exec(target)?.[1];
      if (file !== undefined) {
        const asset = assets.get(file);
        return asset === undefined ? undefined : relative(asset);
      }
      const page = /^\/pages\/([A-Za-z0-9_-]+)(#[^\s]*)?$/.exec(target);
      const pagePath = page?.[1] === undefined ? undefined : pages.get(page[1]);
      return pagePath === undefined ? undefined : `${relative(pagePath)}${page?.[2] ?? ''}`;
    });
  };
}

/** A new page's insert key: its path when found plus a stamp, unique for the outbox's life. */
function localKeyOf(planned: PlannedChange, stamp: number): string {
  return `${planned.ref ?? planned.path ?? 'page'}@${stamp}`;
}

function fieldsOf(change: PageFieldsUpdate): OutboxPageFields | undefined {
  const fields: OutboxPageFields = {};
  const keys = [
    'title',
    'slug',
    'emoji',
    'icon',
    'description',
    'hidden',
    'noIndex',
    'noRobotsIndex',
  ] as const;
  for (const key of keys) {
    if (change[key] !== undefined) (fields as Record<string, unknown>)[key] = change[key];
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** A planned API change → the outbox's changes (one per uploaded file). */
export function outboxChanges(
  spaceId: string,
  planned: PlannedChange,
  stamp: number,
): OutboxChange[] {
  const change: LocalContentChange = planned.change;
  switch (change.operation) {
    case 'insert_page': {
      const fields = fieldsOf(change);
      return [
        {
          kind: 'insert_page',
          spaceId,
          localKey: localKeyOf(planned, stamp),
          markdown: change.document.markdown,
          ...(fields ? { fields } : {}),
          into: change.into !== undefined ? { pageId: change.into } : null,
          ...(change.at !== undefined ? { at: change.at } : {}),
        },
      ];
    }
    case 'update_page': {
      const fields = fieldsOf(change);
      const moves = change.into !== undefined || change.at !== undefined;
      return [
        {
          kind: 'update_page',
          spaceId,
          page: { pageId: change.page },
          ...(change.document ? { markdown: change.document.markdown } : {}),
          ...(fields ? { fields } : {}),
          ...(moves
            ? {
                move: {
                  ...(change.into !== undefined
                    ? { into: change.into === null ? null : { pageId: change.into } }
                    : {}),
                  ...(change.at !== undefined ? { at: change.at } : {}),
                },
              }
            : {}),
        },
      ];
    }
    case 'delete_page':
      return [{ kind: 'delete_page', spaceId, page: { pageId: change.page } }];
    case 'insert_files':
      return change.files.map((file, i) => ({
        kind: 'insert_files',
        spaceId,
        localKey: planned.paths?.[i] ?? file.name,
        file,
      }));
  }
}

/** The `local_edits` rows a classification implies (see the module comment). */
function editsOf(
  classified: ClassifyResult,
  scanned: ReadonlyMap<string, ScannedFile>,
  view: readonly FileIndexEntry[],
  stamp: number,
): LocalEdit[] {
  const byPage = new Map(
    view.filter((entry) => entry.pageId !== null).map((entry) => [entry.pageId!, entry]),
  );
  const result = new Map<string, LocalEdit>();
  const content = (path: string, pageId: string | null, localKey: string | null) => {
    const file = scanned.get(path);
    if (file === undefined) return;
    result.set(path, {
      path,
      kind: file.kind,
      pageId,
      localKey,
      contentHash: file.hash,
      size: file.size,
      mtimeMs: file.mtimeMs,
    });
  };
  const deletion = (path: string, pageId: string | null) => {
    if (scanned.has(path) || result.has(path)) return;
    const kind = view.find((entry) => entry.path === path)?.kind ?? 'page';
    result.set(path, {
      path,
      kind,
      pageId,
      localKey: null,
      contentHash: null,
      size: null,
      mtimeMs: null,
    });
  };
  for (const planned of classified.changes) {
    if (planned.reason === 'delete' && planned.pageId !== undefined) {
      const entry = byPage.get(planned.pageId);
      if (entry !== undefined) deletion(entry.path, planned.pageId);
      continue;
    }
    for (const path of planned.paths ?? []) content(path, null, null);
    if (planned.path === undefined) continue;
    if (planned.change.operation === 'insert_page') {
      content(planned.path, null, localKeyOf(planned, stamp));
    } else {
      content(planned.path, planned.pageId ?? null, null);
    }
  }
  for (const move of classified.moves) {
    content(move.to, move.pageId, null);
    deletion(move.from, move.pageId);
  }
  if (classified.summary === 'applied') content(SUMMARY_PATH, null, null);
  return [...result.values()];
}
