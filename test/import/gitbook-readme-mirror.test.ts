import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { inProcessQuire } from '../sync/in-process-quire';
import { gitSyncRepository, gitSyncRepositoryWithReadme } from './gitsync-repository';
import { filesUnder, untar, writeFolder } from '../support/folder-files';

let t: TestServer;
let dir: string;

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    { id: 's-readme', title: 'Renamed readme' },
    { id: 's-readme-late', title: 'Renamed late' },
  );
  t = await startTestServer({ fixture });
  dir = mkdtempSync(join(tmpdir(), 'quire-gitbook-readme-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

type Page = { id: string; title: string; markdown?: string; pages: Page[] };

async function firstPage(path: string): Promise<Page> {
  const response = await t.request('GET', `${path}?format=markdown`, TOKENS.cleo);
  return ((await response.json()) as { pages: Page[] }).pages[0]!;
}

describe(".gitbook.yaml's structure.readme through import, merge, mirror and export", () => {
  it('mirrors and exports the first page under its name; edits and links to it round-trip', async () => {
    const repository = gitSyncRepositoryWithReadme(4096);
    const source = join(dir, 'repository');
    writeFolder(source, repository);
    const quire = inProcessQuire(dir);
    const mirror = join(dir, 'mirror');
    await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', mirror);
    const imported = await quire('import', source, '--space', 's-readme', '--merge');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).not.toContain('problem');
    const synced = await quire('sync', '--once');
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    expect(synced.stdout).not.toContain('problem');

    // A fresh mirror is the repository, byte for byte: intro.md, toc.md, `../intro.md` links.
    const space = join(mirror, 'Acme', 'Renamed readme');
    const expected = [...repository.keys()].sort();
    expect(filesUnder(space)).toEqual(expected);
    for (const [path, content] of repository) {
      expect(readFileSync(join(space, path)).equals(Buffer.from(content)), path).toBe(true);
    }
    const welcome = await firstPage('/v1/spaces/s-readme/content');
    expect(welcome.title).toBe('Welcome');
    const steps = await t.request(
      'GET',
      '/v1/spaces/s-readme/content/path/getting-started/first-steps?format=markdown',
      TOKENS.cleo,
    );
    expect(JSON.stringify(await steps.json())).toContain(`(/pages/${welcome.id})`);

    // The export archive is the same folder.
    const response = await t.request('GET', '/v1/spaces/s-readme/git/export-archive', TOKENS.cleo);
    expect(response.status).toBe(200);
    const exported = await untar(Buffer.from(await response.arrayBuffer()));
    expect([...exported.keys()].sort()).toEqual(expected);
    for (const [path, content] of repository) {
      expect(exported.get(path)?.equals(Buffer.from(content)), path).toBe(true);
    }

    // intro.md is the first page: an edit there (with a link back to it) updates that page.
    const intro = join(space, 'docs', 'intro.md');
    const edited = `${readFileSync(intro, 'utf8')}\nEdited in [the intro](intro.md#welcome).\n`;
    writeFileSync(intro, edited);
    const pushed = await quire('sync', '--once');
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain('1 change pushed');
    const changed = await firstPage('/v1/spaces/s-readme/change-requests/2/content');
    expect(changed.id).toBe(welcome.id);
    expect(changed.markdown).toContain(`Edited in [the intro](/pages/${welcome.id}#welcome).`);
    expect(readFileSync(intro, 'utf8')).toBe(edited);
    expect(filesUnder(space)).toEqual(expected);

    // A README.md beside it is an ordinary new page, placed last: the first page stays intro.md.
    writeFileSync(join(space, 'docs', 'README.md'), '# Notes\n\nNot the first page.\n');
    const added = await quire('sync', '--once');
    expect(added.code, added.stdout + added.stderr).toBe(0);
    expect(added.stdout).toContain('1 change pushed');
    const tree = await t.request(
      'GET',
      '/v1/spaces/s-readme/change-requests/2/content?format=markdown',
      TOKENS.cleo,
    );
    const pages = ((await tree.json()) as { pages: Page[] }).pages;
    expect(pages[0]!.id).toBe(welcome.id);
    expect(pages.at(-1)!.title).toBe('Notes');
    expect((await quire('sync', '--once')).stdout).not.toContain('problem');
    expect(readFileSync(join(space, 'docs', 'README.md'), 'utf8')).toContain('Not the first page.');
    expect(filesUnder(space)).toEqual([...expected, 'docs/README.md'].sort());
  }, 120_000);

  it('never moves an existing mirror to the new names, and says so', async () => {
    const quire = inProcessQuire(dir, 'home-late');
    const mirror = join(dir, 'm-late');
    await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', mirror);
    const plain = join(dir, 'plain');
    writeFolder(plain, gitSyncRepository(4096));
    expect((await quire('import', plain, '--space', 's-readme-late', '--merge')).code).toBe(0);
    expect((await quire('sync', '--once')).code).toBe(0);
    const space = join(mirror, 'Acme', 'Renamed late');
    expect(filesUnder(space)).toContain('README.md');

    const renamed = join(dir, 'renamed');
    writeFolder(renamed, gitSyncRepositoryWithReadme(4096));
    expect((await quire('import', renamed, '--space', 's-readme-late', '--merge')).code).toBe(0);
    const held = await quire('sync', '--once');
    expect(held.code, held.stdout + held.stderr).toBe(0);
    const status = (await quire('status')).stdout;
    expect(status).toContain('"docs/toc.md" and "docs/intro.md"');
    expect(status).toContain('It goes on syncing as it is; a new mirror of the space');
    expect(filesUnder(space)).toContain('README.md');
    expect(filesUnder(space)).not.toContain('docs/intro.md');
  }, 120_000);
});
