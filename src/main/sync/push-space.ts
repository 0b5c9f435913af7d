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
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { contentHash } from '../cache/content-hash';
import type { FileIndex } from '../cache/file-index';
import type { CacheDb } from '../cache/open-cache-database';
import type { CachedSpace } from '../cache/space-cache';
import type { SyncStateStore } from '../cache/sync-state-store';
import type { ContentCache } from '../cache/content-cache';
import { classifyLocalChanges } from '../local/classify-local-changes';
import type { IgnoreRule } from '../local/ignore-rules';
import type { ScannedFile } from '../local/scan-space-folder';
import { atomicWriteFile } from '../mirror/atomic-write';
import { resolveInside } from '../mirror/resolve-inside';
import type { Outbox } from '../outbox/outbox';
import type { OutboxDrainer } from '../outbox/outbox-drainer';
import type { LocalEdit, LocalEdits } from '../cache/local-edits';
import { classifiedEditRows } from './classified-edit-rows';
import { localReferences, serverReferences } from './link-references';
import { outboxChanges } from './outbox-changes';
import { problemText } from './problem-text';
import { readmeNameKey } from './readme-name-key';
import { alignedToChangeRequest, withPushedPages } from './pushed-page-tree';
import { RefusedChanges } from './refused-changes';
import { scanForPush } from './scan-for-push';

/** Problems of one push, in the engine's report terms. */
export interface PushProblem {
  kind: 'not-pushed' | 'push-blocked' | 'folder-missing' | 'push-failed';
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
  /** The outbox did not drain (a pause, the server unreachable, or `signal` aborted). */
  stopped: 'drained' | 'paused' | 'offline' | 'blocked' | 'stopped' | 'moved' | 'closed';
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
  private readonly refused: RefusedChanges;

  constructor(private readonly deps: SpacePusherDeps) {
    this.refused = new RefusedChanges(deps);
  }

