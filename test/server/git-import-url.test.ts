import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitSyncProcessor } from '../../src/server/gitsync-import/git-sync-processor';
import { GitSyncQueries } from '../../src/server/gitsync-import/git-sync-queries';
import { gitSyncProcessorFor } from '../../src/server/gitsync-import/git-sync-routes';
import { gitSyncRepository } from '../import/gitsync-repository';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

let t: TestServer;
let host: GitHttpServer;

const SPACES = [
  's-git',
  's-git-standalone',
  's-git-bad',
  's-git-auth',
  's-git-big',
  's-git-mono',
  's-git-resume',
  's-git-resume-auth',
];

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(...SPACES.map((id) => ({ id, title: id })));
  t = await startTestServer({ fixture });
  gitSyncProcessorFor(t.server.ctx).settings.allowedAddresses = ['127.0.0.1'];
  host = await startGitHttpServer();
  host.addRepository('docs', gitSyncRepository(300 * 1024));
  host.addRepository('private', gitSyncRepository(1024));
  host.credentials.set('private', { user: 'reader', password: 's3cret-Pa55' });
  const mono = new Map<string, string | Buffer>([['app/index.js', 'console.log(1);\n']]);
  for (const [path, content] of gitSyncRepository(1024)) mono.set(`docs/${path}`, content);
  host.addRepository('mono', mono);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await host?.close();
});

interface PageJson {
  type: string;
  title: string;
  slug?: string;
  description?: string;
  hidden?: boolean;
  pages?: PageJson[];
}

const outline = (pages: PageJson[]): unknown[] =>
  pages.map((page) => [page.type, page.title, outline(page.pages ?? [])]);

/** Queues an import through the published client and waits for the processor to finish it. */
async function importFrom(
  spaceId: string,
  body: { url: string; ref: string; standalone?: boolean; repoProjectDirectory?: string },
  token: string = TOKENS.cleo,
) {
  await t.client(token).spaces.importGitRepository(spaceId, body);
  await gitSyncProcessorFor(t.server.ctx).idle();
  return (await t.client(token).spaces.getSpaceGitInfo(spaceId)).data;
}

