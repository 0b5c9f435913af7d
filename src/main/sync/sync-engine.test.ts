import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../cache/open-cache-database';
import { RemoteUnavailableError } from '../remote/errors';
import { SyncEngine, type SyncEngineOptions, type SyncReport } from './sync-engine';
import type {
  RemoteFile,
  RemoteOrganization,
  RemotePage,
  RemoteRevision,
  RemoteSpace,
  RemoteUser,
  RemoteWorkspace,
} from '../sync-ports';

/** An in-memory workspace: organizations, spaces and their live revisions, with call counters. */
class FakeRemote implements RemoteWorkspace {
  organizations: RemoteOrganization[] = [{ id: 'o1', title: 'Acme' }];
  spaces: RemoteSpace[] = [];
  revisions = new Map<string, RemoteRevision>();
  bytes = new Map<string, Uint8Array>();
  calls: string[] = [];
  failListing = new Set<string>();
  /** Page ids whose Markdown getRevision leaves out when knownPages has their updatedAt. */
  honourKnownPages = false;
  private counter = 0;

  async whoAmI(): Promise<RemoteUser> {
    return { id: 'u1', displayName: 'User' };
  }

  async listOrganizations(): Promise<RemoteOrganization[]> {
    this.calls.push('orgs');
    return structuredClone(this.organizations);
  }

  async listSpaces(organizationId: string): Promise<RemoteSpace[]> {
    this.calls.push(`spaces ${organizationId}`);
    if (this.failListing.has(organizationId)) throw new Error('503 Service Unavailable');
    return structuredClone(this.spaces.filter((space) => space.organization === organizationId));
  }

  async getRevision(
    spaceId: string,
    revisionId: string,
    knownPages?: ReadonlyMap<string, string>,
  ): Promise<RemoteRevision> {
    this.calls.push(`revision ${spaceId}`);
    const revision = structuredClone(this.revisions.get(revisionId));
    if (!revision) throw new Error(`404 revision ${revisionId}`);
    if (this.honourKnownPages && knownPages) {
      const strip = (pages: RemotePage[]) => {
        for (const page of pages) {
          if (page.updatedAt !== undefined && knownPages.get(page.id) === page.updatedAt) {
            delete page.markdown;
          }
          strip(page.pages);
        }
      };
      strip(revision.pages);
    }
    return revision;
  }

  async downloadFile(file: RemoteFile): Promise<Uint8Array> {
    this.calls.push(`download ${file.id}`);
    const bytes = this.bytes.get(file.downloadURL);
    if (!bytes) throw new Error(`404 ${file.downloadURL}`);
    return bytes;
  }

  /** Publishes new content for a space (a new live revision). */
  publish(spaceId: string, pages: RemotePage[], files: RemoteFile[] = [], title?: string): string {
    const id = `rev-${++this.counter}`;
    this.revisions.set(id, { id, pages: structuredClone(pages), files: structuredClone(files) });
    const existing = this.spaces.find((space) => space.id === spaceId);
    if (existing) {
      existing.revision = id;
      if (title) existing.title = title;
    } else {
      this.spaces.push({ id: spaceId, organization: 'o1', title: title ?? spaceId, revision: id });
    }
    return id;
  }

  /** Registers a file's bytes under a download URL. */
  file(id: string, name: string, bytes: string, version = 1): RemoteFile {
    const downloadURL = `https://files.test/${id}/v${version}/${encodeURIComponent(name)}?sig=${Math.random()}`;
    this.bytes.set(downloadURL, new TextEncoder().encode(bytes));
    return { id, name, contentType: 'application/octet-stream', size: bytes.length, downloadURL };
  }

  count(prefix: string): number {
    return this.calls.filter((call) => call.startsWith(prefix)).length;
  }
}

function doc(id: string, title: string, markdown: string, pages: RemotePage[] = []): RemotePage {
  return {
    id,
    type: 'document',
    title,
    slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    markdown,
    updatedAt: `u-${markdown.length}-${id}`,
    pages,
  };
}

