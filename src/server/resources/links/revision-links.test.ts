import { describe, expect, it } from 'vitest';
import type { RevisionTree, StoredPage } from '../../content/revision-tree';
import { resolveRevisionLinks } from './revision-links';

const AT = '2025-01-01T00:00:00.000Z';

function page(
  id: string,
  slug: string,
  pages: StoredPage[] = [],
  type: StoredPage['type'] = 'document',
): StoredPage {
  return { id, type, title: slug, slug, body: `h-${id}`, createdAt: AT, updatedAt: AT, pages };
}

/**
 * Git Sync layout: home → README.md, guides (has children) → guides/README.md,
 * setup → guides/setup.md, the group "reference" → folder reference/, api → reference/api.md.
 */
const tree: RevisionTree = {
  pages: [
    page('home', 'home'),
    page('guides', 'guides', [page('setup', 'setup')]),
    page('ref', 'reference', [page('api', 'api')], 'group'),
  ],
  files: [
    {
      id: 'f-logo',
      name: 'logo (1).png',
      contentType: 'image/png',
      size: 1,
      blob: 'b',
      createdAt: AT,
    },
  ],
};

function links(bodies: Record<string, string>, serverOrigin = 'http://quire.test') {
  return resolveRevisionLinks(tree, { serverOrigin, body: (hash) => bodies[hash.slice(2)] });
}

describe('resolveRevisionLinks', () => {
  it('resolves relative page paths against the Git Sync layout', () => {
    const result = links({
      setup: '[home](../README.md) [guides](README.md) [api](../reference/api.md) [x](./nope.md)',
      api: '[setup](../guides/setup.md#step) [folder](../guides/) [above](../../x.md)',
      home: '[setup](guides/setup.md) [api](reference/api)',
    });
    const byKey = Object.fromEntries(result.map((link) => [link.key, link]));
    expect(byKey['page:home']).toMatchObject({ status: 'ok', pages: ['setup'] });
    expect(byKey['page:guides']).toMatchObject({ status: 'ok', pages: ['setup', 'api'] });
    expect(byKey['page:api']).toMatchObject({ status: 'ok', pages: ['home', 'setup'] });
    expect(byKey['page:setup']).toMatchObject({ status: 'ok', pages: ['home', 'api'] });
    expect(byKey['page-path:guides/nope']).toMatchObject({
      status: 'broken',
      target: { kind: 'page', path: 'guides/nope' },
    });
    expect(byKey['page-path:../../x.md']).toMatchObject({ status: 'broken' });
  });

  it('resolves page ids, slugs and Git-style absolute refs', () => {
    const result = links({
      home: '[a](/pages/setup) [b](/pages/gone) [c](/pages/guides/setup.md) [d](/broken/pages/zz)',
      setup: '[e](/pages/guides/setup) [f](/pages/api) [g](/pages/guides/nope) [h](/pages/guides)',
    });
    expect(result.map((link) => [link.key, link.status, link.pages])).toEqual([
      ['page-path:guides/nope', 'broken', ['setup']],
      ['page:api', 'ok', ['setup']],
      ['page:gone', 'broken', ['home']],
      ['page:guides', 'ok', ['setup']],
      ['page:setup', 'ok', ['home', 'setup']],
      ['page:zz', 'broken', ['home']],
    ]);
  });

  it('resolves files by id and by asset name, and classifies URLs', () => {
    const result = links({
      home: [
        '![logo](.gitbook/assets/logo%20\\(1\\).png) ![x](/files/f-logo) ![y](/files/f-none)',
        '![z](../.gitbook/assets/missing.png) [site](https://example.com) [app](http://quire.test/app/s/x)',
        '[same page](#anchor) [mail](mailto:a@b.c)',
      ].join('\n'),
    });
    expect(result.map((link) => [link.key, link.status])).toEqual([
      ['file-name:missing.png', 'broken'],
      ['file:f-logo', 'ok'],
      ['file:f-none', 'broken'],
      ['url:http://quire.test/app/s/x', 'in-app'],
      ['url:https://example.com', 'ok'],
      ['url:mailto:a@b.c', 'ok'],
    ]);
  });
});