describe('POST /v1/spaces/{spaceId}/git/import', () => {
  it('imports a repository by URL into the space: groups, SUMMARY order, README children, frontmatter, files', async () => {
    const info = await importFrom('s-git', { url: `${host.url}/docs.git`, ref: 'refs/heads/main' });
    expect(info).toMatchObject({
      installationStatus: 'active',
      installationProvider: 'github',
      repoName: 'docs',
      url: `${host.url}/docs.git`,
      operation: { state: 'success', direction: 'import' },
    });
    const live = await t.request('GET', '/v1/spaces/s-git/content', TOKENS.cleo);
    const tree = (await live.json()) as {
      pages: PageJson[];
      files: { name: string; size: number }[];
    };
    expect(outline(tree.pages)).toEqual([
      [
        'document',
        'Welcome',
        [
          ['document', 'First steps', []],
          ['document', 'Café & crème', []],
        ],
      ],
      [
        'group',
        'Guides',
        [
          [
            'document',
            'Level 1',
            [
              [
                'document',
                'Level 2',
                [['document', 'Level 3', [['document', 'Level 4', [['document', 'Level 5', []]]]]]],
              ],
            ],
          ],
          ['document', 'Hidden page', []],
        ],
      ],
      [
        'group',
        'Über uns',
        [
          ['document', 'Team', []],
          ['link', 'GitBook', []],
        ],
      ],
      ['document', 'Changelog', []],
    ]);
    expect(tree.pages[0]).toMatchObject({ description: 'Where it all starts.' });
    expect(tree.pages[1]!.pages![1]).toMatchObject({ hidden: true });
    const big = tree.files.find((file) => file.name === 'big.png');
    expect(big?.size).toBe(300 * 1024);
    expect(tree.files.map((file) => file.name).sort()).toEqual(['big.png', 'logo mark.png']);
  });

  it('standalone leaves the import as an open change request and the space unchanged', async () => {
    const info = await importFrom(
      's-git-standalone',
      { url: `${host.url}/docs.git`, ref: 'main', standalone: true },
      TOKENS.dora,
    );
    expect(info.operation).toMatchObject({ state: 'success' });
    const live = await t.request('GET', '/v1/spaces/s-git-standalone/content', TOKENS.dora);
    expect(((await live.json()) as { pages: unknown[] }).pages).toEqual([]);
    const list = await t.request('GET', '/v1/spaces/s-git-standalone/change-requests', TOKENS.dora);
    const requests = (await list.json()) as { items: { status: string; subject: string }[] };
    expect(requests.items).toEqual([
      expect.objectContaining({ status: 'open', subject: expect.stringContaining('docs.git') }),
    ]);
  });

  it('needs the review role to update the space, edit for standalone', async () => {
    const body = { url: `${host.url}/docs.git`, ref: 'refs/heads/main' };
    const refused = await t.request('POST', '/v1/spaces/s-git-bad/git/import', TOKENS.dora, body);
    expect(refused.status).toBe(403);
  });

  it('refuses a private address at once, naming the reason', async () => {
    for (const [url, reason] of [
      ['http://10.0.0.7/docs.git', 'a private address (10.0.0.7)'],
      ['http://169.254.169.254/latest.git', 'a link-local address'],
      ['http://localhost:9/docs.git', 'a loopback address'],
    ] as const) {
      const response = await t.request('POST', '/v1/spaces/s-git-bad/git/import', TOKENS.cleo, {
        url,
        ref: 'refs/heads/main',
      });
      expect(await expectError(response, 400)).toContain(reason);
    }
    const ssh = await t.request('POST', '/v1/spaces/s-git-bad/git/import', TOKENS.cleo, {
      url: 'ssh://git@example.com/docs.git',
      ref: 'refs/heads/main',
    });
    expect(await expectError(ssh, 400)).toContain('http or https');
    for (const path of ['import', 'export']) {
      const climbing = await t.request('POST', `/v1/spaces/s-git-bad/git/${path}`, TOKENS.cleo, {
        url: `${host.url}/docs.git`,
        ref: 'refs/heads/main',
        ...(path === 'export' ? { commitMessage: 'x' } : {}),
        repoProjectDirectory: 'docs/../../etc',
      });
      expect(await expectError(climbing, 400)).toContain('body.repoProjectDirectory climbs out');
    }
  });

  it('records a redirect to a private address as a failure, and does not follow it', async () => {
    host.redirects.set('/moved.git/', 'http://169.254.169.254/docs.git/');
    const info = await importFrom('s-git-bad', { url: `${host.url}/moved.git`, ref: 'main' });
    expect(info.operation).toMatchObject({ state: 'failure', direction: 'import' });
    expect(info.operation?.error).toContain('link-local address (169.254.169.254)');
  });

  it('records a missing ref as a clear failure', async () => {
    const info = await importFrom('s-git-bad', {
      url: `${host.url}/docs.git`,
      ref: 'refs/heads/nope',
    });
    expect(info.operation).toMatchObject({ state: 'failure' });
    expect(info.operation?.error).toContain('refs/heads/nope is not in the repository');
  });

  it('refuses a repository over the size limit', async () => {
    const processor = gitSyncProcessorFor(t.server.ctx);
    processor.settings.maxRepositoryBytes = 8 * 1024;
    try {
      const info = await importFrom('s-git-big', { url: `${host.url}/docs.git`, ref: 'main' });
      expect(info.operation).toMatchObject({ state: 'failure' });
      expect(info.operation?.error).toContain("larger than the server's limit of 8192 bytes");
    } finally {
      processor.settings.maxRepositoryBytes = 512 * 1024 * 1024;
    }
    const live = await t.request('GET', '/v1/spaces/s-git-big/content', TOKENS.cleo);
    expect(((await live.json()) as { pages: unknown[] }).pages).toEqual([]);
  });

  it('uses credentials in the URL without storing or showing them', async () => {
    const secret = 's3cret-Pa55';
    const wrong = await importFrom('s-git-auth', {
      url: `http://reader:wrong-${secret}@${host.url.slice(7)}/private.git`,
      ref: 'main',
    });
    expect(wrong.operation).toMatchObject({ state: 'failure' });
    expect(wrong.operation?.error).toContain('HTTP 401');
    expect(JSON.stringify(wrong)).not.toContain(secret);

    const info = await importFrom('s-git-auth', {
      url: `http://reader:${secret}@${host.url.slice(7)}/private.git`,
      ref: 'main',
    });
    expect(info.operation).toMatchObject({ state: 'success' });
    expect(info.url).toBe(`${host.url}/private.git`);
    expect(JSON.stringify(info)).not.toContain(secret);
    const stored = [
      ...t.db.prepare('SELECT * FROM space_git_sync').all(),
      ...t.db.prepare('SELECT * FROM git_sync_jobs').all(),
      ...t.db.prepare('SELECT subject FROM change_requests').all(),
    ];
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(host.authorizations).toContain(
      `Basic ${Buffer.from(`reader:${secret}`).toString('base64')}`,
    );
  });

  it('answers 404 for git/info of a space never imported from a URL', async () => {
    const response = await t.request('GET', '/v1/spaces/s-1/git/info', TOKENS.cleo);
    expect([403, 404]).toContain(response.status);
  });

  it('imports only repoProjectDirectory of a repository', async () => {
    const info = await importFrom('s-git-mono', {
      url: `${host.url}/mono.git`,
      ref: 'main',
      repoProjectDirectory: 'docs',
    });
    expect(info.operation).toMatchObject({ state: 'success' });
    const live = await t.request('GET', '/v1/spaces/s-git-mono/content', TOKENS.cleo);
    const tree = (await live.json()) as { pages: PageJson[] };
    expect(tree.pages.map((page) => page.title)).toEqual([
      'Welcome',
      'Guides',
      'Über uns',
      'Changelog',
    ]);
  });

  it('after a restart, resumes what a stopped server left, and fails what needed credentials', async () => {
    const queries = new GitSyncQueries(t.db);
    const job = (spaceId: string, hasCredentials: boolean) =>
      queries.enqueue(
        {
          spaceId,
          userId: 'u-cleo',
          direction: 'import',
          url: `${host.url}/docs.git`,
          hasCredentials,
          ref: 'refs/heads/main',
          options: {},
          provider: 'github',
          treeUrl: undefined,
        },
        new Date().toISOString(),
      );
    // Claimed by a server that stopped before recording anything.
    const ids = [job('s-git-resume', false), job('s-git-resume-auth', true)];
    t.db.prepare('UPDATE git_sync_jobs SET started_at = ? WHERE id IN (?, ?)').run('then', ...ids);

    const restarted = new GitSyncProcessor(t.server.ctx, (error) => {
      throw error;
    });
    restarted.settings.allowedAddresses = ['127.0.0.1'];
    restarted.start();
    await restarted.idle();
    await restarted.stop();
    expect(queries.state('s-git-resume')).toMatchObject({ state: 'success' });
    expect(queries.state('s-git-resume-auth')).toMatchObject({
      state: 'failure',
      error: expect.stringContaining('credentials are never stored'),
    });
    expect(t.db.prepare('SELECT count(*) FROM git_sync_jobs').pluck().get()).toBe(0);
  });
});
