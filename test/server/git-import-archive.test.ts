import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture, PNG_BASE64 } from '../support/test-fixture';
import { tarOf, zipOf, type TestEntry } from '../support/archives';

let t: TestServer;

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    { id: 's-import', title: 'Import target' },
    { id: 's-safety', title: 'Archive safety' },
    { id: 's-zip', title: 'Zip import' },
  );
  t = await startTestServer({ fixture });
});
afterAll(async () => t.close());

const PNG = Buffer.from(PNG_BASE64, 'base64');

const LAYOUT: TestEntry[] = [
  {
    name: 'SUMMARY.md',
    content: [
      '# Table of contents',
      '',
      '* [Welcome](README.md)',
      '  * [Child of welcome](getting-started/child.md)',
      '',
      '## Guides <a href="#the-guides" id="the-guides"></a>',
      '',
      '* [Setup](the-guides/setup/README.md)',
      '  * [Deep step](the-guides/setup/deep-step.md)',
      '* [GitBook](https://www.gitbook.com)',
      '',
    ].join('\n'),
  },
  { name: 'README.md', content: '# Welcome\n\nSee [setup](the-guides/setup/#install).\n' },
  {
    name: 'getting-started/child.md',
    content:
      '---\ndescription: A child\nhidden: true\nicon: rocket\n---\n\n# Child\n\n![](../.gitbook/assets/pixel.png)\n',
  },
  { name: 'the-guides/setup/README.md', content: '# Setup\n\nGo to [deep](deep-step.md#top).\n' },
  { name: 'the-guides/setup/deep-step.md', content: '# Deep step\n\nDone.\n' },
  { name: 'unlisted.md', content: '# Nobody lists me\n' },
  { name: '.gitbook/assets/pixel.png', content: PNG },
  {
    name: '.gitbook.yaml',
    content: 'root: ./\nredirects:\n  old/page: the-guides/setup/README.md\n',
  },
];

