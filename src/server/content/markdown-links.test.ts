import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusAvailable, SHARED_CORPUS } from '../../../test/support/shared-corpus';
import { classifyHref, extractLinks, srcsetUrls, type ExtractedLink } from './markdown-links';
import {
  filePathToPagePath,
  gitSyncPagePaths,
  pageFilePath,
  resolveRelativePagePath,
  type TreePage,
} from './page-paths';

// The corpus lives in shared/ beside the checkout; a fresh clone without it skips those tests.
const SPACE = join(SHARED_CORPUS, 'documentation');
const read = (path: string) => readFileSync(join(SPACE, path), 'utf8');
const brief = (links: ExtractedLink[]) =>
  links.map(({ href, kind, line, source }) => ({ href, kind, line, source }));

describe('classifyHref', () => {
  it.each([
    ['../guide/setup.md', { kind: 'page', path: '../guide/setup.md' }],
    ['./README.md', { kind: 'page', path: './README.md' }],
    ['../publish/embedding/', { kind: 'page', path: '../publish/embedding/' }],
    ['./#code', { kind: 'page', path: './', anchor: 'code' }],
    [
      'setup.md#choose-the-right-endpoint',
      { kind: 'page', path: 'setup.md', anchor: 'choose-the-right-endpoint' },
    ],
    ['../guide/setup', { kind: 'page', path: '../guide/setup' }],
    ['/pages/abc123', { kind: 'page', pageId: 'abc123' }],
    ['pages/abc123#part', { kind: 'page', pageId: 'abc123', anchor: 'part' }],
    ['/pages/guide/setup.md', { kind: 'page', path: '/pages/guide/setup.md' }],
    ['/pages/guide/setup', { kind: 'page', path: '/pages/guide/setup' }],
    ['/pages/README.md', { kind: 'page', path: '/pages/README.md' }],
    [
      '../.gitbook/assets/image%20(8).png',
      { kind: 'file', path: '../.gitbook/assets/image (8).png' },
    ],
    ['.gitbook/assets/hero (1).png', { kind: 'file', path: '.gitbook/assets/hero (1).png' }],
    ['/files/f1le', { kind: 'file', fileId: 'f1le' }],
    ['../docs/manual.pdf', { kind: 'file', path: '../docs/manual.pdf' }],
    ['https://example.com/a.md', { kind: 'external' }],
    ['HTTP://EXAMPLE.COM', { kind: 'external' }],
    ['mailto:support@gitbook.com', { kind: 'external' }],
    ['//cdn.example.com/x.js', { kind: 'external' }],
    ['#text-formatting', { kind: 'anchor', anchor: 'text-formatting' }],
    [
      '/broken/pages/4XKM0YebpgpW3W1I3TpP',
      { kind: 'other', path: '/broken/pages/4XKM0YebpgpW3W1I3TpP' },
    ],
    [
      '../../.gitbook/includes/reusable.md',
      { kind: 'other', path: '../../.gitbook/includes/reusable.md' },
    ],
    ['javascript:alert(1)', { kind: 'other' }],
    ['tel:+331234', { kind: 'other' }],
    ['', { kind: 'other' }],
  ])('%s', (href, expected) => {
    expect(classifyHref(href)).toEqual(expected);
  });
});

