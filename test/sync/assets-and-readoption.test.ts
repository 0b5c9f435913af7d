import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RevisionTree } from '../../src/server/content/revision-tree';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, PNG_BASE64, TOKENS } from '../support/test-fixture';
import { inProcessQuire } from './in-process-quire';
import { readTree, treeAsText } from './sync-test-kit';

/**
 * Issue 11, defects 3, 4 and 5, through the `quire` CLI (in-process, real services) against the
 * real server: an image pushed and then merged, files the server cannot serve, and a fresh home
 * on a folder an earlier home mirrored. Acme's Handbook (README.md, guides/…) gets the images;
 * Media already has two files (diagram.png and a PDF).
 */
const HANDBOOK = 's-handbook';
const MEDIA = 's-media';
/** Not the fixture's PNG: a second image with bytes of its own. */
const NEW_PNG = Buffer.concat([Buffer.from(PNG_BASE64, 'base64'), Buffer.from('new image')]);

let t: TestServer;
let dir: string;
let quire: ReturnType<typeof inProcessQuire>;
let mirror: string;

const api = () => t.client(TOKENS.ada).spaces;
const handbook = (...parts: string[]) => join(mirror, 'Acme', 'Handbook', ...parts);
const media = (...parts: string[]) => join(mirror, 'Acme', 'Media', ...parts);

interface StatusJson {
  problems: { spaceId: string; kind: string; path: string | null; message: string }[];
  spaces: { id: string; revision: string | null; remoteRevision: string | null }[];
}