let home: string;
let folder: string;
let cache: CacheDb;
let remote: FakeRemote;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'quire-engine-home-'));
  folder = mkdtempSync(join(tmpdir(), 'quire-engine-folder-'));
  cache = openCacheDatabase(join(home, 'cache.db'));
  remote = new FakeRemote();
});
afterEach(() => {
  cache.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

function engine(options: Partial<SyncEngineOptions> = {}): SyncEngine {
  return new SyncEngine({ cache, remote, folder, clock: { now: () => new Date() }, ...options });
}

const read = (path: string) => readFileSync(join(folder, path), 'utf8');
const handbook = () => [
  doc('p1', 'Welcome', '# Welcome\n\nHello.\n'),
  doc('p2', 'Guides', '# Guides\n', [doc('p3', 'Setup', '# Setup\n\nInstall.\n')]),
  doc('p4', 'Usage', '# Usage\n\nUse it.\n'),
];

describe('SyncEngine construction', () => {
  it('refuses a relative folder and a cache inside the folder', () => {
    expect(() => engine({ folder: 'relative/folder' })).toThrow(/absolute/);
    const inside = openCacheDatabase(join(folder, 'cache.db'));
    try {
      expect(() => engine({ cache: inside })).toThrow(/must not be inside the sync folder/);
    } finally {
      inside.close();
    }
  });

  it('does nothing but report when the folder is missing (an unmounted disk, say)', async () => {
    remote.publish('s1', handbook());
    const missing = join(folder, 'gone');
    const report = await engine({ folder: missing }).syncOnce();
    expect(report.errors).toEqual([
      expect.objectContaining({
        kind: 'folder-missing',
        message: expect.stringMatching(/does not exist/),
      }),
    ]);
    expect(existsSync(missing)).toBe(false);
    expect(remote.calls).toEqual([]);
  });
});

describe('refreshSpaces', () => {
  it('enables every space on the first listing when there are fewer than 20', async () => {
    for (let i = 0; i < 19; i++) remote.publish(`s${i}`, []);
    const result = await engine().refreshSpaces();
    expect(result.spaces.filter((space) => space.enabled)).toHaveLength(19);
    expect(result.added).toHaveLength(19);
  });

  it('enables none with 20 or more (the user chooses), and later newcomers start disabled', async () => {
    for (let i = 0; i < 20; i++) remote.publish(`s${i}`, []);
    const sync = engine();
    expect((await sync.refreshSpaces()).spaces.filter((space) => space.enabled)).toEqual([]);
    sync.setSpaceEnabled('s3', true);
    remote.publish('late', []);
    const again = await sync.refreshSpaces();
    expect(again.added).toEqual(['late']);
    expect(again.spaces.filter((space) => space.enabled).map((space) => space.id)).toEqual(['s3']);
    expect(() => sync.setSpaceEnabled('nope', true)).toThrow(/Unknown space/);
  });

  it('gives same-titled spaces and organizations distinct folders, kept across retitles', async () => {
    remote.organizations.push({ id: 'o2', title: 'Acme' });
    remote.publish('a', [], [], 'Docs');
    remote.publish('b', [], [], 'Docs');
    remote.publish('c', [], [], 'docs');
    remote.spaces.push({ id: 'd', organization: 'o2', title: 'Docs', revision: 'rev-1' });
    const sync = engine();
    await sync.refreshSpaces();
    remote.publish('a', [], [], 'Renamed');
    await sync.refreshSpaces();
    expect(sync.status().map((space) => [space.id, space.title, space.folder])).toEqual([
      ['a', 'Renamed', 'Acme/Docs'],
      ['b', 'Docs', 'Acme/Docs-2'],
      ['c', 'docs', 'Acme/docs-3'],
      ['d', 'Docs', 'Acme-2/Docs'],
    ]);
  });

  it('turns hostile titles into safe folder names', async () => {
    remote.organizations = [{ id: 'o1', title: '../..' }];
    remote.publish('s1', [], [], '/etc/passwd');
    const result = await engine().refreshSpaces();
    expect(result.spaces[0]!.folderPath).toBe('untitled/etc-passwd');
  });

  it('keeps the spaces of an organization whose listing failed, and of an empty org list', async () => {
    remote.publish('s1', handbook());
    const sync = engine();
    await sync.syncOnce();
    remote.failListing.add('o1');
    const report = await sync.syncOnce();
    expect(report.errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining('503') }),
    ]);
    expect(sync.status().map((space) => space.state)).toEqual(['synced']);
    remote.failListing.clear();
    remote.organizations = [];
    await sync.syncOnce();
    expect(sync.status().map((space) => space.state)).toEqual(['synced']);
    expect(existsSync(join(folder, 'Acme/s1/README.md'))).toBe(true);
  });
});