describe('extractLinks', () => {
  it('finds links, images, definitions, HTML attributes, Liquid tags and the frontmatter cover', () => {
    const markdown = [
      '---', // 1
      'description: d',
      'cover: "../.gitbook/assets/cover.png"',
      '---',
      '# Title', // 5
      '',
      'See [setup](../guide/setup.md "mention") and ![logo](<.gitbook/assets/logo (1).png>).',
      'Also <https://example.com> and www.example.org and [ref][r].',
      '',
      '[r]: /pages/p1#x', // 10
      '',
      '<figure><img src="../.gitbook/assets/a&#x26;b.png" alt=""></figure>',
      '',
      '{% embed url="https://www.youtube.com/watch?v=1" %}',
      '', // 15
      '{% content-ref url="other.md" %}',
      '[other.md](other.md)',
      '{% endcontent-ref %}',
      '',
      '```md', // 20
      '[not a link](nope.md) {% content-ref url="nope.md" %}',
      '```',
      '',
      '| a | b |',
      '|---|---|', // 25
      '| [cell](#c) | <a href="/files/f9">f</a> |',
      '',
    ].join('\n');
    const links = extractLinks(markdown);
    expect(brief(links)).toEqual([
      { href: '../.gitbook/assets/cover.png', kind: 'file', line: 3, source: 'frontmatter' },
      { href: '../guide/setup.md', kind: 'page', line: 7, source: 'link' },
      { href: '.gitbook/assets/logo (1).png', kind: 'file', line: 7, source: 'image' },
      { href: 'https://example.com', kind: 'external', line: 8, source: 'link' },
      { href: 'http://www.example.org', kind: 'external', line: 8, source: 'link' },
      { href: '/pages/p1#x', kind: 'page', line: 10, source: 'definition' },
      { href: '../.gitbook/assets/a&b.png', kind: 'file', line: 12, source: 'html' },
      { href: 'https://www.youtube.com/watch?v=1', kind: 'external', line: 14, source: 'liquid' },
      { href: 'other.md', kind: 'page', line: 16, source: 'liquid' },
      { href: 'other.md', kind: 'page', line: 17, source: 'link' },
      { href: '#c', kind: 'anchor', line: 26, source: 'link' },
      { href: '/files/f9', kind: 'file', line: 26, source: 'html' },
    ]);
    expect(links[1]).toMatchObject({ text: 'setup', title: 'mention', column: 5 });
    expect(links[5]).toMatchObject({ pageId: 'p1', anchor: 'x' });
    expect(links[11]).toMatchObject({ fileId: 'f9' });
  });

  it('reads srcset candidates without splitting Git Sync file names at their spaces', () => {
    expect(srcsetUrls('../.gitbook/assets/icon dark (1).svg')).toEqual([
      '../.gitbook/assets/icon dark (1).svg',
    ]);
    expect(srcsetUrls('a.png 1x, b (2).png 2x, c.png 300w')).toEqual([
      'a.png',
      'b (2).png',
      'c.png',
    ]);
  });

  it('never throws on malformed input', () => {
    for (const odd of [
      '',
      '---',
      '---\n: : :\n---\n[a](b.md)',
      '<img src=',
      '{% embed url="',
      '[a](<b',
      '\u0000[x](y)',
    ]) {
      expect(() => extractLinks(odd)).not.toThrow();
    }
    expect(brief(extractLinks('---\n: : :\n---\n[a](b.md)'))).toEqual([
      { href: 'b.md', kind: 'page', line: 4, source: 'link' },
    ]);
  });

  describe.skipIf(!corpusAvailable)('on the GitBook public docs corpus', () => {
    it('classifies create-content/blocks/page-link.md, skipping the code sample', () => {
      expect(brief(extractLinks(read('create-content/blocks/page-link.md')))).toEqual([
        { href: './', kind: 'page', line: 11, source: 'link' },
        { href: '../formatting/inline.md', kind: 'page', line: 11, source: 'link' },
        { href: './', kind: 'page', line: 13, source: 'liquid' },
        { href: './', kind: 'page', line: 14, source: 'link' },
        { href: '../formatting/inline.md', kind: 'page', line: 17, source: 'liquid' },
        { href: '../formatting/inline.md', kind: 'page', line: 18, source: 'link' },
      ]);
    });

    it('classifies the link examples of create-content/formatting/README.md', () => {
      const links = extractLinks(read('create-content/formatting/README.md'));
      const at = (line: number) => links.filter((link) => link.line === line);
      expect(at(69)).toMatchObject([{ href: 'https://www.gitbook.com', kind: 'external' }]);
      expect(at(71)).toMatchObject([{ href: '../blocks/', kind: 'page', path: '../blocks/' }]);
      expect(at(73)).toMatchObject([{ href: './#code', kind: 'page', path: './', anchor: 'code' }]);
      expect(at(75)).toMatchObject([{ href: 'mailto:support@gitbook.com', kind: 'external' }]);
      // The page is create-content/formatting/README.md (it has children): resolve from its folder.
      expect(
        resolveRelativePagePath('create-content/formatting', '../blocks/', { fromIsReadme: true }),
      ).toBe('create-content/blocks');
      expect(
        resolveRelativePagePath('create-content/formatting', './#code', { fromIsReadme: true }),
      ).toBe('create-content/formatting');
    });

    it('classifies getting-started/import.md: a page anchor link, a <picture> and a figure', () => {
      const links = extractLinks(read('getting-started/import.md'));
      expect(
        links
          .filter((link) => link.line === 50)
          .map(({ href, kind, source, anchor }) => ({ href, kind, source, anchor })),
      ).toEqual([
        {
          href: '../reference/gitbook-ui.md#table-of-contents',
          kind: 'page',
          source: 'link',
          anchor: 'table-of-contents',
        },
        {
          href: '../.gitbook/assets/25_01_10_actions_icon_dark (1).svg',
          kind: 'file',
          source: 'html',
          anchor: undefined,
        },
        {
          href: '../.gitbook/assets/25_01_10_actions_icon_light (1).svg',
          kind: 'file',
          source: 'html',
          anchor: undefined,
        },
      ]);
      expect(links.find((link) => link.line === 46)).toMatchObject({
        href: '../.gitbook/assets/25_12_10_import@2x (1).png',
        kind: 'file',
        source: 'html',
      });
      expect(
        resolveRelativePagePath(
          'getting-started/import',
          '../reference/gitbook-ui.md#table-of-contents',
        ),
      ).toBe('reference/gitbook-ui');
    });

    it('classifies the cards table of getting-started/quickstart.md and the README cover', () => {
      const cards = extractLinks(read('getting-started/quickstart.md')).filter(
        (link) => link.line === 167,
      );
      expect(
        cards.find(
          (link) =>
            link.href === '../collaborate/member-management/invite-members-to-your-organization.md',
        ),
      ).toMatchObject({ kind: 'page', source: 'html' });
      expect(
        cards.find(
          (link) => link.href === '../.gitbook/assets/25_12_10_change_site_visibility (1).png',
        ),
      ).toMatchObject({ kind: 'file' });
      expect(
        cards.find((link) => link.href === '/broken/pages/b29aoPwtKZKkAO7zajgr'),
      ).toMatchObject({ kind: 'other' });
      expect(
        cards.find((link) => link.href === '../publish/publish-a-docs-site/#publish-a-docs-site'),
      ).toMatchObject({
        kind: 'page',
        anchor: 'publish-a-docs-site',
      });
      expect(extractLinks(read('README.md'))[0]).toMatchObject({
        href: '.gitbook/assets/hero (1).png',
        kind: 'file',
        source: 'frontmatter',
        line: 6,
      });
    });

    it('runs over a sample of the corpus without throwing, with sane positions', () => {
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const full = join(dir, name);
          if (statSync(full).isDirectory()) {
            if (name !== '.gitbook') walk(full);
          } else if (name.endsWith('.md') && statSync(full).size < 5000) files.push(full);
        }
      };
      walk(SPACE);
      const sample = files.slice(0, 15);
      expect(sample).toHaveLength(15);
      let total = 0;
      for (const file of sample) {
        const source = readFileSync(file, 'utf8');
        const lineCount = source.split('\n').length;
        const links = extractLinks(source);
        total += links.length;
        for (const link of links) {
          expect(link.line, file).toBeGreaterThanOrEqual(1);
          expect(link.line, file).toBeLessThanOrEqual(lineCount);
          // The target text appears on the reported line (modulo entity/percent/angle decoding).
          const line = source.split('\n')[link.line - 1] ?? '';
          if (link.source !== 'html')
            expect(
              line.includes(link.href) || link.href.startsWith('http://www.'),
              `${file}:${link.line} ${link.href}`,
            ).toBe(true);
        }
      }
      expect(total).toBeGreaterThan(20);
    });
  });
});