async function status(): Promise<StatusJson> {
  const result = await quire('status', '--json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as StatusJson;
}

async function login() {
  const result = await quire('login', '--server', t.url, '--token', TOKENS.ada, '--folder', mirror);
  expect(result.code, result.stderr).toBe(0);
}

async function syncOk() {
  const result = await quire('sync', '--once');
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  return result;
}

/** Draft change requests of a space (Quire's working ones are drafts). */
async function drafts(spaceId: string): Promise<{ id: string; revision: string }[]> {
  const { data } = await api().listChangeRequestsForSpace(spaceId, {
    status: ChangeRequestStatus.Draft,
  });
  return data.items as { id: string; revision: string }[];
}

async function mergeWorkingChangeRequest(spaceId: string): Promise<void> {
  const [working, ...others] = await drafts(spaceId);
  expect(others).toEqual([]);
  const { data } = await api().mergeChangeRequest(spaceId, working!.id);
  expect((data as { result?: string }).result).toBe('merge');
}

/** Names of the files of main (or of a change request's revision). */
async function fileNames(spaceId: string, revisionId?: string): Promise<string[]> {
  const { data: space } = await api().getSpaceById(spaceId);
  const { data } = await api().listFilesInRevisionById(
    spaceId,
    revisionId ?? (space as { revision: string }).revision,
  );
  return (data.items as { name: string }[]).map((file) => file.name).sort();
}

/** Adds an image to the Handbook and references it from its first page, as a user would. */
function addImage(name: string, bytes: Uint8Array): void {
  mkdirSync(handbook('.gitbook', 'assets'), { recursive: true });
  writeFileSync(handbook('.gitbook', 'assets', name), bytes);
  const readme = readFileSync(handbook('README.md'), 'utf8');
  writeFileSync(handbook('README.md'), `${readme}\n![${name}](.gitbook/assets/${name})\n`);
}

/** Rewrites every stored revision of a space, as old data or another server could have it. */
function rewriteStoredFiles(spaceId: string, change: (tree: RevisionTree) => void): void {
  const rows = t.db
    .prepare<[string], { id: string; tree: string }>(
      'SELECT id, tree FROM revisions WHERE space_id = ?',
    )
    .all(spaceId);
  for (const row of rows) {
    const tree = JSON.parse(row.tree) as RevisionTree;
    change(tree);
    t.db.prepare('UPDATE revisions SET tree = ? WHERE id = ?').run(JSON.stringify(tree), row.id);
  }
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-assets-'));
  mirror = join(dir, 'mirror');
  quire = inProcessQuire(dir);
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

describe('an image pushed, then merged (defect 3)', () => {
  it('is recognised as the same file and indexed: later syncs are clean', async () => {
    await login();
    await syncOk();
    addImage('new.png', NEW_PNG);
    const pushed = await syncOk();
    expect(pushed.stdout).not.toContain('not written by Quire');
    await mergeWorkingChangeRequest(HANDBOOK);
    expect(await fileNames(HANDBOOK)).toEqual(['new.png']);

    const pulled = await quire('sync', '--once');
    expect(pulled.code, pulled.stdout).toBe(0);
    expect((await status()).problems).toEqual([]);
    const again = await quire('sync', '--once');
    expect(again.code, again.stdout).toBe(0);
    expect((await status()).problems).toEqual([]);

    // The file was recognised, not downloaded over: the bytes are the user's, and nothing else
    // was pushed (no second upload, no new change request).
    expect(readFileSync(handbook('.gitbook', 'assets', 'new.png'))).toEqual(NEW_PNG);
    expect(await drafts(HANDBOOK)).toEqual([]);
    expect(await fileNames(HANDBOOK)).toEqual(['new.png']);
    const readme = readFileSync(handbook('README.md'), 'utf8');
    expect(readme).toContain('](.gitbook/assets/new.png)');
  });
});

describe('an image the pull could not write back under its own name', () => {
  it('is reported and not uploaded, so it is never mirrored twice', async () => {
    await login();
    await syncOk();
    addImage('a:b.png', NEW_PNG);
    addImage('new.png', NEW_PNG);

    const sync = await quire('sync', '--once');
    expect(sync.code).toBe(2);
    const { problems } = await status();
    expect(problems).toEqual([
      expect.objectContaining({
        spaceId: HANDBOOK,
        path: 'Acme/Handbook/.gitbook/assets/a:b.png',
        message: expect.stringContaining('"a-b.png"'),
      }),
    ]);
    const [working] = await drafts(HANDBOOK);
    expect(await fileNames(HANDBOOK, working!.revision)).toEqual(['new.png']);
  });
});

describe('a file the server cannot serve (defect 4)', () => {
  it('is one problem on that file: the rest syncs, the revision advances, pushes go on', async () => {
    // The PDF's bytes are gone from the server: its download answers 404.
    let blob = '';
    rewriteStoredFiles(MEDIA, (tree) => {
      blob = tree.files.find((file) => file.id === 'f-report')!.blob;
    });
    const bytes = t.db
      .prepare<[string], { bytes: Buffer }>('SELECT bytes FROM blobs WHERE hash = ?')
      .get(blob)!.bytes;
    t.db.prepare('DELETE FROM blobs WHERE hash = ?').run(blob);
    await login();

    const first = await quire('sync', '--once');
    expect(first.code, first.stdout).toBe(2);
    const { problems, spaces } = await status();
    expect(problems).toEqual([
      expect.objectContaining({
        spaceId: MEDIA,
        kind: 'download-failed',
        path: 'Acme/Media/.gitbook/assets/Relevé -final- v2.pdf',
        message: expect.stringMatching(/the server names it "Relevé "final" v2\.pdf"\).*: 404/),
      }),
    ]);
    expect(problems[0]!.message.match(/404/g)).toHaveLength(1);
    const mediaState = spaces.find((space) => space.id === MEDIA)!;
    expect(mediaState.revision).not.toBeNull();
    expect(mediaState.revision).toBe(mediaState.remoteRevision);
    expect(readFileSync(media('.gitbook', 'assets', 'diagram.png'))).toEqual(
      Buffer.from(PNG_BASE64, 'base64'),
    );
    expect(existsSync(media('.gitbook', 'assets', 'Relevé -final- v2.pdf'))).toBe(false);
    expect(readFileSync(media('README.md'), 'utf8')).toContain('.gitbook/assets/diagram.png');

    // A local edit of the space is still pushed.
    writeFileSync(media('README.md'), '# Home\n\nEdited locally.\n');
    const push = await quire('sync', '--once');
    expect(push.stdout).toMatch(/Media \(s-media\): .*1 (change|edit)/);
    const [working] = await drafts(MEDIA);
    const { data } = await api().getPageInChangeRequestById(MEDIA, working!.id, 'p-media-home', {
      format: 'markdown',
    });
    expect((data as { markdown?: string }).markdown).toContain('Edited locally.');
    // Still reported: nothing changed for that file.
    expect((await status()).problems.map((problem) => problem.kind)).toEqual(['download-failed']);

    // Tried again at each sync: once the server has the bytes again, the file is written.
    t.db.prepare('INSERT INTO blobs (hash, bytes) VALUES (?, ?)').run(blob, bytes);
    await syncOk();
    expect((await status()).problems).toEqual([]);
    expect(readFileSync(media('.gitbook', 'assets', 'Relevé -final- v2.pdf'))).toEqual(bytes);
  });

  it('files named "." and ".." never make a path or URL that escapes, and never block the space', async () => {
    rewriteStoredFiles(MEDIA, (tree) => {
      tree.files.find((file) => file.id === 'f-report')!.name = '..';
      tree.files.find((file) => file.id === 'f-diagram')!.name = '.';
    });
    await login();

    const sync = await quire('sync', '--once');
    const { problems, spaces } = await status();
    const mediaState = spaces.find((space) => space.id === MEDIA)!;
    expect(mediaState.revision).toBe(mediaState.remoteRevision);
    expect(sync.stdout).not.toContain('failed: 404');
    // Every page of the space is there, and every file written stays inside the mirror's
    // assets folder. A name is either written under a safe name or one problem on its file.
    expect(readFileSync(media('reference', 'api.md'), 'utf8')).toContain('# API');
    const assets = media('.gitbook', 'assets');
    const written = existsSync(assets) ? readdirSync(assets) : [];
    for (const name of written) expect(['.', '..']).not.toContain(name);
    expect(
      filesUnder(dir).filter((file) => !file.startsWith(mirror) && !file.includes('/home/')),
    ).toEqual([]);
    expect(problems.every((problem) => problem.kind === 'download-failed')).toBe(true);
    expect(written.length + problems.length).toBe(2);
    for (const problem of problems) {
      expect(problem.spaceId).toBe(MEDIA);
      expect(problem.path).toMatch(/^Acme\/Media\/\.gitbook\/assets\/[^/]+$/);
      expect(problem.message).toMatch(/"\.\.?"/);
    }
    expect(sync.code).toBe(problems.length === 0 ? 0 : 2);
  });
});

describe('a fresh home on an existing folder (defect 5)', () => {
  /** Syncs once with a first home, adds an image (pushed, merged), then forgets that home. */
  async function mirrorThenWipeHome(): Promise<void> {
    await login();
    await syncOk();
    addImage('new.png', NEW_PNG);
    await syncOk();
    await mergeWorkingChangeRequest(HANDBOOK);
    await syncOk();
    expect(await fileNames(HANDBOOK)).toEqual(['new.png']);
    rmSync(join(dir, 'home'), { recursive: true, force: true });
    await login();
  }

  it('adopts identical pages and images silently and pushes nothing', async () => {
    await mirrorThenWipeHome();
    const before = treeAsText(readTree(mirror));

    const first = await quire('sync', '--once');
    expect(first.code, first.stdout).toBe(0);
    expect((await status()).problems).toEqual([]);
    const second = await quire('sync', '--once');
    expect(second.code, second.stdout).toBe(0);

    expect(treeAsText(readTree(mirror))).toEqual(before);
    expect(await drafts(HANDBOOK)).toEqual([]);
    expect(await drafts(MEDIA)).toEqual([]);
    expect(await fileNames(HANDBOOK)).toEqual(['new.png']);
    expect(await fileNames(MEDIA)).toEqual(['Relevé "final" v2.pdf', 'diagram.png']);
  });

  it('matches a page file moved meanwhile to its page: the move is pushed, not a new page', async () => {
    await mirrorThenWipeHome();
    renameSync(handbook('guides', 'setup.md'), handbook('setup.md'));

    const first = await quire('sync', '--once');
    expect(first.code, first.stdout).toBe(0);
    // Not written back where the page was: the file is where the user put it.
    expect(existsSync(handbook('guides', 'setup.md'))).toBe(false);
    await syncOk();

    const [working, ...others] = await drafts(HANDBOOK);
    expect(others).toEqual([]);
    const { data } = await api().listPagesInChangeRequest(HANDBOOK, working!.id);
    type Node = { id: string; title: string; pages?: Node[] };
    const top = (data.pages as Node[]).map((page) => page.id);
    expect(top).toContain('p-setup');
    expect(JSON.stringify(data.pages).match(/"Setup"/g)).toHaveLength(1);
    expect(await fileNames(HANDBOOK, working!.revision)).toEqual(['new.png']);
  });

  it('makes a reordered SUMMARY.md a conflict that resolves into a reorder', async () => {
    await mirrorThenWipeHome();
    const summary = handbook('SUMMARY.md');
    const text = readFileSync(summary, 'utf8');
    const welcome = '* [Welcome](README.md)\n';
    expect(text).toContain(welcome);
    writeFileSync(summary, `${text.replace(welcome, '').trimEnd()}\n${welcome}`);

    expect((await quire('sync', '--once')).code).toBe(2);
    const conflicts = JSON.parse((await quire('conflicts', '--json')).stdout) as {
      id: number;
      path: string;
    }[];
    expect(conflicts.map((conflict) => conflict.path)).toEqual(['SUMMARY.md']);
    expect((await quire('resolve', String(conflicts[0]!.id), '--mine')).code).toBe(0);
    await syncOk();

    const [working] = await drafts(HANDBOOK);
    const { data } = await api().listPagesInChangeRequest(HANDBOOK, working!.id);
    expect(data.pages.map((page) => page.title)).toEqual(['Guides', 'Welcome']);
    const cache = new Database(join(dir, 'home', 'cache.db'), { readonly: true });
    try {
      const indexed = cache
        .prepare("SELECT kind, page_id FROM file_index WHERE space_id = ? AND path = 'SUMMARY.md'")
        .all(HANDBOOK);
      expect(indexed).toEqual([{ kind: 'layout', page_id: null }]);
    } finally {
      cache.close();
    }
  });

  it('makes a page that differs a conflict, and pushes only the real differences', async () => {
    await mirrorThenWipeHome();
    const setup = handbook('guides', 'setup.md');
    const remoteSetup = readFileSync(setup, 'utf8');
    // Edited while no home mirrored the folder (or an edit the old home never pushed).
    writeFileSync(setup, `${remoteSetup}\nEdited without a home.\n`);
    // A page and an image that only exist here.
    writeFileSync(handbook('notes.md'), '# Notes\n\nOnly here.\n');
    writeFileSync(handbook('.gitbook', 'assets', 'local.png'), Buffer.from('local image'));

    const first = await quire('sync', '--once');
    expect(first.code).toBe(2);
    const conflicts = JSON.parse((await quire('conflicts', '--json')).stdout) as {
      id: number;
      spaceId: string;
      path: string;
      pageId: string;
    }[];
    expect(conflicts).toEqual([
      expect.objectContaining({ spaceId: HANDBOOK, path: 'guides/setup.md', pageId: 'p-setup' }),
    ]);
    // Never overwritten, never pushed while the conflict is open.
    expect(readFileSync(setup, 'utf8')).toContain('Edited without a home.');
    const second = await quire('sync', '--once');
    expect(second.code).toBe(2);
    expect(readFileSync(setup, 'utf8')).toContain('Edited without a home.');

    const resolved = await quire('resolve', String(conflicts[0]!.id), '--mine');
    expect(resolved.code, resolved.stderr).toBe(0);
    await syncOk();

    const [working, ...others] = await drafts(HANDBOOK);
    expect(others).toEqual([]);
    // Each image once: the adopted new.png and the one new local image.
    expect(await fileNames(HANDBOOK, working!.revision)).toEqual(['local.png', 'new.png']);
    const { data } = await api().getPageInChangeRequestById(HANDBOOK, working!.id, 'p-setup', {
      format: 'markdown',
    });
    expect((data as { markdown?: string }).markdown).toContain('Edited without a home.');
    const { data: pages } = await api().listPagesInChangeRequest(HANDBOOK, working!.id);
    const titles = JSON.stringify(pages.pages);
    expect(titles.match(/"Notes"/g)).toHaveLength(1);
    expect(titles.match(/"Setup"/g)).toHaveLength(1);
  });
});