describe('syncOnce', () => {
  it('writes the layout, then only what changed, and nothing when nothing moved', async () => {
    remote.publish('s1', handbook());
    const sync = engine();
    const first = await sync.syncOnce();
    expect(first.spaces[0]!.written.sort()).toEqual([
      'README.md',
      'SUMMARY.md',
      'guides/README.md',
      'guides/setup.md',
      'usage.md',
    ]);
    expect(read('Acme/s1/guides/setup.md')).toBe('# Setup\n\nInstall.\n');

    remote.calls = [];
    expect((await sync.syncOnce()).spaces).toEqual([]);
    expect(remote.calls).toEqual(['orgs', 'spaces o1']);

    const pages = handbook();
    pages[2]!.markdown = '# Usage\n\nUse it well.\n';
    remote.publish('s1', pages);
    const third = await sync.syncOnce();
    expect(third.spaces[0]!.written).toEqual(['usage.md']);
  });

  it('shares one run between concurrent calls', async () => {
    remote.publish('s1', handbook());
    const sync = engine();
    const [a, b] = await Promise.all([sync.syncOnce(), sync.syncOnce()]);
    expect(a).toBe(b);
    expect(remote.count('revision')).toBe(1);
  });

  it('never overlaps runs: pushOnce waits for a sync in progress, and a sync for a push', async () => {
    remote.publish('s1', handbook());
    const sync = engine();
    const finished: string[] = [];
    const track = (name: string, run: Promise<SyncReport>) =>
      run.then((report) => {
        finished.push(name);
        return report;
      });
    // Started together: the push (which has nothing to do) waits for the sync and its requests.
    const [synced, pushed] = await Promise.all([
      track('sync', sync.syncOnce()),
      track('push', sync.pushOnce()),
    ]);
    expect(finished).toEqual(['sync', 'push']);
    expect(synced.spaces[0]!.written).toContain('usage.md');
    expect(pushed.startedAt >= synced.finishedAt).toBe(true);

    // A sync asked for while a push runs starts after it; concurrent syncs still share a run.
    remote.publish('s1', [...handbook(), doc('p5', 'More', '# More\n')]);
    remote.calls = [];
    finished.length = 0;
    const pushing = track('push', sync.pushOnce());
    const callsWhenPushed = pushing.then(() => [...remote.calls]);
    const [first, second] = await Promise.all([
      track('sync', sync.syncOnce()),
      track('sync', sync.syncOnce()),
      pushing,
    ]);
    expect(first).toBe(second);
    expect(finished).toEqual(['push', 'sync', 'sync']);
    expect(await callsWhenPushed).toEqual([]);
    expect(remote.count('revision')).toBe(1);
    expect(first.startedAt >= (await pushing).finishedAt).toBe(true);
  });

  it('fills pages the server left out (known, unchanged) from the cached bodies', async () => {
    remote.honourKnownPages = true;
    remote.publish('s1', handbook());
    const sync = engine();
    await sync.syncOnce();
    const pages = handbook();
    pages[0]!.markdown = '# Welcome\n\nHello again.\n';
    pages[0]!.updatedAt = 'changed';
    remote.publish('s1', pages);
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.error).toBeUndefined();
    expect(report.spaces[0]!.written).toEqual(['README.md']);
    expect(read('Acme/s1/guides/setup.md')).toBe('# Setup\n\nInstall.\n');
  });

  it('fails a space whose page comes without Markdown it does not have, and retries later', async () => {
    const pages = handbook();
    delete pages[0]!.markdown;
    remote.publish('s1', pages);
    const sync = engine();
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.error?.message).toMatch(/p1 came without its Markdown/);
    expect(sync.status()[0]).toMatchObject({ state: 'error', revision: null });
    remote.publish('s1', handbook());
    expect((await sync.syncOnce()).spaces[0]!.error).toBeUndefined();
    expect(sync.status()[0]).toMatchObject({ state: 'synced', errors: [] });
  });

  it('downloads an asset only when its file changed', async () => {
    const logo = remote.file('f1', 'logo.png', 'PNG-1');
    remote.publish('s1', [doc('p1', 'Home', '# Home\n\n![](/files/f1)\n')], [logo]);
    const sync = engine();
    await sync.syncOnce();
    expect(read('Acme/s1/.gitbook/assets/logo.png')).toBe('PNG-1');
    expect(read('Acme/s1/README.md')).toBe('# Home\n\n![](.gitbook/assets/logo.png)\n');

    // A new revision with the same file (only its URL signature differs): no download.
    const again = remote.file('f1', 'logo.png', 'PNG-1');
    remote.publish('s1', [doc('p1', 'Home', '# Home\n\n![](/files/f1)\n\nMore.\n')], [again]);
    await sync.syncOnce();
    expect(remote.count('download')).toBe(1);

    const changed = remote.file('f1', 'logo.png', 'PNG-2', 2);
    remote.publish('s1', [doc('p1', 'Home', '# Home\n\n![](/files/f1)\n\nMore.\n')], [changed]);
    const report = await sync.syncOnce();
    expect(remote.count('download')).toBe(2);
    expect(report.spaces[0]!.written).toEqual(['.gitbook/assets/logo.png']);
    expect(read('Acme/s1/.gitbook/assets/logo.png')).toBe('PNG-2');
  });

  it('rewrites an asset whose file moved to another path (a clash suffix reshuffled)', async () => {
    const a = remote.file('fa', 'data.bin', 'AAA');
    const b = remote.file('fb', 'data.bin', 'BBBB');
    const page = doc('p1', 'Home', '# Home\n');
    remote.publish('s1', [page], [a, b]);
    const sync = engine();
    await sync.syncOnce();
    expect(read('Acme/s1/.gitbook/assets/data.bin')).toBe('AAA');
    expect(read('Acme/s1/.gitbook/assets/data (1).bin')).toBe('BBBB');

    remote.publish('s1', [page], [b]);
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.written).toEqual(['.gitbook/assets/data.bin']);
    expect(report.spaces[0]!.removed).toEqual(['.gitbook/assets/data (1).bin']);
    expect(read('Acme/s1/.gitbook/assets/data.bin')).toBe('BBBB');
    expect(readdirSync(join(folder, 'Acme/s1/.gitbook/assets'))).toEqual(['data.bin']);
  });

  it('does not recreate a file deleted locally unless its page changed remotely', async () => {
    remote.publish('s1', handbook());
    const sync = engine();
    await sync.syncOnce();
    unlinkSync(join(folder, 'Acme/s1/usage.md'));
    const pages = handbook();
    pages[0]!.markdown = '# Welcome\n\nChanged.\n';
    remote.publish('s1', pages);
    await sync.syncOnce();
    // A local deletion waiting to be pushed: the pull leaves it.
    expect(existsSync(join(folder, 'Acme/s1/usage.md'))).toBe(false);

    pages[2]!.markdown = '# Usage\n\nChanged remotely.\n';
    remote.publish('s1', pages);
    await sync.syncOnce();
    // Modified beats deleted.
    expect(read('Acme/s1/usage.md')).toBe('# Usage\n\nChanged remotely.\n');
  });

  it('never overwrites a file it did not write: a different one is a conflict', async () => {
    mkdirSync(join(folder, 'Acme/s1'), { recursive: true });
    writeFileSync(join(folder, 'Acme/s1/usage.md'), 'my own notes\n');
    // Same bytes as the server's: adopted as synced, nothing to report.
    writeFileSync(join(folder, 'Acme/s1/README.md'), '# Welcome\n\nHello.\n');
    remote.publish('s1', handbook());
    const sync = engine();
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.problems).toEqual([
      expect.objectContaining({ kind: 'conflict', path: 'usage.md', pageId: 'p4' }),
    ]);
    expect(read('Acme/s1/usage.md')).toBe('my own notes\n');
    expect(sync.status()[0]!.errors).toEqual([expect.stringContaining('usage.md')]);
    expect(sync.conflicts()).toEqual([
      expect.objectContaining({ path: 'usage.md', pageId: 'p4', baseHash: null }),
    ]);
    expect(report.spaces[0]!.written).not.toContain('README.md');

    // Once the user moves it away, the next revision writes the page and the problem clears.
    unlinkSync(join(folder, 'Acme/s1/usage.md'));
    const pages = handbook();
    pages[0]!.markdown = '# Welcome\n\nv2\n';
    remote.publish('s1', pages);
    await sync.syncOnce();
    expect(read('Acme/s1/usage.md')).toBe('# Usage\n\nUse it.\n');
    expect(sync.status()[0]!.problems).toEqual([]);
    expect(sync.conflicts()).toEqual([]);
  });

  it('reports a folder where a file belongs as a path taken, and leaves it', async () => {
    mkdirSync(join(folder, 'Acme/s1/usage.md'), { recursive: true });
    remote.publish('s1', handbook());
    const sync = engine();
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.problems).toEqual([
      expect.objectContaining({ kind: 'path-taken', path: 'usage.md', pageId: 'p4' }),
    ]);
    expect(sync.conflicts()).toEqual([]);
    expect(read('Acme/s1/README.md')).toBe('# Welcome\n\nHello.\n');
  });

  it('adopts an asset already in the folder by its bytes, and makes a different one a conflict', async () => {
    mkdirSync(join(folder, 'Acme/s1/.gitbook/assets'), { recursive: true });
    writeFileSync(join(folder, 'Acme/s1/.gitbook/assets/same.png'), 'same bytes');
    writeFileSync(join(folder, 'Acme/s1/.gitbook/assets/other.png'), 'mine');
    const files = [
      remote.file('f1', 'same.png', 'same bytes'),
      remote.file('f2', 'other.png', 'theirs'),
    ];
    remote.publish('s1', handbook(), files);
    const sync = engine();
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.written).not.toContain('.gitbook/assets/same.png');
    expect(report.spaces[0]!.problems).toEqual([
      expect.objectContaining({ kind: 'conflict', path: '.gitbook/assets/other.png' }),
    ]);
    expect(read('Acme/s1/.gitbook/assets/other.png')).toBe('mine');
    expect(sync.conflicts()).toEqual([
      expect.objectContaining({ kind: 'asset', path: '.gitbook/assets/other.png', fileId: 'f2' }),
    ]);
    // Adopted: known by its hash, so a later revision with the same file downloads nothing.
    const downloads = remote.count('download');
    remote.publish('s1', [...handbook(), doc('p5', 'More', '# More\n')], files);
    await sync.syncOnce();
    expect(remote.count('download')).toBe(downloads + 1);
    expect(remote.calls.at(-1)).toBe('download f2');
  });

  it('makes a file the server cannot serve one problem; the revision advances', async () => {
    const broken = remote.file('f1', 'gone.png', 'x');
    remote.bytes.delete(broken.downloadURL);
    remote.publish('s1', handbook(), [broken, remote.file('f2', 'fine.png', 'fine')]);
    const sync = engine();
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.error).toBeUndefined();
    expect(report.spaces[0]!.problems).toEqual([
      {
        kind: 'download-failed',
        path: '.gitbook/assets/gone.png',
        pageId: null,
        message: expect.stringMatching(/^\.gitbook\/assets\/gone\.png was not written: 404 /),
      },
    ]);
    expect(read('Acme/s1/.gitbook/assets/fine.png')).toBe('fine');
    expect(existsSync(join(folder, 'Acme/s1/.gitbook/assets/gone.png'))).toBe(false);
    expect(sync.status()[0]!.state).toBe('synced');
    expect(sync.status()[0]!.problems).toEqual([
      expect.objectContaining({ kind: 'download-failed', path: '.gitbook/assets/gone.png' }),
    ]);

    // Tried again at the next sync, though the space did not move: once it can be served, it is
    // written and the problem goes. Then a sync with nothing changed reads no revision.
    remote.bytes.set(broken.downloadURL, new TextEncoder().encode('x'));
    const revisions = remote.count('revision');
    await sync.syncOnce();
    expect(remote.count('revision')).toBe(revisions + 1);
    expect(read('Acme/s1/.gitbook/assets/gone.png')).toBe('x');
    expect(sync.status()[0]!.problems).toEqual([]);
    await sync.syncOnce();
    expect(remote.count('revision')).toBe(revisions + 1);
  });

  it('makes a file the server fails on (5xx after retries) one problem too', async () => {
    const files = [remote.file('f1', 'a.png', 'a'), remote.file('f2', 'b.png', 'b')];
    remote.publish('s1', handbook(), files);
    const download = remote.downloadFile.bind(remote);
    remote.downloadFile = async (file) => {
      if (file.id !== 'f1') return download(file);
      throw new RemoteUnavailableError('Downloading file f1 failed: 500', {
        status: 500,
        attempts: 3,
      });
    };
    const sync = engine();
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.error).toBeUndefined();
    expect(report.spaces[0]!.problems.map((problem) => problem.kind)).toEqual(['download-failed']);
    expect(read('Acme/s1/.gitbook/assets/b.png')).toBe('b');
    expect(sync.status()[0]!.state).toBe('synced');
  });

  it('fails the space, to be pulled again, when the server cannot be reached mid-download', async () => {
    remote.publish('s1', handbook(), [remote.file('f1', 'a.png', 'a')]);
    const download = remote.downloadFile.bind(remote);
    remote.downloadFile = async () => {
      throw new RemoteUnavailableError('connect ECONNREFUSED', { attempts: 3 });
    };
    const sync = engine();
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.error?.message).toMatch(/ECONNREFUSED/);
    expect(report.spaces[0]!.offline).toBe(true);
    expect(sync.status()[0]!.revision).toBeNull();
    remote.downloadFile = download;
    await sync.syncOnce();
    expect(read('Acme/s1/.gitbook/assets/a.png')).toBe('a');
    expect(sync.status()[0]!.state).toBe('synced');
  });

  it('moves a locally edited file with its page when only the path changed remotely', async () => {
    remote.publish('s1', handbook());
    const sync = engine();
    await sync.syncOnce();
    writeFileSync(join(folder, 'Acme/s1/usage.md'), '# Usage\n\nEdited locally.\n');
    const pages = handbook();
    pages[2]!.slug = 'how-to-use';
    remote.publish('s1', pages);
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.problems).toEqual([]);
    expect(existsSync(join(folder, 'Acme/s1/usage.md'))).toBe(false);
    expect(read('Acme/s1/how-to-use.md')).toBe('# Usage\n\nEdited locally.\n');

    // Still a local edit: a later remote change of the same page is a conflict, not an overwrite.
    pages[2]!.markdown = '# Usage\n\nRemote.\n';
    remote.publish('s1', pages);
    const later = await sync.syncOnce();
    expect(later.spaces[0]!.problems).toEqual([
      expect.objectContaining({ kind: 'conflict', path: 'how-to-use.md', pageId: 'p4' }),
    ]);
    expect(read('Acme/s1/how-to-use.md')).toBe('# Usage\n\nEdited locally.\n');
  });

  it('keeps a locally edited file where it is when its page moved and changed remotely', async () => {
    remote.publish('s1', handbook());
    const sync = engine();
    await sync.syncOnce();
    writeFileSync(join(folder, 'Acme/s1/usage.md'), '# Usage\n\nEdited locally.\n');
    const pages = handbook();
    pages[2]!.slug = 'how-to-use';
    pages[2]!.markdown = '# Usage\n\nRemote.\n';
    remote.publish('s1', pages);
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.problems).toEqual([
      expect.objectContaining({ kind: 'conflict', path: 'usage.md', pageId: 'p4' }),
    ]);
    expect(read('Acme/s1/usage.md')).toBe('# Usage\n\nEdited locally.\n');
    expect(existsSync(join(folder, 'Acme/s1/how-to-use.md'))).toBe(false);
  });

  it('recovers from a write that failed midway: its own files are not taken for local edits', async () => {
    remote.publish('s1', handbook());
    // A file where the guides/ folder belongs: SUMMARY.md and README.md are written, then
    // guides/README.md fails and the space is left unrecorded.
    mkdirSync(join(folder, 'Acme/s1'), { recursive: true });
    writeFileSync(join(folder, 'Acme/s1/guides'), 'in the way');
    const sync = engine();
    const failed = await sync.syncOnce();
    expect(failed.spaces[0]!.error?.message).toMatch(/not a directory/);
    expect(read('Acme/s1/README.md')).toBe('# Welcome\n\nHello.\n');
    expect(sync.status()[0]).toMatchObject({ state: 'error', revision: null });
    unlinkSync(join(folder, 'Acme/s1/guides'));

    // The revision moves before the retry: README.md holds bytes no index entry vouches for,
    // but the journal of pending writes does.
    const pages = handbook();
    pages[0]!.markdown = '# Welcome\n\nv2\n';
    remote.publish('s1', pages);
    const report = await sync.syncOnce();
    expect(report.spaces[0]!.problems).toEqual([]);
    expect(report.spaces[0]!.written).toContain('README.md');
    expect(read('Acme/s1/README.md')).toBe('# Welcome\n\nv2\n');
    expect(sync.status()[0]).toMatchObject({ state: 'synced', errors: [] });
  });

  it('removes temp files a killed write left behind', async () => {
    mkdirSync(join(folder, 'Acme/s1/guides'), { recursive: true });
    const stale = join(folder, 'Acme/s1/guides/.setup.md.quire-tmp-0123456789abcdef');
    writeFileSync(stale, 'half a wri');
    remote.publish('s1', handbook());
    await engine().syncOnce();
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(join(folder, 'Acme/s1/guides')).sort()).toEqual(['README.md', 'setup.md']);
  });

  it('refuses to write through a symbolic link in the space folder', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'quire-engine-outside-'));
    try {
      mkdirSync(join(folder, 'Acme/s1'), { recursive: true });
      symlinkSync(outside, join(folder, 'Acme/s1/guides'));
      remote.publish('s1', handbook());
      const report = await engine().syncOnce();
      expect(report.spaces[0]!.error?.message).toMatch(/symbolic link/);
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('reports progress for the UI', async () => {
    remote.publish('s1', handbook());
    const events: unknown[] = [];
    await engine({ onProgress: (event) => events.push(event) }).syncOnce();
    expect(events[0]).toEqual({ phase: 'listing', done: 0, total: 1 });
    expect(events).toContainEqual({ phase: 'fetching', space: 's1', done: 1, total: 1 });
    expect(events).toContainEqual({ phase: 'writing', space: 's1', done: 5, total: 5 });
    expect(events.at(-1)).toEqual({ phase: 'done', done: 1, total: 1 });
  });
});
