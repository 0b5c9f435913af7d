import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitSyncProcessorFor } from '../../src/server/gitsync-import/git-sync-routes';
import { gitSyncRepository } from '../import/gitsync-repository';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { engineFor, readTree, treeAsText } from '../sync/sync-test-kit';
import { untar } from '../support/folder-files';

let t: TestServer;
let host: GitHttpServer;

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push({ id: 's-export', title: 'Exported' });
  t = await startTestServer({ fixture });
  gitSyncProcessorFor(t.server.ctx).settings.allowedAddresses = ['127.0.0.1'];
  host = await startGitHttpServer();
  host.addRepository('docs', gitSyncRepository(200 * 1024));
  await t.client(TOKENS.cleo).spaces.importGitRepository('s-export', {
    url: `${host.url}/docs.git`,
    ref: 'refs/heads/main',
  });
  await gitSyncProcessorFor(t.server.ctx).idle();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await host?.close();
});

describe('GET /v1/spaces/{spaceId}/git/export-archive', () => {
  it('is the space as a fresh mirror writes it, byte for byte', async () => {
    const response = await t.request('GET', '/v1/spaces/s-export/git/export-archive', TOKENS.cara);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-tar');
    const exported = await untar(Buffer.from(await response.arrayBuffer()));
    expect(exported.get('SUMMARY.md')?.toString()).toContain('## Guides');
    expect(exported.has('guides/level-1/level-2/level-3/level-4/level-5.md')).toBe(true);
    expect(exported.get('.gitbook/assets/big.png')?.length).toBe(200 * 1024);

    const kit = engineFor(t, TOKENS.cleo);
    try {
      await kit.engine.syncOnce();
      const mirrored = readTree(join(kit.folder, 'Acme', 'Exported'));
      expect(treeAsText(exported)).toEqual(treeAsText(mirrored));
    } finally {
      kit.close();
    }
  });

  it('needs read access like the content it holds', async () => {
    const response = await t.request('GET', '/v1/spaces/s-export/git/export-archive', TOKENS.eve);
    expect([403, 404]).toContain(response.status);
  });
});

describe('POST /v1/spaces/{spaceId}/git/export', () => {
  async function exportTo(body: {
    url: string;
    ref: string;
    commitMessage: string;
    repoProjectDirectory?: string;
    force?: boolean;
  }) {
    await t.client(TOKENS.dora).spaces.exportToGitRepository('s-export', body);
    await gitSyncProcessorFor(t.server.ctx).idle();
    return (await t.client(TOKENS.dora).spaces.getSpaceGitInfo('s-export')).data;
  }

  async function archive(): Promise<Map<string, Buffer>> {
    const response = await t.request('GET', '/v1/spaces/s-export/git/export-archive', TOKENS.cara);
    return untar(Buffer.from(await response.arrayBuffer()));
  }

  it('pushes the layout as one commit to a new branch of the repository', async () => {
    const info = await exportTo({
      url: `${host.url}/docs.git`,
      ref: 'refs/heads/quire-export',
      commitMessage: 'Docs from Quire',
    });
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(treeAsText(host.filesOf('docs', 'quire-export'))).toEqual(treeAsText(await archive()));
  });

  it('replaces only the project directory on an existing branch, keeping the rest', async () => {
    host.addRepository(
      'site',
      new Map([
        ['app/index.js', 'console.log(1);\n'],
        ['docs/stale.md', '# Gone after export\n'],
      ]),
    );
    const info = await exportTo({
      url: `${host.url}/site.git`,
      ref: 'refs/heads/main',
      commitMessage: 'Docs from Quire',
      repoProjectDirectory: 'docs',
    });
    expect(info.operation).toMatchObject({ state: 'success' });
    const pushed = host.filesOf('site');
    expect(pushed.get('app/index.js')?.toString()).toBe('console.log(1);\n');
    expect(pushed.has('docs/stale.md')).toBe(false);
    const expected = new Map(
      [...(await archive())].map(([path, bytes]) => [`docs/${path}`, bytes]),
    );
    const docs = new Map([...pushed].filter(([path]) => path.startsWith('docs/')));
    expect(treeAsText(docs)).toEqual(treeAsText(expected));
  });
});
