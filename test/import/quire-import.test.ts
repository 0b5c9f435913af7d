import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/auth/token-hash';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { inProcessQuire } from '../sync/in-process-quire';
import { gitSyncRepository } from './gitsync-repository';
import { filesUnder, writeFolder } from '../support/folder-files';

let t: TestServer;
let dir: string;

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    { id: 's-imported', title: 'Imported' },
    { id: 's-left-open', title: 'Left open' },
  );
  t = await startTestServer({ fixture });
  dir = mkdtempSync(join(tmpdir(), 'quire-import-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('quire import', () => {
  it('imports a Git Sync repository; merged and mirrored, it comes back byte for byte', async () => {
    const repository = gitSyncRepository(20 * 1024 * 1024);
    const source = join(dir, 'repository');
    writeFolder(source, repository);
    // Not part of the layout: never sent.
    writeFileSync(join(source, 'notes.txt'), 'scratch');
    mkdirSync(join(source, '.git'));
    writeFileSync(join(source, '.git', 'HEAD'), 'ref: refs/heads/main\n');

    const quire = inProcessQuire(dir);
    const mirror = join(dir, 'mirror');
    expect(
      (await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', mirror)).code,
    ).toBe(0);
    const imported = await quire(
      'import',
      source,
      '--space',
      's-imported',
      '--subject',
      'From Git Sync',
      '--merge',
    );
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(
      /Imported 14 pages and 2 files .* change request #1 "From Git Sync" of space s-imported, merged\./,
    );

    const synced = await quire('sync', '--once');
    expect(synced.code, synced.stderr).toBe(0);
    const space = join(mirror, 'Acme', 'Imported');
    expect(filesUnder(space)).toEqual([...repository.keys()].sort());
    for (const [path, content] of repository) {
      const written = readFileSync(join(space, path));
      expect(
        written.equals(Buffer.from(content)),
        `${path} differs:\n${written.toString('utf8').slice(0, 2000)}`,
      ).toBe(true);
    }
  }, 120_000);

  it('leaves the change request open without --merge, and reports problems per file', async () => {
    const source = join(dir, 'open');
    const repository = gitSyncRepository(4096);
    repository.set('stray.md', '# Nobody lists me\n');
    writeFolder(source, repository);
    const quire = inProcessQuire(dir, 'home-open');
    await quire('login', '--server', t.url, '--token', TOKENS.dora, '--folder', join(dir, 'm2'));
    const result = await quire('import', source, '--space', 's-left-open');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('stray.md: not listed in SUMMARY.md');
    expect(result.stdout).toContain('open for review');
    expect(result.stdout).toMatch(/Review it: http/);
    const crs = await t.request('GET', '/v1/spaces/s-left-open/change-requests', TOKENS.dora);
    const list = (await crs.json()) as { items: { subject: string; status: string }[] };
    expect(list.items).toEqual([
      expect.objectContaining({ status: 'open', subject: 'Import from Git Sync' }),
    ]);
  }, 60_000);

  it('says clearly what went wrong: usage, unknown space, refused archive, token', async () => {
    const source = join(dir, 'errors-source');
    writeFolder(source, gitSyncRepository(4096));
    const quire = inProcessQuire(dir, 'home-errors');
    await quire('login', '--server', t.url, '--token', TOKENS.dora, '--folder', join(dir, 'm3'));
    const usage = await quire('import', source);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: quire import <folder> --space <spaceId>');
    const unknown = await quire('import', source, '--space', 's-nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no space "s-nope" on the server');
    const clash = join(dir, 'clash');
    writeFolder(clash, gitSyncRepository(4096));
    writeFileSync(join(clash, 'Changelog.md'), '# Twice\n');
    const refused = await quire('import', clash, '--space', 's-left-open');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /the server refused the import: 400: body: archive entry "changelog.md" differs from "Changelog.md" only in case/,
    );
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const notLayout = await quire('import', empty, '--space', 's-left-open');
    expect(notLayout.code).toBe(2);
    expect(notLayout.stderr).toContain('holds no Git Sync layout');

    const revoked = inProcessQuire(dir, 'home-revoked');
    await revoked('login', '--server', t.url, '--token', TOKENS.cara, '--folder', join(dir, 'm4'));
    t.db.prepare('DELETE FROM tokens WHERE hash = ?').run(hashToken(TOKENS.cara));
    const rejected = await revoked('import', source, '--space', 's-left-open');
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain('the server rejected the token: run `quire login` again');
  }, 60_000);
});
