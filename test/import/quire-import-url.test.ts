import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitSyncProcessorFor } from '../../src/server/gitsync-import/git-sync-routes';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { inProcessQuire } from '../sync/in-process-quire';
import { gitSyncRepository } from './gitsync-repository';

let t: TestServer;
let host: GitHttpServer;
let dir: string;

const SECRET = 'hunter2-Secret';

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    { id: 's-url', title: 'From URL' },
    { id: 's-url-open', title: 'From URL, open' },
  );
  t = await startTestServer({ fixture });
  gitSyncProcessorFor(t.server.ctx).settings.allowedAddresses = ['127.0.0.1'];
  host = await startGitHttpServer();
  host.addRepository('docs', gitSyncRepository(4096));
  host.credentials.set('docs', { user: 'reader', password: SECRET });
  dir = mkdtempSync(join(tmpdir(), 'quire-import-url-'));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const repository = (password: string) =>
  `http://reader:${password}@${host.url.slice('http://'.length)}/docs.git`;

describe('quire import <url>', () => {
  it('has the server import a repository by URL, merged or left open, and never prints the credentials', async () => {
    const quire = inProcessQuire(dir);
    const mirror = join(dir, 'mirror');
    expect(
      (await quire('login', '--server', t.url, '--token', TOKENS.cleo, '--folder', mirror)).code,
    ).toBe(0);

    const merged = await quire('import', repository(SECRET), '--space', 's-url', '--merge');
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toBe(
      `Imported ${host.url}/docs.git (refs/heads/main) into space "s-url", merged.\n`,
    );
    const live = await t.request('GET', '/v1/spaces/s-url/content', TOKENS.cleo);
    const titles = ((await live.json()) as { pages: { title: string }[] }).pages.map(
      (p) => p.title,
    );
    expect(titles).toEqual(['Welcome', 'Guides', 'Über uns', 'Changelog']);

    const open = await quire(
      'import',
      repository(SECRET),
      '--space',
      's-url-open',
      '--ref',
      'main',
    );
    expect(open.code).toBe(0);
    expect(open.stdout).toContain('as a change request, open for review');
  });

  it('says why the server could not import, without the credentials', async () => {
    const quire = inProcessQuire(dir);
    const wrong = await quire('import', repository(`x${SECRET}`), '--space', 's-url-open');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('HTTP 401');
    const missing = await quire(
      'import',
      repository(SECRET),
      '--space',
      's-url-open',
      '--ref',
      'refs/heads/nope',
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('refs/heads/nope is not in the repository');
    for (const run of [wrong, missing]) expect(run.stdout + run.stderr).not.toContain(SECRET);
    let log = '';
    try {
      log = readFileSync(join(dir, 'home', 'logs', 'quire.log'), 'utf8');
    } catch {
      // No log written: nothing to leak.
    }
    expect(log).not.toContain(SECRET);
  });
});
