import { describe, expect, it } from 'vitest';
import { contentHash } from '../../cache/content-hash';
import type { CachedFile } from '../../cache/content-cache';
import type { FileIndexEntry } from '../../cache/file-index';
import type { LocalEdit } from '../../cache/local-edits';
import type { RemoteFile } from '../../sync-ports';
import type { LocalState } from '../local-file-state';
import type { LayoutEntry } from '../space-layout';
import { planPull, type PullInputs } from './pull-plan';

// The planner is pure: plain data in, a plan out. No server, no disk, no cache.

const stamp = { size: 10, mtimeMs: 1000 };

function page(path: string, pageId: string, text: string): LayoutEntry {
  return { path, kind: 'page', pageId, text };
}

function asset(path: string, file: RemoteFile): LayoutEntry {
  return { path, kind: 'asset', fileId: file.id, file };
}

function indexed(entry: LayoutEntry, text: string, path = entry.path): FileIndexEntry {
  return {
    path,
    kind: entry.kind,
    pageId: entry.pageId ?? null,
    fileId: entry.fileId ?? null,
    contentHash: contentHash(text),
    ...stamp,
  };
}

function remoteFile(id: string, name = `${id}.png`): RemoteFile {
  return {
    id,
    name,
    contentType: 'image/png',
    size: 3,
    downloadURL: `https://files.test/${id}/${name}?sig=1`,
  };
}

const missing: LocalState = { kind: 'missing' };
const ours = (text: string): LocalState => ({
  kind: 'ours',
  hash: contentHash(text),
  stats: stamp,
});
const foreign = (text: string): LocalState => ({
  kind: 'foreign',
  hash: contentHash(text),
  stats: { size: 99, mtimeMs: 2000 },
});
/** A folder (or link) where a file belongs. */
const folder: LocalState = { kind: 'foreign', hash: '', stats: stamp };

function edit(path: string, pageId: string | null, text: string | null): LocalEdit {
  return {
    path,
    kind: 'page',
    pageId,
    localKey: pageId === null ? 'new@1' : null,
    contentHash: text === null ? null : contentHash(text),
    size: null,
    mtimeMs: null,
  };
}

/** Inputs where every path not named in `local` is missing. */
function inputs(
  given: Partial<Omit<PullInputs, 'local'>> & { local?: Record<string, LocalState> },
): PullInputs {
  const layout = given.layout ?? [];
  const indexEntries = given.indexEntries ?? [];
  const pending = given.pending ?? new Map<string, ReadonlySet<string>>();
  const localEdits = given.localEdits ?? [];
  const local = new Map<string, LocalState>();
  for (const path of [
    ...layout.map((entry) => entry.path),
    ...indexEntries.map((entry) => entry.path),
    ...pending.keys(),
    ...localEdits.map((row) => row.path),
  ]) {
    local.set(path, given.local?.[path] ?? missing);
  }
  return {
    layout,
    remoteFiles: given.remoteFiles ?? [],
    cachedFiles: given.cachedFiles ?? [],
    indexEntries,
    pending,
    localEdits,
    local,
    strays: given.strays ?? new Map(),
  };
}

