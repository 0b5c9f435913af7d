import type { FileIndexEntry } from '../cache/file-index';
import type { LocalEdit } from '../cache/local-edits';
import type { ClassifyResult } from '../local/classify-local-changes';
import type { ScannedFile } from '../local/scan-space-folder';
import { SUMMARY_PATH } from '../../shared/gitsync/render-gitsync-layout';
import { localKeyOf } from './outbox-changes';
import { storedIdentity } from './queued-page-ids';

/** The `local_edits` rows a classification implies (see push-space.ts's module comment). */
export function classifiedEditRows(
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
    // A page whose file moved without a recorded move (one left in place until its new folder
    // belongs to a page) still had a change pushed from its new file: its old path is gone too,
    // or the next push would take the page's file for deleted and delete the page.
    const before = pageId === null ? undefined : byPage.get(pageId);
    if (before !== undefined && before.path !== path) deletion(before.path, pageId);
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
  if (classified.summary === 'applied') {
    const summary = [...scanned.values()].find((file) => file.kind === 'layout');
    content(summary?.path ?? SUMMARY_PATH, null, null);
  }
  return [...result.values()];
}
