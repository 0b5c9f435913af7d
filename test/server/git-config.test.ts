import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { tarOf, type TestEntry } from '../support/archives';

let t: TestServer;

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    { id: 's-config', title: 'Config import' },
    { id: 's-config-bad', title: 'Config refused' },
    { id: 's-config-put', title: 'Config put' },
    { id: 's-no-summary', title: 'No summary' },
  );
  t = await startTestServer({ fixture });
});
afterAll(async () => t.close());

const REDIRECTS = Array.from({ length: 300 }, (_, i) => `  old/page-${i}: guide.md`).join('\n');
const CONFIG = `# Where the docs are\nroot: ./docs/\n\nstructure:\n  readme: intro.md\n  summary: toc.md\n\nredirects:\n${REDIRECTS}\n`;

const LAYOUT: TestEntry[] = [
  { name: '.gitbook.yaml', content: CONFIG },
  { name: 'docs/toc.md', content: '# Summary\n\n* [Intro](intro.md)\n* [Guide](guide.md)\n' },
  { name: 'docs/intro.md', content: '# Intro\n' },
  { name: 'docs/guide.md', content: '# Guide\n' },
];

async function upload(spaceId: string, entries: TestEntry[], query = ''): Promise<Response> {
  return fetch(`${t.url}/v1/spaces/${spaceId}/git/import-archive${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKENS.cleo}`, 'content-type': 'application/x-tar' },
    body: await tarOf(entries),
  });
}

interface GitConfig {
  text: string;
  root: string;
  structure: { readme: string; summary: string };
  redirects: Record<string, string>;
}

const getConfig = (spaceId: string, token: string = TOKENS.cara) =>
  t.request('GET', `/v1/spaces/${spaceId}/git/config`, token);

const messageOf = async (response: Response) =>
  ((await response.json()) as { error: { code: number; message: string } }).error.message;

describe('the space Git Sync configuration (.gitbook.yaml)', () => {
  it('is kept with an import until its change request is merged, then is the space’s', async () => {
    const response = await upload('s-config', LAYOUT);
    expect(response.status).toBe(201);
    const answer = (await response.json()) as {
      changeRequest: { id: string };
      redirects: number;
    };
    expect(answer.redirects).toBe(300);
    expect((await getConfig('s-config')).status).toBe(404);

    const merge = `/v1/spaces/s-config/change-requests/${answer.changeRequest.id}/merge`;
    expect((await t.request('POST', merge, TOKENS.cleo)).status).toBe(200);
    const stored = await getConfig('s-config');
    expect(stored.status).toBe(200);
    const config = (await stored.json()) as GitConfig;
    expect(config.text).toBe(CONFIG);
    expect(config.root).toBe('docs/');
    expect(config.structure).toEqual({ readme: 'intro.md', summary: 'toc.md' });
    expect(Object.keys(config.redirects)).toHaveLength(300);
    expect(config.redirects['old/page-299']).toBe('guide.md');
    const rows = t.db.prepare("SELECT count(*) FROM gitsync_configs WHERE space_id = 's-config'");
    expect(rows.pluck().get()).toBe(1);
  });

  describe('a hostile .gitbook.yaml in an import: 400 naming the file, nothing written', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
      .concat(
        ['b', 'c', 'd', 'e'].map((key, i) => `${key}: &${key} [${`*${'abcd'[i]},`.repeat(10)}]`),
      )
      .join('\n');
    const cases: [string, string][] = [
      ['huge', `root: ./\n#${'x'.repeat(300 * 1024)}\n`],
      ['alias bomb', bomb],
      ['root escaping', 'root: ../../etc/\n'],
      ['absolute root', 'root: /etc/\n'],
      ['summary outside', 'structure:\n  summary: ../../SUMMARY.md\n'],
      ['not YAML', 'root: [\n'],
    ];
    for (const [label, text] of cases) {
      it(label, async () => {
        const before = counts();
        const response = await upload('s-config-bad', [
          ...LAYOUT.slice(1),
          { name: '.gitbook.yaml', content: text },
        ]);
        expect(response.status).toBe(400);
        expect(await messageOf(response)).toMatch(/^body: \.gitbook\.yaml /);
        expect(counts()).toEqual(before);
      });
    }
  });

  it('PUT replaces it (edit role), validated and bounded; GET needs read access', async () => {
    const path = '/v1/spaces/s-config-put/git/config';
    const text = 'root: ./\nredirects:\n  a: b.md\n';
    expect((await t.request('PUT', path, null, { text })).status).toBe(401);
    expect((await t.request('PUT', path, TOKENS.cara, { text })).status).toBe(403);
    expect((await t.request('PUT', path, TOKENS.eve, { text })).status).toBe(404);
    expect((await getConfig('s-config-put', TOKENS.eve)).status).toBe(404);
    expect((await t.request('GET', path, null)).status).toBe(401);

    const bad = await t.request('PUT', path, TOKENS.dora, { text: 'root: ../x\n' });
    expect(bad.status).toBe(400);
    expect(await messageOf(bad)).toBe('body.text: .gitbook.yaml root "../x" leaves the repository');
    for (const body of [{}, { text: 3 }, { text, extra: true }, { text: 'x'.repeat(300_000) }]) {
      expect((await t.request('PUT', path, TOKENS.dora, body)).status).toBe(400);
    }
    expect((await getConfig('s-config-put')).status).toBe(404);

    const put = await t.request('PUT', path, TOKENS.dora, { text });
    expect(put.status).toBe(200);
    const expected = {
      text,
      root: '',
      structure: { readme: 'README.md', summary: 'SUMMARY.md' },
      redirects: { a: 'b.md' },
    };
    expect(await put.json()).toEqual(expected);
    expect(await (await getConfig('s-config-put')).json()).toEqual(expected);
  });

  it('imports a layout without SUMMARY.md with the tree inferred from its folders', async () => {
    const response = await upload(
      's-no-summary',
      [
        { name: 'README.md', content: '# Home\n' },
        { name: 'zeta.md', content: '# Zeta\n' },
        { name: 'alpha/README.md', content: '---\nicon: rocket\n---\n\n# Alpha\n' },
        { name: 'alpha/two.md', content: '# Two\n' },
        { name: 'alpha/one.md', content: 'No heading.\n' },
      ],
      '?merge=true',
    );
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { problems: { path: string; message: string }[] };
    expect(answer.problems).toEqual([
      { path: 'SUMMARY.md', message: expect.stringContaining('inferred from the folders') },
    ]);
    const content = await t.request('GET', '/v1/spaces/s-no-summary/content', TOKENS.cleo);
    type Page = { title: string; slug: string; icon?: string; pages: Page[] };
    const outline = (pages: Page[]): unknown[] =>
      pages.map((page) => [page.title, page.slug, outline(page.pages)]);
    const tree = (await content.json()) as { pages: Page[] };
    expect(outline(tree.pages)).toEqual([
      ['Home', 'home', []],
      [
        'Alpha',
        'alpha',
        [
          ['one', 'one', []],
          ['Two', 'two', []],
        ],
      ],
      ['Zeta', 'zeta', []],
    ]);
    expect(tree.pages[1]?.icon).toBe('rocket');
  });
});

function counts(): Record<string, number> {
  const count = (table: string) =>
    (t.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return {
    changeRequests: count('change_requests'),
    revisions: count('revisions'),
    configs: count('gitsync_configs'),
  };
}