describe('planPull', () => {
  it('writes a new page, and one changed remotely over the engine’s own older file', () => {
    const fresh = page('new.md', 'p1', '# New\n');
    const changed = page('guide.md', 'p2', '# Guide v2\n');
    const plan = planPull(
      inputs({
        layout: [fresh, changed],
        indexEntries: [indexed(changed, '# Guide\n')],
        local: { 'guide.md': ours('# Guide\n') },
      }),
    );
    expect(plan.writes.map((write) => [write.entry.path, write.data])).toEqual([
      ['new.md', '# New\n'],
      ['guide.md', '# Guide v2\n'],
    ]);
    expect(plan.removals).toEqual([]);
    expect(plan.decisions).toEqual([]);
    expect(plan.syncedTexts.get(contentHash('# New\n'))).toBe('# New\n');
  });

  it('keeps an unchanged file of its own as indexed, writing nothing', () => {
    const same = page('same.md', 'p1', '# Same\n');
    const plan = planPull(
      inputs({
        layout: [same],
        indexEntries: [indexed(same, '# Same\n')],
        local: { 'same.md': ours('# Same\n') },
      }),
    );
    expect(plan.writes).toEqual([]);
    expect(plan.index.get('same.md')).toEqual(indexed(same, '# Same\n'));
  });

  it('moves a page by writing the new path and removing the old file, when it is the engine’s', () => {
    const moved = page('b/guide.md', 'p1', '# Guide\n');
    const plan = planPull(
      inputs({
        layout: [moved],
        indexEntries: [indexed(moved, '# Guide\n', 'a/guide.md')],
        local: { 'a/guide.md': ours('# Guide\n') },
      }),
    );
    expect(plan.writes.map((write) => write.entry.path)).toEqual(['b/guide.md']);
    expect(plan.removals).toEqual(['a/guide.md']);
    expect(plan.renames).toEqual([]);
  });

  it('renames a locally edited file with its page when only the path changed remotely', () => {
    const moved = page('b/guide.md', 'p1', '# Guide\n');
    const plan = planPull(
      inputs({
        layout: [moved],
        indexEntries: [indexed(moved, '# Guide\n', 'a/guide.md')],
        local: { 'a/guide.md': foreign('# Guide, edited\n') },
      }),
    );
    expect(plan.renames).toEqual([
      { from: 'a/guide.md', to: 'b/guide.md', entry: indexed(moved, '# Guide\n') },
    ]);
    expect(plan.writes).toEqual([]);
    expect(plan.removals).toEqual([]);
    expect(plan.index.get('b/guide.md')?.contentHash).toBe(contentHash('# Guide\n'));
  });

  it('merges a locally edited file into the new path when its page moved and changed remotely', () => {
    const moved = page('b/guide.md', 'p1', '# Guide v2\n');
    const old = indexed(moved, '# Guide\n', 'a/guide.md');
    const plan = planPull(
      inputs({
        layout: [moved],
        indexEntries: [old],
        local: { 'a/guide.md': foreign('# Guide, edited\n') },
      }),
    );
    expect(plan.decisions).toEqual([
      {
        kind: 'merge',
        entry: moved,
        base: old,
        localPath: 'a/guide.md',
        localHash: contentHash('# Guide, edited\n'),
        writePath: 'b/guide.md',
      },
    ]);
    // The old path stays indexed (kept) and is not removed.
    expect(plan.index.has('a/guide.md')).toBe(true);
    expect(plan.removals).toEqual([]);
  });

  it('removes the file of a page deleted remotely, and keeps an edited one', () => {
    const gone = page('gone.md', 'p1', '# Gone\n');
    const edited = page('edited.md', 'p2', '# Edited\n');
    const asset1: FileIndexEntry = {
      path: 'assets/a.png',
      kind: 'asset',
      pageId: null,
      fileId: 'f1',
      contentHash: contentHash('png'),
      ...stamp,
    };
    const plan = planPull(
      inputs({
        layout: [],
        indexEntries: [indexed(gone, '# Gone\n'), indexed(edited, '# Edited\n'), asset1],
        local: {
          'gone.md': ours('# Gone\n'),
          'edited.md': foreign('# Edited, more\n'),
          'assets/a.png': foreign('png, edited'),
        },
      }),
    );
    expect(plan.removals).toEqual(['gone.md']);
    expect(plan.decisions).toEqual([
      {
        kind: 'deleted-remotely',
        entry: indexed(edited, '# Edited\n'),
        localHash: contentHash('# Edited, more\n'),
      },
      {
        kind: 'problem',
        problem: {
          kind: 'kept-deleted',
          path: 'assets/a.png',
          pageId: null,
          message:
            'The file of assets/a.png was deleted remotely, but the file was edited locally: it was kept',
        },
      },
    ]);
  });

  it('keeps a local edit of a page unchanged remotely, indexed at its base', () => {
    const entry = page('guide.md', 'p1', '# Guide\n');
    const base = indexed(entry, '# Guide\n');
    const plan = planPull(
      inputs({
        layout: [entry],
        indexEntries: [base],
        local: { 'guide.md': foreign('# Guide, edited\n') },
      }),
    );
    expect(plan.writes).toEqual([]);
    expect(plan.decisions).toEqual([]);
    expect(plan.index.get('guide.md')).toEqual(base);
  });

  it('plans a merge when both sides changed a page, and a conflict when both changed an asset', () => {
    const entry = page('guide.md', 'p1', '# Guide v2\n');
    const base = indexed(entry, '# Guide\n');
    const file = remoteFile('f1');
    const picture = asset('assets/f1.png', file);
    const assetBase: FileIndexEntry = {
      path: 'assets/f1.png',
      kind: 'asset',
      pageId: null,
      fileId: 'f1',
      contentHash: contentHash('old png'),
      ...stamp,
    };
    const cached: CachedFile = { ...file, contentHash: contentHash('new png') };
    const plan = planPull(
      inputs({
        layout: [entry, picture],
        indexEntries: [base, assetBase],
        remoteFiles: [file],
        cachedFiles: [cached],
        local: { 'guide.md': foreign('# Guide, edited\n'), 'assets/f1.png': foreign('mine') },
      }),
    );
    expect(plan.writes).toEqual([]);
    expect(plan.decisions).toEqual([
      {
        kind: 'merge',
        entry,
        base,
        localPath: 'guide.md',
        localHash: contentHash('# Guide, edited\n'),
      },
      { kind: 'asset-conflict', entry: picture, localHash: contentHash('mine') },
    ]);
    // Both stay indexed at their base: the merge (or the resolution) moves them on.
    expect(plan.index.get('guide.md')).toEqual(base);
    expect(plan.index.get('assets/f1.png')).toEqual(assetBase);
  });

  it('writes a page deleted locally but edited remotely again, and says so', () => {
    const entry = page('guide.md', 'p1', '# Guide v2\n');
    const plan = planPull(inputs({ layout: [entry], indexEntries: [indexed(entry, '# Guide\n')] }));
    expect(plan.decisions).toEqual([{ kind: 'deleted-locally', entry }]);
    expect(plan.writes.map((write) => write.entry.path)).toEqual(['guide.md']);
  });

  it('takes a local deletion of a page unchanged remotely for a deletion to push', () => {
    const entry = page('guide.md', 'p1', '# Guide\n');
    const plan = planPull(inputs({ layout: [entry], indexEntries: [indexed(entry, '# Guide\n')] }));
    expect(plan.writes).toEqual([]);
    expect(plan.decisions).toEqual([]);
    expect(plan.index.get('guide.md')).toEqual(indexed(entry, '# Guide\n'));
  });

  it('reports a path taken by a folder, or by another page’s local edit, and never writes there', () => {
    const byFolder = page('guide.md', 'p1', '# Guide\n');
    const byOther = page('intro.md', 'p2', '# Intro\n');
    const plan = planPull(
      inputs({
        layout: [byFolder, byOther],
        localEdits: [edit('intro.md', null, '# My own new page\n')],
        local: { 'guide.md': folder, 'intro.md': foreign('# My own new page\n') },
      }),
    );
    expect(plan.writes).toEqual([]);
    expect(
      plan.decisions.map((decision) => decision.kind === 'problem' && decision.problem),
    ).toEqual([
      {
        kind: 'path-taken',
        path: 'guide.md',
        pageId: 'p1',
        message: 'guide.md exists but was not written by Quire; the remote version was not written',
      },
      {
        kind: 'path-taken',
        path: 'intro.md',
        pageId: 'p2',
        message: 'intro.md exists but was not written by Quire; the remote version was not written',
      },
    ]);
  });

  it('records a conflict for a file never synced that differs from the remote one', () => {
    const entry = page('guide.md', 'p1', '# Guide\n');
    const plan = planPull(
      inputs({ layout: [entry], local: { 'guide.md': foreign('# Something else\n') } }),
    );
    expect(plan.decisions).toEqual([
      expect.objectContaining({
        kind: 'unmerged',
        localPath: 'guide.md',
        localHash: contentHash('# Something else\n'),
      }),
    ]);
  });

  it('adopts a file already there with the remote bytes', () => {
    const entry = page('guide.md', 'p1', '# Guide\n');
    const plan = planPull(inputs({ layout: [entry], local: { 'guide.md': foreign('# Guide\n') } }));
    expect(plan.writes).toEqual([]);
    expect(plan.decisions).toEqual([]);
    expect(plan.index.get('guide.md')).toEqual({
      ...indexed(entry, '# Guide\n'),
      size: 99,
      mtimeMs: 2000,
    });
  });

  it('downloads an unknown asset already in the folder, to adopt it or make it a conflict', () => {
    const file = remoteFile('f1');
    const picture = asset('assets/f1.png', file);
    const plan = planPull(
      inputs({
        layout: [picture],
        remoteFiles: [file],
        local: { 'assets/f1.png': foreign('some png') },
      }),
    );
    expect(plan.writes).toEqual([{ entry: picture, hash: undefined, data: undefined }]);
    expect(plan.decisions).toEqual([]);
  });

  it('knows an asset’s bytes without a download when this device uploaded them', () => {
    const file = remoteFile('f1');
    const picture = asset('assets/f1.png', file);
    const plan = planPull(
      inputs({
        layout: [picture],
        remoteFiles: [file],
        localEdits: [
          {
            path: 'assets/f1.png',
            kind: 'asset',
            pageId: null,
            localKey: null,
            contentHash: contentHash('uploaded'),
            size: 8,
            mtimeMs: 1,
            fileId: 'f1',
          },
        ],
        local: { 'assets/f1.png': foreign('uploaded') },
      }),
    );
    expect(plan.writes).toEqual([]);
    expect(plan.fileHashes.get('f1')).toBe(contentHash('uploaded'));
  });

  it('indexes a page file moved before this home knew the folder where the page is', () => {
    const entry = page('guide.md', 'p1', '# Guide\n');
    const strays = new Map([[contentHash('# Guide\n'), ['elsewhere/guide.md']]]);
    const inputsWithStray = inputs({ layout: [entry], strays });
    const plan = planPull(inputsWithStray);
    expect(plan.writes).toEqual([]);
    expect(plan.index.get('guide.md')).toMatchObject({
      contentHash: contentHash('# Guide\n'),
      size: -1,
    });
    // Pure: the inputs are left as they were.
    expect(inputsWithStray.strays.get(contentHash('# Guide\n'))).toEqual(['elsewhere/guide.md']);
  });

  it('removes a file a killed sync wrote for a page gone since', () => {
    const hash = contentHash('# Orphan\n');
    const plan = planPull(
      inputs({
        pending: new Map([['orphan.md', new Set([hash])]]),
        local: { 'orphan.md': { kind: 'ours', hash, stats: stamp } },
      }),
    );
    expect(plan.removals).toEqual(['orphan.md']);
  });

  it('refuses to plan over a path whose local state was not gathered', () => {
    const entry = page('guide.md', 'p1', '# Guide\n');
    expect(() => planPull({ ...inputs({}), layout: [entry] })).toThrow(/guide\.md/);
  });
});
