import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/build-server';
import { openDatabase } from '../../src/server/db/open-database';
import { loadFixture } from '../../src/server/fixture/load-fixture';
import { gitSyncProcessorFor } from '../../src/server/gitsync-import/git-sync-routes';
import { gitSyncRepository } from '../import/gitsync-repository';
import { startGitHttpServer } from '../support/git-http-server';
import { TOKENS, testFixture } from '../support/test-fixture';

const SECRET = 'Top-Secret-42';

describe('Git import logs', () => {
  it('never logs the credentials of a repository URL, whatever the outcome', async () => {
    let logged = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const db = openDatabase(':memory:');
    const fixture = testFixture();
    fixture.organizations[0]!.spaces!.push({ id: 's-logged', title: 'Logged' });
    loadFixture(db, fixture, { now: () => new Date() });
    const server = buildServer({
      db,
      logger: { level: 'trace', stream },
      config: { sweepIntervalMs: 0, cpuWarmThreads: 0 },
    });
    const host = await startGitHttpServer();
    try {
      host.addRepository('docs', gitSyncRepository(1024));
      host.credentials.set('docs', { user: 'reader', password: SECRET });
      gitSyncProcessorFor(server.ctx).settings.allowedAddresses = ['127.0.0.1'];
      const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
      const hostPart = host.url.slice('http://'.length);
      for (const [password, ref] of [
        [SECRET, 'refs/heads/main'],
        [`wrong-${SECRET}`, 'refs/heads/main'],
        [SECRET, 'refs/heads/missing'],
      ] as const) {
        const response = await fetch(`${url}/v1/spaces/s-logged/git/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKENS.cleo}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `http://reader:${password}@${hostPart}/docs.git`, ref }),
        });
        expect(response.status).toBe(204);
        await gitSyncProcessorFor(server.ctx).idle();
      }
      expect(logged).toContain('/v1/spaces/s-logged/git/import');
      expect(logged).not.toContain(SECRET);
    } finally {
      await server.close();
      db.close();
      await host.close();
    }
  });
});