describe('Git Sync paths', () => {
  it('maps pages to files and back', () => {
    expect(pageFilePath('guides/setup', false)).toBe('guides/setup.md');
    expect(pageFilePath('guides/setup', true)).toBe('guides/setup/README.md');
    expect(pageFilePath('', false)).toBe('README.md');
    expect(filePathToPagePath('guides/setup.md')).toBe('guides/setup');
    expect(filePathToPagePath('guides/setup/README.md')).toBe('guides/setup');
    expect(filePathToPagePath('guides/setup/')).toBe('guides/setup');
    expect(filePathToPagePath('./guides/./setup')).toBe('guides/setup');
    expect(filePathToPagePath('README.md')).toBe('');
    expect(filePathToPagePath('.gitbook/assets/x.png')).toBeNull();
  });

  it.each([
    ['guides/setup', '../reference/api.md', {}, 'reference/api'],
    ['guides/setup', './install.md', {}, 'guides/install'],
    ['guides/setup', 'install.md#step-2', {}, 'guides/install'],
    ['guides/setup', 'child.md', { fromIsReadme: true }, 'guides/setup/child'],
    ['guides/setup', './', {}, 'guides'],
    ['guides/setup', './', { fromIsReadme: true }, 'guides/setup'],
    ['guides/setup', '../README.md', {}, ''],
    ['guides/setup', '../', {}, ''],
    ['guides/setup', '../../README.md', {}, null],
    ['guides/setup', '../../../etc/passwd.md', {}, null],
    ['', 'guides/setup/README.md', {}, 'guides/setup'],
    ['', '../outside.md', {}, null],
    ['guides/setup', 'https://example.com/x.md', {}, null],
    ['guides/setup', '/pages/abc', {}, null],
    ['guides/setup', '../.gitbook/assets/x.png', {}, null],
    ['guides/setup', '#anchor', {}, null],
  ])('resolves %s + %s', (from, href, options, expected) => {
    expect(resolveRelativePagePath(from, href, options)).toBe(expected);
  });

  it('lists Git Sync paths of a page tree: root README, group folders, README for parents', () => {
    const page = (
      id: string,
      slug: string,
      pages: TreePage[] = [],
      type = 'document',
    ): TreePage => ({ id, type, slug, pages });
    const tree = [
      page('home', 'welcome'),
      page(
        'g',
        'create-content',
        [page('blocks', 'blocks', [page('hint', 'hint')]), page('link', 'x', [], 'link')],
        'group',
      ),
      page('api', 'api'),
    ];
    expect([...gitSyncPagePaths(tree)]).toEqual([
      ['', { id: 'home', file: 'README.md' }],
      ['create-content/blocks', { id: 'blocks', file: 'create-content/blocks/README.md' }],
      ['create-content/blocks/hint', { id: 'hint', file: 'create-content/blocks/hint.md' }],
      ['api', { id: 'api', file: 'api.md' }],
    ]);
  });
});
