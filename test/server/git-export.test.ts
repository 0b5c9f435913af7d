import { join } from 'node:path';
import * as tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitSyncProcessorFor } from '../../src/server/gitsync-import/git-sync-routes';
import { gitSyncRepository } from '../import/gitsync-repository';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { engineFor, readTree, treeAsText } from '../sync/sync-test-kit';

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

/** The entries of a tar, by path. */
async function untar(bytes: Buffer): Promise<Map<string, Buffer>> {
  const extract = tar.extract();
  const files = new Map<string, Buffer>();
  const done = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.set(entry.header.name, Buffer.concat(chunks));
    }
  })();
  extract.end(bytes);
  await done;
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

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