async function upload(
  spaceId: string,
  body: Buffer,
  type = 'application/x-tar',
  query = '',
  token: string = TOKENS.dora,
): Promise<Response> {
  return fetch(`${t.url}/v1/spaces/${spaceId}/git/import-archive${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body,
  });
}

interface ImportAnswer {
  changeRequest: { id: string; number: number; status: string; subject: string };
  revision: string;
  merged: boolean;
  pages: number;
  files: number;
  redirects: number;
  problems: { path: string; message: string }[];
}

interface PageJson {
  title: string;
  slug: string;
  type: string;
  description?: string;
  hidden?: boolean;
  pages?: PageJson[];
}

describe('POST /v1/spaces/{spaceId}/git/import-archive', () => {
  it('imports a Git Sync layout as one revision of an open change request', async () => {
    const response = await upload(
      's-import',
      await tarOf(LAYOUT),
      undefined,
      '?subject=Moving%20in',
    );
    expect(response.status).toBe(201);
    const answer = (await response.json()) as ImportAnswer;
    expect(answer.changeRequest.status).toBe('open');
    expect(answer.changeRequest.subject).toBe('Moving in');
    expect(answer).toMatchObject({ merged: false, pages: 6, files: 1, redirects: 1 });
    expect(answer.problems).toEqual([expect.objectContaining({ path: 'unlisted.md' })]);

    const content = await t.request(
      'GET',
      `/v1/spaces/s-import/change-requests/${answer.changeRequest.id}/content?format=markdown`,
      TOKENS.dora,
    );
    const tree = (await content.json()) as {
      pages: (PageJson & { markdown?: string })[];
      files: { name: string; id: string }[];
    };
    const outline = (pages: PageJson[]): unknown[] =>
      pages.map((page) => [page.type, page.title, page.slug, outline(page.pages ?? [])]);
    expect(outline(tree.pages)).toEqual([
      ['document', 'Welcome', 'getting-started', [['document', 'Child of welcome', 'child', []]]],
      [
        'group',
        'Guides',
        'the-guides',
        [
          ['document', 'Setup', 'setup', [['document', 'Deep step', 'deep-step', []]]],
          ['link', 'GitBook', undefined, []],
        ],
      ],
    ]);
    const child = tree.pages[0]!.pages![0]!;
    expect(child).toMatchObject({ description: 'A child', hidden: true });
    const fileId = tree.files.find((file) => file.name === 'pixel.png')!.id;
    expect((child as { markdown?: string }).markdown).toContain(`![](/files/${fileId})`);
    const setup = tree.pages[1]!.pages![0]! as PageJson & { id?: string; markdown?: string };
    expect(setup.markdown).toMatch(/\[deep\]\(\/pages\/[A-Za-z0-9]+#top\)/);

    // The space itself is unchanged until the change request is merged.
    const live = await t.request('GET', '/v1/spaces/s-import/content', TOKENS.dora);
    expect(((await live.json()) as { pages: unknown[] }).pages).toEqual([]);
  });

  it('merges at once with merge=true (review role)', async () => {
    const refused = await upload('s-zip', zipOf(LAYOUT), 'application/zip', '?merge=true');
    expect(refused.status).toBe(403);
    const response = await upload(
      's-zip',
      zipOf(LAYOUT),
      'application/zip',
      '?merge=true',
      TOKENS.cleo,
    );
    expect(response.status).toBe(201);
    const answer = (await response.json()) as ImportAnswer;
    expect(answer.merged).toBe(true);
    const live = await t.request('GET', '/v1/spaces/s-zip/content', TOKENS.cleo);
    const tree = (await live.json()) as { pages: PageJson[]; files: unknown[] };
    expect(tree.pages.map((page) => page.title)).toEqual(['Welcome', 'Guides']);
    expect(tree.files).toHaveLength(1);
  });

  it('takes an archive larger than the JSON body limit (10 MB)', async () => {
    const big = Buffer.alloc(12 * 1024 * 1024, 1);
    const archive = await tarOf([...LAYOUT, { name: '.gitbook/assets/big.bin', content: big }]);
    const response = await upload('s-import', archive);
    expect(response.status).toBe(201);
    expect(((await response.json()) as ImportAnswer).files).toBe(2);
  });

  it('refuses a body that is not an archive type, and an unreadable archive', async () => {
    expect((await upload('s-safety', Buffer.from('{}'), 'application/json')).status).toBe(415);
    expect((await upload('s-safety', Buffer.from('{}'), 'text/plain')).status).toBe(415);
    const garbage = await upload('s-safety', Buffer.alloc(2048, 7));
    expect(garbage.status).toBe(400);
  });

  it('GET …/git/info answers 404 through the published client: no space has Git Sync here', async () => {
    const info = await clientError(t.client(TOKENS.cara).spaces.getSpaceGitInfo('s-import'));
    expect(info.code).toBe(404);
    const other = await t.request('GET', '/v1/spaces/s-import/git/info', TOKENS.eve);
    expect(other.status).toBe(404);
  });

  describe('archive safety: 400 naming the entry, nothing written', () => {
    const bomb = Buffer.alloc(20 * 1024 * 1024);
    const cases: { label: string; entries: TestEntry[]; entry: string; zip?: boolean }[] = [
      { label: '../', entries: [{ name: '../escape.md', content: '# x' }], entry: '../escape.md' },
      {
        label: 'nested ../',
        entries: [{ name: 'a/../../b.md', content: '# x' }],
        entry: 'a/../../b.md',
      },
      {
        label: 'absolute path',
        entries: [{ name: '/etc/passwd.md', content: 'x' }],
        entry: '/etc/passwd.md',
      },
      {
        label: 'symlink',
        entries: [{ name: 'link.md', type: 'symlink', linkname: '/etc/passwd' }],
        entry: 'link.md',
      },
      {
        label: 'hard link',
        entries: [{ name: 'hard.md', type: 'link', linkname: 'README.md' }],
        entry: 'hard.md',
      },
      {
        label: 'device file',
        entries: [{ name: 'dev.md', type: 'character-device' }],
        entry: 'dev.md',
      },
      {
        label: 'names differing only in case',
        entries: [
          { name: 'Guide.md', content: '# a' },
          { name: 'guide.md', content: '# b' },
        ],
        entry: 'guide.md',
      },
      {
        label: 'zip ../',
        entries: [{ name: '../zip-escape.md', content: 'x' }],
        entry: '../zip-escape.md',
        zip: true,
      },
      {
        label: 'zip absolute',
        entries: [{ name: '/abs.md', content: 'x' }],
        entry: '/abs.md',
        zip: true,
      },
      {
        label: 'zip symlink',
        entries: [{ name: 'zl.md', type: 'symlink', linkname: '../../x' }],
        entry: 'zl.md',
        zip: true,
      },
      {
        label: 'zip bomb (ratio)',
        entries: [{ name: '.gitbook/assets/bomb.png', content: bomb }],
        entry: '.gitbook/assets/bomb.png',
        zip: true,
      },
    ];
    for (const { label, entries, entry, zip } of cases) {
      it(label, async () => {
        const before = counts();
        const archive = [...LAYOUT, ...entries];
        const response = zip
          ? await upload('s-safety', zipOf(archive), 'application/zip')
          : await upload('s-safety', await tarOf(archive));
        expect(response.status).toBe(400);
        const body = (await response.json()) as { error: { message: string } };
        expect(body.error.message).toContain(`"${entry}"`);
        expect(counts()).toEqual(before);
      });
    }
  });
});

function counts(): Record<string, number> {
  const count = (table: string) =>
    (t.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return {
    changeRequests: count('change_requests'),
    revisions: count('revisions'),
    blobs: count('blobs'),
    bodies: count('bodies'),
  };
}
