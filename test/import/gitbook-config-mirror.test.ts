import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { inProcessQuire } from '../sync/in-process-quire';
import { gitSyncRepository, gitSyncRepositoryWithConfig } from './gitsync-repository';
import { filesUnder, writeFolder } from '../support/folder-files';

let t: TestServer;
let dir: string;

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    { id: 's-yaml', title: 'With config' },
    { id: 's-inferred', title: 'Inferred' },
    { id: 's-docs-root', title: 'Docs root' },
    { id: 's-yaml-conflict', title: 'Config conflict' },
    { id: 's-empty-first', title: 'Empty first' },
  );
  t = await startTestServer({ fixture });
  dir = mkdtempSync(join(tmpdir(), 'quire-gitbook-yaml-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const REDIRECTS = Array.from({ length: 300 }, (_, i) => `  old/page-${i}: changelog.md`);
/** Comments, blank lines and key order as a person writes them: kept byte for byte. */
const CONFIG = ['# Git Sync', 'root: ./', '', 'redirects:', ...REDIRECTS, ''].join('\n');

const serverConfig = async (spaceId: string) =>
  (
    (await (await t.request('GET', `/v1/spaces/${spaceId}/git/config`, TOKENS.cleo)).json()) as {
      text: string;
    }
  ).text;

describe('.gitbook.yaml through import, merge and mirror', () => {
  it('comes back byte for byte in a fresh mirror; local edits are pushed, bad ones held', async () => {
    const repository = gitSyncRepository(4096);
    repository.set('.gitbook.yaml', CONFIG);
    const source = join(dir, 'repository');
    writeFolder(source, repository);
    const quire = inProcessQuire(dir);
    const mirror = join(dir, 'mirror');
    await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', mirror);
    const imported = await quire('import', source, '--space', 's-yaml', '--merge');
    expect(imported.code, imported.stderr).toBe(0);
    expect((await quire('sync', '--once')).code).toBe(0);

    const space = join(mirror, 'Acme', 'With config');
    expect(filesUnder(space)).toEqual([...repository.keys()].sort());
    for (const [path, content] of repository) {
      expect(readFileSync(join(space, path)).equals(Buffer.from(content)), path).toBe(true);
    }

    const edited = CONFIG.replace('# Git Sync', '# Git Sync, edited');
    writeFileSync(join(space, '.gitbook.yaml'), edited);
    expect((await quire('sync', '--once')).code).toBe(0);
    expect(await serverConfig('s-yaml')).toBe(edited);

    // A bad edit stays a problem on that file; the page edited in the same sync still goes.
    writeFileSync(join(space, '.gitbook.yaml'), 'root: ../../outside/\n');
    writeFileSync(join(space, 'changelog.md'), '# Changelog\n\n* Edited next to a bad config.\n');
    const held = await quire('sync', '--once');
    expect(await serverConfig('s-yaml')).toBe(edited);
    expect(readFileSync(join(space, '.gitbook.yaml'), 'utf8')).toBe('root: ../../outside/\n');
    expect(held.stdout).toContain('1 change pushed');
    expect(held.stdout).toContain(
      'problem: .gitbook.yaml is not pushed (root "../../outside/" leaves the repository)',
    );
  }, 120_000);

  it('mirrors the docs under the root and summary name .gitbook.yaml gives, as in the repository', async () => {
    const repository = gitSyncRepositoryWithConfig(4096);
    const source = join(dir, 'docs-root');
    writeFolder(source, repository);
    const quire = inProcessQuire(dir, 'home-root');
    const mirror = join(dir, 'm-root');
    await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', mirror);
    const imported = await quire('import', source, '--space', 's-docs-root', '--merge');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/Imported 14 pages and 2 files/);
    const synced = await quire('sync', '--once');
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);

    const space = join(mirror, 'Acme', 'Docs root');
    expect(filesUnder(space)).toEqual([...repository.keys()].sort());
    for (const [path, content] of repository) {
      expect(readFileSync(join(space, path)).equals(Buffer.from(content)), path).toBe(true);
    }
    // Unchanged, nothing moves on the next sync.
    const again = await quire('sync', '--once');
    expect(again.code).toBe(0);
    expect(filesUnder(space)).toEqual([...repository.keys()].sort());

    // The renamed table of contents is the layout: a title edited there is pushed.
    const toc = join(space, 'docs', 'toc.md');
    writeFileSync(toc, readFileSync(toc, 'utf8').replace('[Changelog]', '[Release notes]'));
    const pushed = await quire('sync', '--once');
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain('1 change pushed');
    // The edit waits in the working change request (#2; the import was #1).
    const path = '/v1/spaces/s-docs-root/change-requests/2/content';
    const edited = await t.request('GET', path, TOKENS.cleo);
    expect(JSON.stringify(await edited.json())).toContain('"title":"Release notes"');
    expect(filesUnder(space)).toEqual([...repository.keys()].sort());
  }, 120_000);

  it('lays out a space mirrored empty before the import the same way', async () => {
    const config = ['root: ./docs/', 'structure:', '  summary: toc.md', ''].join('\n');
    const repository = new Map<string, string | Buffer>([['.gitbook.yaml', config]]);
    for (const [path, content] of gitSyncRepository(4096)) {
      repository.set(`docs/${path === 'SUMMARY.md' ? 'toc.md' : path}`, content);
    }
    const source = join(dir, 'empty-first');
    writeFolder(source, repository);
    const quire = inProcessQuire(dir, 'home-empty-first');
    const mirror = join(dir, 'm-empty-first');
    await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', mirror);
    expect((await quire('sync', '--once')).code).toBe(0);
    const space = join(mirror, 'Acme', 'Empty first');
    const before = filesUnder(space);
    expect((await quire('import', source, '--space', 's-empty-first', '--merge')).code).toBe(0);
    const synced = await quire('sync', '--once');
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    expect(before).toEqual(['SUMMARY.md']);
    expect(filesUnder(space)).toEqual([...repository.keys()].sort());
    expect(synced.stdout).not.toContain('problem');
  }, 120_000);

  it('keeps both when it changed here and on the server; pushes once the copy is merged', async () => {
    const repository = gitSyncRepository(4096);
    repository.set('.gitbook.yaml', CONFIG);
    const source = join(dir, 'conflict-source');
    writeFolder(source, repository);
    const quire = inProcessQuire(dir, 'home-conflict');
    const mirror = join(dir, 'm-conflict');
    await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', mirror);
    expect((await quire('import', source, '--space', 's-yaml-conflict', '--merge')).code).toBe(0);
    expect((await quire('sync', '--once')).code).toBe(0);
    const space = join(mirror, 'Acme', 'Config conflict');

    const ours = CONFIG.replace('# Git Sync', '# Ours');
    const theirs = CONFIG.replace('# Git Sync', '# Theirs');
    writeFileSync(join(space, '.gitbook.yaml'), ours);
    const path = '/v1/spaces/s-yaml-conflict/git/config';
    expect((await t.request('PUT', path, TOKENS.dora, { text: theirs })).status).toBe(200);
    const held = await quire('sync', '--once');
    expect(held.stdout).toContain('.gitbook.yaml changed here and on the server');
    expect(await serverConfig('s-yaml-conflict')).toBe(theirs);
    expect(readFileSync(join(space, '.gitbook.yaml'), 'utf8')).toBe(ours);
    expect(readFileSync(join(space, '.gitbook.yaml.server'), 'utf8')).toBe(theirs);
    const still = await quire('sync', '--once');
    expect(still.stdout).toContain('is not pushed until .gitbook.yaml.server is merged');
    expect(await serverConfig('s-yaml-conflict')).toBe(theirs);

    const merged = CONFIG.replace('# Git Sync', '# Ours and theirs');
    writeFileSync(join(space, '.gitbook.yaml'), merged);
    rmSync(join(space, '.gitbook.yaml.server'));
    expect((await quire('sync', '--once')).code).toBe(0);
    expect(await serverConfig('s-yaml-conflict')).toBe(merged);
  }, 120_000);

  it('quire import stops on an unsafe .gitbook.yaml before sending anything', async () => {
    const source = join(dir, 'hostile');
    const repository = gitSyncRepository(4096);
    repository.set('.gitbook.yaml', 'root: ../../etc/\n');
    writeFolder(source, repository);
    const quire = inProcessQuire(dir, 'home-hostile');
    await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', join(dir, 'm3'));
    const before = t.db.prepare('SELECT count(*) FROM change_requests').pluck().get();
    const refused = await quire('import', source, '--space', 's-inferred');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('.gitbook.yaml: root "../../etc/" leaves the repository');
    expect(t.db.prepare('SELECT count(*) FROM change_requests').pluck().get()).toBe(before);
  });

  it('imports a folder without SUMMARY.md with the tree Git Sync infers', async () => {
    const source = join(dir, 'no-summary');
    writeFolder(
      source,
      new Map([
        ['README.md', '# Start\n'],
        ['b-guide.md', '# Guide\n'],
        ['a-section/README.md', '# Section\n'],
        ['a-section/2-two.md', '# Two\n'],
        ['a-section/1-one.md', '# One\n'],
      ]),
    );
    const quire = inProcessQuire(dir, 'home-inferred');
    await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', join(dir, 'm2'));
    const imported = await quire('import', source, '--space', 's-inferred', '--merge');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('inferred from the folders');
    const response = await t.request('GET', '/v1/spaces/s-inferred/content', TOKENS.cleo);
    type Page = { title: string; pages: Page[] };
    const titles = (pages: Page[]): unknown[] =>
      pages.map((page) => (page.pages.length ? [page.title, titles(page.pages)] : page.title));
    expect(titles(((await response.json()) as { pages: Page[] }).pages)).toEqual([
      'Start',
      ['Section', ['One', 'Two']],
      'Guide',
    ]);
  }, 60_000);
});