  /**
   * `drain: false` only queues (a resolved conflict queues its file without any request).
   * `held`: files in an open conflict (path → the local hash recorded with it), left out.
   * `signal`: stops sending between requests (what is found is still queued, durably).
   * `placeAgainstServer`: read the working change request's tree to place changes (default: when
   * draining). A queue-only pass whose changes will be sent right after (the watcher's) sets it:
   * positions computed against the rebuilt tree alone are refused where it is wrong.
   */
  async push(
    space: CachedSpace,
    spaceRoot: string,
    options: {
      drain?: boolean;
      placeAgainstServer?: boolean;
      held?: ReadonlyMap<string, string | null>;
      signal?: AbortSignal;
    } = {},
  ): Promise<PushSpaceResult> {
    const { db, edits, outbox, state } = this.deps;
    const result: PushSpaceResult = {
      queued: 0,
      pushed: 0,
      written: [],
      stopped: 'drained',
      problems: [],
    };
    const { view, editRows, classView, scan } = await scanForPush(
      this.deps,
      space.id,
      spaceRoot,
      options.held,
    );
    const allowMassDelete = state.get(ALLOW_MASS_DELETE_KEY(space.id)) === '1';
    let pages = withPushedPages(
      this.deps.content.loadRevision(space.id)?.pages ?? [],
      classView,
      editRows,
    );
    // Changes are placed (`into`, `at`, which pages a deletion takes along) in the working change
    // request, whose tree the rebuild above only approximates: pages moved by the server's side of
    // earlier pushes (children lifted out of a deleted page) and pages merged on main after it was
    // made are not where the rebuild puts them. Its real tree is read when something is to be
    // classified and nothing queued is still unsent (the tree would not show that yet). New pages
    // the server refused (or that wait for one it refused) are not in it but are still pages
    // here: editing or deleting their files updates or cancels their queued inserts. Positions
    // counted with them are fitted to the real tree when sent (BatchPositions).
    const somethingChanged =
      scan.status === 'scanned' &&
      scan.changed.length + scan.added.length + scan.deleted.length > 0;
    if (
      somethingChanged &&
      (options.placeAgainstServer ?? options.drain !== false) &&
      !options.signal?.aborted &&
      outbox.unsent(space.id) === 0 &&
      outbox.created(space.id).length === 0
    ) {
      const working = await this.deps.drainer.workingChangeRequestPages(space.id);
      if (working !== undefined) {
        pages = withPushedPages(alignedToChangeRequest(pages, working), classView, editRows, {
          newPagesOnly: true,
        });
      }
    }
    const classified = classifyLocalChanges({
      scan,
      index: classView,
      pages,
      allowMassDelete,
      markdownForPush: serverReferences(view),
      ...readmeOption(state.get(readmeNameKey(space.id))),
    });
    for (const problem of classified.problems) {
      if (classified.guard !== null && problem.path === '') continue;
      result.problems.push({
        kind: 'not-pushed',
        path: problem.path === '' ? null : problem.path,
        pageId: problem.pageId ?? null,
        message: problemText(problem.path || 'the space folder', problem.message),
      });
    }
    if (classified.guard !== null) {
      // Nothing of this space is queued or sent until the user confirms the deletions, or the
      // folder is back.
      result.stopped = 'blocked';
      result.problems.push({
        kind: classified.guard === 'mass-delete' ? 'push-blocked' : 'folder-missing',
        path: null,
        pageId: null,
        message:
          classified.guard === 'mass-delete'
            ? // The classifier's message already says that nothing was pushed.
              `${classified.message ?? 'Too many pages would be deleted; nothing was pushed until you confirm'}: confirm the deletions to push them`
            : (classified.message ?? 'The space folder is missing; nothing was pushed'),
      });
      return result;
    }

    if (scan.status === 'scanned' && classified.changes.length > 0) {
      const scanned = new Map<string, ScannedFile>(
        [...scan.changed, ...scan.added].map((file) => [file.path, file]),
      );
      // Refs restart at 1 on every classification and two pushes can share a millisecond (a
      // queue-only push then a draining one, or a frozen clock): the random part keeps one
      // push's new-page keys from naming another push's queued insert, which the outbox would
      // take for the same page inserted again (its content and placement replaced, one page id
      // given to two files, and the read-back writing one file's Markdown into the other).
      const stamp = `${this.deps.now().getTime()}-${randomUUID()}`;
      db.transaction(() => {
        for (const planned of classified.changes) {
          for (const change of outboxChanges(space.id, planned, stamp)) outbox.enqueue(change);
        }
        for (const edit of classifiedEditRows(classified, scanned, classView, stamp)) {
          edits.put(space.id, edit);
        }
        if (allowMassDelete) state.set(ALLOW_MASS_DELETE_KEY(space.id), '');
      })();
      result.queued = classified.changes.length;
    }

    if (
      options.drain === false ||
      (outbox.count(space.id) === 0 && outbox.created(space.id).length === 0)
    ) {
      this.reportRefused(space.id, result);
      return result;
    }
    try {
      const drained = await this.deps.drainer.drain(
        space.id,
        options.signal ? { signal: options.signal } : {},
      );
      result.stopped = drained.stopped;
      result.pushed = drained.sent.length;
      await this.recordDrain(space.id, spaceRoot, drained.readBack, result);
      this.reportRefused(space.id, result);
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
   * Every push reports the space's refused changes, on their files (and the files they hold
   * back), whether or not it drained: each push replaces the space's push problems.
   */
  private reportRefused(spaceId: string, result: PushSpaceResult): void {
    for (const problem of this.refused.problems(spaceId)) {
      result.problems.push({ kind: 'push-failed', ...problem });
    }
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
    const created = outbox.created(spaceId);
    const pages = created.filter((item) => item.kind === 'page');
    // Uploads are keyed by their path: the edit row of that path now knows the server's file.
    const files = created.filter((item) => item.kind === 'file');
    if (created.length > 0) {
      db.transaction(() => {
        for (const item of pages) edits.setCreated(spaceId, item.localKey, item.remoteId);
        for (const item of files) edits.setUploaded(spaceId, item.localKey, item.remoteId);
        outbox.forgetCreated(
          spaceId,
          pages.map((item) => item.localKey),
        );
        outbox.forgetCreated(
          spaceId,
          files.map((item) => item.localKey),
          'file',
        );
      })();
    }
    const toLocal = localReferences(edits.overlay(spaceId, this.deps.index.entries(spaceId)));
    const byPage = new Map<string, LocalEdit>();
    /** Pages two files claim: which file holds the page's text cannot be told, none is written. */
    const ambiguous = new Set<string>();
    for (const edit of edits.list(spaceId)) {
      if (edit.pageId === null || edit.contentHash === null) continue;
      if (byPage.has(edit.pageId)) ambiguous.add(edit.pageId);
      byPage.set(edit.pageId, edit);
    }
    for (const back of readBack) {
      // Frontmatter is rendered from page fields by the pull; only plain Markdown is rewritten.
      if (back.sentMarkdown.startsWith('---') || back.storedMarkdown.startsWith('---')) continue;
      const edit = byPage.get(back.pageId);
      if (edit === undefined || ambiguous.has(back.pageId)) continue;
      const absolute = resolveInside(spaceRoot, edit.path);
      const sent = await readText(absolute);
      // Edited again since it was queued: that edit wins, the next push sends it.
      if (sent === null || contentHash(sent) !== edit.contentHash) continue;
      // In the folder's form: server references back to relative paths, as the pull writes them,
      // page links in the form the file was sent with.
      const text = toLocal(back.storedMarkdown, edit.path, sent);
      const hash = contentHash(text);
      if (hash === edit.contentHash) continue;
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

async function readText(absolute: string): Promise<string | null> {
  try {
    return await readFile(absolute, 'utf8');
  } catch {
    return null;
  }
}

/** The classifier's first page file, when `.gitbook.yaml` renamed it. */
function readmeOption(readmePath: string | undefined): { readmePath?: string } {
  return readmePath ? { readmePath } : {};
}
