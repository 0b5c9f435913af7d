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
import { posix } from 'node:path';
import { contentHash } from '../cache/content-hash';
import type { FileIndex, FileIndexEntry } from '../cache/file-index';
import type { CacheDb } from '../cache/open-cache-database';
import type { CachedSpace } from '../cache/space-cache';
import type { SyncStateStore } from '../cache/sync-state-store';
import type { ContentCache } from '../cache/content-cache';
import {
  classifyLocalChanges,
  type CachedPage,
  type ClassifyResult,
  type PlannedChange,
} from '../local/classify-local-changes';
import type { IgnoreRule } from '../local/ignore-rules';
import type { LocalContentChange, PageFieldsUpdate } from '../local/local-content-change';
import { scanSpaceFolder, type ScanResult, type ScannedFile } from '../local/scan-space-folder';
import { atomicWriteFile } from '../mirror/atomic-write';
import { SUMMARY_PATH } from '../mirror/render-gitsync-layout';
import { resolveInside } from '../mirror/resolve-inside';
import { rewriteLinkTargets } from '../mirror/rewrite-link-targets';
import type { Outbox } from '../outbox/outbox';
import type { OutboxChange, OutboxPageFields, OutboxPageRef } from '../outbox/outbox-change';
import type { OutboxDrainer } from '../outbox/outbox-drainer';
import type { LocalEdit, LocalEdits } from '../cache/local-edits';
import { problemText } from './problem-text';
import { RefusedChanges } from './refused-changes';
import type { RemotePage } from '../sync-ports';

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
  /** The outbox did not drain (a pause, the server unreachable, or `signal` aborted). */
  stopped: 'drained' | 'paused' | 'offline' | 'blocked' | 'stopped' | 'moved';
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
      // Nothing of this space is queued or sent until the user confirms (`quire confirm-deletes`).
      result.stopped = 'blocked';
      result.problems.push({
        kind: 'push-blocked',
        path: null,
        pageId: null,
        message:
          classified.guard === 'mass-delete'
            ? // The classifier's message already says that nothing was pushed.
              `${classified.message ?? 'Too many pages would be deleted; nothing was pushed until you confirm'}: run \`quire confirm-deletes ${space.id}\` to push the deletions`
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
        for (const edit of editsOf(classified, scanned, classView, stamp)) {
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

/**
 * What a push pass compares the folder with, and the scan itself (size and mtime first, a hash
 * only when they moved). `quire status` runs it alone, read-only, to find edits made since the
 * last sync.
 */
export async function scanForPush(
  deps: Pick<SpacePusherDeps, 'index' | 'edits' | 'ignore'>,
  spaceId: string,
  spaceRoot: string,
  held: ReadonlyMap<string, string | null> | undefined,
): Promise<{
  view: FileIndexEntry[];
  editRows: LocalEdit[];
  classView: FileIndexEntry[];
  scan: ScanResult;
}> {
  const view = deps.edits.overlay(spaceId, deps.index.entries(spaceId));
  // New pages queued but not acknowledged yet are pages to the classifier too (see
  // queuedPageId), so editing, moving or deleting them, or deleting their parent, before the
  // insert is sent updates or re-places the queued insert instead of being refused or lost.
  const editRows = withQueuedPageIds(deps.edits.list(spaceId));
  const classView = viewWithQueuedPages(view, editRows);
  const scan = withoutHeld(
    await scanSpaceFolder({
      spaceRoot,
      index: classView,
      ignore: deps.ignore,
      maxFileBytes: MAX_PUSHED_MARKDOWN_BYTES,
      pending: deps.index.pendingWrites(spaceId),
    }),
    held,
  );
  return { view, editRows, classView, scan };
}

/**
 * The scan without the files of open conflicts: a conflicted file's local version has not been
 * merged with the remote one, so pushing it (edited, deleted, or moved: a new file with its
 * bytes) would replace the remote edit in the working change request. It waits for
 * `quire resolve` or a later pull that merges it.
 */
function withoutHeld(
  scan: ScanResult,
  held: ReadonlyMap<string, string | null> | undefined,
): ScanResult {
  if (held === undefined || held.size === 0 || scan.status !== 'scanned') return scan;
  const heldHashes = new Set([...held.values()].filter((hash) => hash !== null));
  return {
    ...scan,
    changed: scan.changed.filter((file) => !held.has(file.path)),
    deleted: scan.deleted.filter((file) => !held.has(file.path)),
    added: scan.added.filter((file) => !held.has(file.path) && !heldHashes.has(file.hash)),
  };
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

/**
 * The synced revision's tree plus the pages pushes created since (their `local_edits` rows know
 * their ids; the tree learns of them only when a pull brings a revision with them). Each goes
 * where its file puts it (under the page owning its folder, last), so that editing, moving or
 * deleting it before the next pull updates or deletes that page instead of being refused (or
 * inserting it again). `newPagesOnly`: over a tree that already holds what was sent (the working
 * change request's), only the queued new pages it lacks are added.
 */
export function withPushedPages(
  pages: readonly CachedPage[],
  view: readonly FileIndexEntry[],
  edits: readonly LocalEdit[],
  options: { newPagesOnly?: boolean } = {},
): readonly CachedPage[] {
  const known = new Set<string>();
  const visit = (list: readonly CachedPage[]) => {
    for (const page of list) {
      known.add(page.id);
      visit(page.pages);
    }
  };
  visit(pages);
  const pushed = edits
    .filter(
      (edit) =>
        edit.kind === 'page' &&
        edit.pageId !== null &&
        edit.contentHash !== null &&
        !known.has(edit.pageId) &&
        (!options.newPagesOnly || edit.pageId.startsWith(QUEUED_PAGE)),
    )
    // Parents first: a new page inside a folder made for another new page goes under it.
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  // Pages a push moved (a row at the new path, a deletion row at the old one, same page) sit in
  // the working change request under the page owning their new folder: deleting their old
  // parent must not take them along, and positions are counted among their new siblings.
  const movedFrom = new Set(
    edits.filter((edit) => edit.contentHash === null && edit.pageId !== null).map((e) => e.pageId),
  );
  const moved = (options.newPagesOnly ? [] : edits)
    .filter(
      (edit) =>
        edit.kind === 'page' &&
        edit.pageId !== null &&
        edit.contentHash !== null &&
        known.has(edit.pageId) &&
        movedFrom.has(edit.pageId),
    )
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  // Pages a push deleted (a deletion row and no other row of the page) are gone from it; pages
  // still below them there had been moved out first, so they are lifted to the deleted one's place.
  const rowOf = new Set(
    edits.filter((edit) => edit.contentHash !== null && edit.pageId !== null).map((e) => e.pageId),
  );
  const deleted = options.newPagesOnly
    ? []
    : [...movedFrom].filter((id): id is string => id !== null && known.has(id) && !rowOf.has(id));
  if (pushed.length === 0 && moved.length === 0 && deleted.length === 0) return pages;

  type Mutable = Omit<CachedPage, 'pages'> & { pages: Mutable[] };
  const byId = new Map<string, Mutable>();
  const siblingsOf = new Map<string, Mutable[]>();
  const copy = (list: readonly CachedPage[]): Mutable[] => {
    const copied = list.map((page) => {
      const node: Mutable = { ...page, pages: copy(page.pages) };
      byId.set(page.id, node);
      return node;
    });
    for (const node of copied) siblingsOf.set(node.id, copied);
    return copied;
  };
  const roots = copy(pages);
  const pageAt = new Map<string, string>();
  for (const entry of view) {
    if (entry.kind === 'page' && entry.pageId !== null) pageAt.set(entry.path, entry.pageId);
  }
  const groupFolders = groupFoldersOf(pages, view);
  const ownerOf = (folder: string): Mutable | undefined => {
    for (let dir = folder; dir !== '.' && dir !== ''; dir = posix.dirname(dir)) {
      const id =
        pageAt.get(`${dir}/${README_FILE}`) ?? pageAt.get(`${dir}.md`) ?? groupFolders.get(dir);
      const node = id === undefined ? undefined : byId.get(id);
      if (node !== undefined) return node;
    }
    return undefined;
  };
  for (const id of deleted) {
    const node = byId.get(id)!;
    const siblings = siblingsOf.get(id)!;
    siblings.splice(siblings.indexOf(node), 1, ...node.pages);
    for (const child of node.pages) siblingsOf.set(child.id, siblings);
    byId.delete(id);
  }
  for (const edit of pushed) {
    const base = posix.basename(edit.path);
    if (edit.path === README_FILE) continue;
    const folder = posix.dirname(edit.path);
    const name = base === README_FILE ? posix.basename(folder) : base.replace(/\.md$/i, '');
    const node: Mutable = { id: edit.pageId!, type: 'document', title: name, pages: [] };
    byId.set(node.id, node);
    const parent = ownerOf(base === README_FILE ? posix.dirname(folder) : folder);
    (parent?.pages ?? roots).push(node);
  }
  // After the new pages: a page may have been moved into one.
  const parentFolderOf = (path: string) => {
    const folder = posix.dirname(path);
    return posix.basename(path) === README_FILE ? posix.dirname(folder) : folder;
  };
  for (const edit of moved) {
    const node = byId.get(edit.pageId!)!;
    const parent = edit.path === README_FILE ? undefined : ownerOf(parentFolderOf(edit.path));
    const target = parent?.pages ?? roots;
    const current = siblingsOf.get(node.id)!;
    const inside = (page: Mutable, id: string): boolean =>
      page.pages.some((child) => child.id === id || inside(child, id));
    if (current === target || parent === node || (parent && inside(node, parent.id))) continue;
    current.splice(current.indexOf(node), 1);
    target.push(node);
    siblingsOf.set(node.id, target);
  }
  return roots;
}

const README_FILE = 'README.md';

/**
 * Folder → the group whose children the pull put there. A group has no file of its own, so
 * without this a page pushed into a group's folder would be counted at the top level, and every
 * position computed among the top-level pages after it would be one too many.
 */
function groupFoldersOf(
  pages: readonly CachedPage[],
  view: readonly FileIndexEntry[],
): Map<string, string> {
  const pathOf = new Map<string, string>();
  for (const entry of view) {
    if (entry.kind === 'page' && entry.pageId !== null) pathOf.set(entry.pageId, entry.path);
  }
  const folders = new Map<string, string>();
  const visit = (list: readonly CachedPage[]) => {
    for (const page of list) {
      if (page.type === 'group') {
        for (const child of page.pages) {
          const path = pathOf.get(child.id);
          if (path === undefined) continue;
          const folder =
            posix.basename(path) === README_FILE
              ? posix.dirname(posix.dirname(path))
              : posix.dirname(path);
          if (folder !== '.' && !folders.has(folder)) folders.set(folder, page.id);
        }
      }
      visit(page.pages);
    }
  };
  visit(pages);
  return folders;
}

/**
 * The change request's tree with the cached pages' details (synced Markdown, fields) where it
 * has the same page. Pages it lacks (merged on main after it was made, or gone from it) are left
 * out: a change naming them would be refused there.
 */
export function alignedToChangeRequest(
  pages: readonly CachedPage[],
  changeRequest: readonly RemotePage[],
): CachedPage[] {
  const cached = new Map<string, CachedPage>();
  const visit = (list: readonly CachedPage[]) => {
    for (const page of list) {
      cached.set(page.id, page);
      visit(page.pages);
    }
  };
  visit(pages);
  const align = (list: readonly RemotePage[]): CachedPage[] =>
    list.map((remote) => {
      const known = cached.get(remote.id);
      if (known !== undefined) return { ...known, pages: align(remote.pages) };
      const { id, type, title, slug, emoji, icon, description, hidden, noIndex, noRobotsIndex } =
        remote;
      const fields = { slug, emoji, icon, description, hidden, noIndex, noRobotsIndex };
      const defined = Object.fromEntries(
        Object.entries(fields).filter(([, value]) => value !== undefined),
      );
      return { ...defined, id, type, title, pages: align(remote.pages) };
    });
  return align(changeRequest);
}

/**
 * The id the classifier knows a queued, not yet acknowledged, new page by: its insert's local key
 * behind a prefix no server id has. Changes naming it go to the outbox by local key (which
 * coalesces them into the waiting insert, or applies them once the insert is acknowledged), and
 * it is never stored as a page id.
 */
const QUEUED_PAGE = '\u0000queued:';
const queuedPageId = (localKey: string) => `${QUEUED_PAGE}${localKey}`;

/** A page id from the classifier → how the outbox names the page. */
function pageRef(id: string): OutboxPageRef {
  return id.startsWith(QUEUED_PAGE) ? { localKey: id.slice(QUEUED_PAGE.length) } : { pageId: id };
}

/** A page id from the classifier → what an edit row records: the id, or the insert's key. */
function storedIdentity(id: string | null): { pageId: string | null; localKey: string | null } {
  if (id?.startsWith(QUEUED_PAGE)) return { pageId: null, localKey: id.slice(QUEUED_PAGE.length) };
  return { pageId: id, localKey: null };
}

/** Edit rows of new pages whose insert is not acknowledged get their queued page id. */
export function withQueuedPageIds(edits: readonly LocalEdit[]): LocalEdit[] {
  return edits.map((edit) =>
    edit.kind === 'page' &&
    edit.pageId === null &&
    edit.localKey !== null &&
    edit.contentHash !== null
      ? { ...edit, pageId: queuedPageId(edit.localKey) }
      : edit,
  );
}

/** The push side's index view with the queued new pages' files naming their queued page ids. */
function viewWithQueuedPages(
  view: readonly FileIndexEntry[],
  edits: readonly LocalEdit[],
): FileIndexEntry[] {
  const queued = new Map(
    edits
      .filter((edit) => edit.pageId?.startsWith(QUEUED_PAGE) === true)
      .map((edit) => [edit.path, edit.pageId]),
  );
  return view.map((entry) =>
    queued.has(entry.path) && entry.pageId === null
      ? { ...entry, pageId: queued.get(entry.path)! }
      : entry,
  );
}

/**
 * A new page's insert key: its ref (or path) plus the push's stamp, unique for the outbox's life
 * (see push(): the stamp carries a random part).
 */
function localKeyOf(planned: Pick<PlannedChange, 'ref' | 'path'>, stamp: string): string {
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
  stamp: string,
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
          // Into a page inserted by the same push: named by that insert's local key.
          into:
            planned.intoRef !== undefined
              ? { localKey: localKeyOf({ ref: planned.intoRef }, stamp) }
              : change.into !== undefined
                ? pageRef(change.into)
                : null,
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
          page: pageRef(change.page),
          ...(change.document ? { markdown: change.document.markdown } : {}),
          ...(fields ? { fields } : {}),
          ...(moves
            ? {
                move: {
                  ...(change.into !== undefined
                    ? { into: change.into === null ? null : pageRef(change.into) }
                    : {}),
                  ...(change.at !== undefined ? { at: change.at } : {}),
                },
              }
            : {}),
        },
      ];
    }
    case 'delete_page':
      return [{ kind: 'delete_page', spaceId, page: pageRef(change.page) }];
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
  stamp: string,
): LocalEdit[] {
  const byPage = new Map(
    view.filter((entry) => entry.pageId !== null).map((entry) => [entry.pageId!, entry]),
  );
  const result = new Map<string, LocalEdit>();
  const content = (path: string, pageId: string | null, localKey: string | null) => {
    const file = scanned.get(path);
    if (file === undefined) return;
    const stored = storedIdentity(pageId);
    result.set(path, {
      path,
      kind: file.kind,
      pageId: stored.pageId,
      localKey: localKey ?? stored.localKey,
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
      pageId: storedIdentity(pageId).pageId,
      localKey: null,
      contentHash: null,
      size: null,
      mtimeMs: null,
    });
  };
  // Pages deleted along with a deleted parent get no change of their own but are gone all the
  // same: without their deletion recorded, the tree rebuilt for the next push would lift them out
  // of their parent like pages moved out first, and delete them a second time.
  for (const pageId of classified.deleted ?? []) {
    const entry = byPage.get(pageId);
    if (entry !== undefined) deletion(entry.path, pageId);
  }
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
