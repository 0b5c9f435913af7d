import { describe, expect, it } from 'vitest';
import type { MirrorFile, MirrorPage, MirrorSpace } from '../../shared/gitsync/gitsync-types';
import { unescapeMarkdown } from '../../shared/gitsync/page-title';
import { parseSummary } from './parse-summary';
import { renderGitSyncLayout, type GitSyncEntry } from '../../shared/gitsync/render-gitsync-layout';

function doc(id: string, title: string, slug: string, extra: Partial<MirrorPage> = {}): MirrorPage {
  return { id, type: 'document', title, slug, markdown: `# ${title}\n`, pages: [], ...extra };
}

function group(id: string, title: string, slug: string, pages: MirrorPage[]): MirrorPage {
  return { id, type: 'group', title, slug, pages };
}

function link(id: string, title: string, href: string): MirrorPage {
  return { id, type: 'link', title, slug: '', href, pages: [] };
}

function file(id: string, name: string): MirrorFile {
  return { id, name, contentType: 'image/png', size: 1 };
}

function contentOf(entry: GitSyncEntry | undefined): string | undefined {
  return entry && entry.kind !== 'asset' ? entry.content : undefined;
}

const SPACE: MirrorSpace = {
  pages: [
    doc('p-home', 'Welcome', 'welcome', { markdown: '# Welcome\n\nHi.\n' }),
    doc('p-guide', 'Guide', 'guide', { pages: [doc('p-install', 'Install', 'install')] }),
    link('l-ext', 'GitHub', 'https://github.com/x'),
    group('g-start', 'Get Started', 'getting-started', [
      doc('p-quick', 'Quickstart', 'quickstart', { linkTitle: 'Quick' }),
      doc('p-api', 'API reference', 'api-reference', {
        pages: [
          {
            id: 'c1',
            type: 'computed',
            title: 'API',
            slug: '',
            computed: {
              type: 'builtin:openapi',
              dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
              props: { models: false },
            },
            pages: [],
          },
        ],
      }),
      link('l-anchor', 'Buttons', '/pages/p-install#buttons'),
      link('l-file', 'Logo', '/files/f-logo'),
    ]),
    group('g-edit', 'Editing & publishing', 'editing-and-publishing', [
      doc('p-edit', 'Edit [beta] \\ now', 'edit'),
    ]),
    doc('p-skill', 'Skill', 'skill'),
  ],
  files: [file('f-logo', 'logo.png')],
};

describe('renderGitSyncLayout', () => {
  it('lays pages out as Git Sync does: README first, parents as folders, groups as folders', () => {
    const layout = renderGitSyncLayout(SPACE);
    expect(Object.fromEntries(layout.pagePaths)).toEqual({
      'p-home': 'README.md',
      'p-guide': 'guide/README.md',
      'p-install': 'guide/install.md',
      'p-quick': 'getting-started/quickstart.md',
      'p-api': 'getting-started/api-reference/README.md',
      'p-edit': 'editing-and-publishing/edit.md',
      'p-skill': 'skill.md',
    });
    expect([...layout.files.keys()]).toEqual([
      'SUMMARY.md',
      'README.md',
      'guide/README.md',
      'guide/install.md',
      'getting-started/quickstart.md',
      'getting-started/api-reference/README.md',
      'editing-and-publishing/edit.md',
      'skill.md',
      '.gitbook/assets/logo.png',
    ]);
    expect(layout.files.get('.gitbook/assets/logo.png')).toEqual({
      kind: 'asset',
      fileId: 'f-logo',
    });
    expect(layout.files.get('guide/install.md')).toEqual({
      kind: 'page',
      pageId: 'p-install',
      content: '# Install\n',
    });
  });

  it('writes SUMMARY.md byte for byte in Git Sync’s format', () => {
    const summary = contentOf(renderGitSyncLayout(SPACE).files.get('SUMMARY.md'));
    expect(summary).toBe(
      [
        '# Table of contents',
        '',
        '* [Welcome](README.md)',
        '* [Guide](guide/README.md)',
        '  * [Install](guide/install.md)',
        '* [GitHub](https://github.com/x)',
        '',
        '## Get Started <a href="#getting-started" id="getting-started"></a>',
        '',
        '* [Quickstart](getting-started/quickstart.md "Quick")',
        '* [API reference](getting-started/api-reference/README.md)',
        '  * ```yaml',
        '    props:',
        '      models: false',
        '    type: builtin:openapi',
        '    dependencies:',
        '      spec:',
        '        ref:',
        '          kind: openapi',
        '          spec: petstore',
        '    ```',
        '* [Buttons](guide/install.md#buttons)',
        '* [Logo](.gitbook/assets/logo.png)',
        '',
        '## Editing & publishing',
        '',
        '* [Edit \\[beta\\] \\\\ now](editing-and-publishing/edit.md)',
        '',
        '***',
        '',
        '* [Skill](skill.md)',
        '',
      ].join('\n'),
    );
  });

  it('makes the first page of a leading group the README, listed under its heading', () => {
    const layout = renderGitSyncLayout({
      pages: [group('g', 'Start', 'start', [doc('a', 'Intro', 'intro'), doc('b', 'Next', 'next')])],
      files: [],
    });
    expect(Object.fromEntries(layout.pagePaths)).toEqual({ a: 'README.md', b: 'start/next.md' });
    expect(contentOf(layout.files.get('SUMMARY.md'))).toBe(
      '# Table of contents\n\n## Start\n\n* [Intro](README.md)\n* [Next](start/next.md)\n',
    );
  });

  it('writes an empty space as a SUMMARY.md with only its heading', () => {
    const layout = renderGitSyncLayout({ pages: [], files: [] });
    expect([...layout.files]).toEqual([
      ['SUMMARY.md', { kind: 'summary', content: '# Table of contents\n' }],
    ]);
  });

  it('gives clashing and unsafe names distinct safe files, first come first served', () => {
    const layout = renderGitSyncLayout({
      pages: [
        doc('home', 'Home', 'home'),
        doc('a', 'Setup', 'setup'),
        doc('b', 'Setup again', 'Setup'),
        doc('c', 'Escape', '../../etc/passwd'),
        doc('d', 'Readme', 'readme'),
        doc('e', 'Summary', 'SUMMARY'),
        doc('f', 'Dot', '.gitbook'),
        doc('g', 'Empty', ''),
      ],
      files: [
        file('f1', 'hero.png'),
        file('f2', 'hero.png'),
        file('f3', 'HERO.png'),
        file('f4', '../../evil.png'),
        file('f5', 'Actions Menu'),
        file('f6', 'Actions Menu'),
      ],
    });
    expect(Object.fromEntries(layout.pagePaths)).toEqual({
      home: 'README.md',
      a: 'setup.md',
      b: 'Setup-2.md',
      c: 'etc-passwd.md',
      d: 'readme-2.md',
      e: 'SUMMARY-2.md',
      f: 'gitbook.md',
      g: 'untitled.md',
    });
    expect(Object.fromEntries(layout.assetPaths)).toEqual({
      f1: '.gitbook/assets/hero.png',
      f2: '.gitbook/assets/hero (1).png',
      f3: '.gitbook/assets/HERO (2).png',
      f4: '.gitbook/assets/evil.png',
      f5: '.gitbook/assets/Actions Menu',
      f6: '.gitbook/assets/Actions Menu (1)',
    });
  });

  it('is deterministic', () => {
    const first = renderGitSyncLayout(SPACE);
    const second = renderGitSyncLayout(structuredClone(SPACE));
    expect([...second.files]).toEqual([...first.files]);
  });
});

describe('renderGitSyncLayout page files', () => {
  const render = (page: MirrorPage, files: MirrorFile[] = []) => {
    const layout = renderGitSyncLayout({
      pages: [doc('home', 'Home', 'home'), group('g', 'Docs', 'docs', [page])],
      files,
    });
    return contentOf(layout.files.get(layout.pagePaths.get(page.id) ?? ''));
  };

  it('writes frontmatter before the Markdown, without repeating its # Title', () => {
    expect(
      render(
        doc('p', 'Pricing', 'pricing', {
          description:
            'Everything you need to know about the switch from Business and Team plans to our new pricing plans',
          hidden: true,
          noIndex: true,
          icon: 'money-bill-transfer',
          markdown: '# Pricing\n\nBody.\n',
        }),
      ),
    ).toBe(
      [
        '---',
        'description: >-',
        '  Everything you need to know about the switch from Business and Team plans to',
        '  our new pricing plans',
        'hidden: true',
        'noIndex: true',
        'icon: money-bill-transfer',
        '---',
        '',
        '# Pricing',
        '',
        'Body.',
        '',
      ].join('\n'),
    );
  });

  it('adds the # Title only to Markdown that does not start with one', () => {
    expect(render(doc('p', 'Empty [page]', 'empty', { markdown: '' }))).toBe('# Empty \\[page]\n');
    expect(render(doc('p', 'Intro', 'intro', { markdown: 'Text only.\n' }))).toBe(
      '# Intro\n\nText only.\n',
    );
    expect(render(doc('p', 'Intro', 'intro', { markdown: '# Old title\n\nx\n' }))).toBe(
      '# Old title\n\nx\n',
    );
  });

  it('merges frontmatter the Markdown carries: page fields win, other keys stay', () => {
    const markdown = '---\nname: x\ndescription: stale\ntags:\n  - beta\n---\n\n# T\n';
    expect(render(doc('p', 'T', 't', { markdown, description: 'fresh', hidden: true }))).toBe(
      '---\nname: x\ndescription: fresh\nhidden: true\ntags:\n  - beta\n---\n\n# T\n',
    );
    // A page that no longer has any of it loses the block.
    expect(render(doc('p', 'T', 't', { markdown: '---\ndescription: old\n---\n\n# T\n' }))).toBe(
      '# T\n',
    );
  });

  it('keeps the Markdown’s own frontmatter bytes when they already say the same', () => {
    const markdown =
      '---\ndescription: "Quoted, and longer than eighty columns, written by hand in Git"\n---\n\n# T\n';
    expect(
      render(
        doc('p', 'T', 't', {
          markdown,
          description: 'Quoted, and longer than eighty columns, written by hand in Git',
        }),
      ),
    ).toBe(markdown);
  });

  it('keeps Markdown with unreadable frontmatter as it is', () => {
    const markdown = '---\ndescription: a: b\n---\n\n# T\n';
    expect(render(doc('p', 'T', 't', { markdown, description: 'x' }))).toBe(markdown);
  });

  it('turns /files/<id> references into asset paths relative to the page', () => {
    const markdown = [
      '# T',
      '',
      '![](/files/f1) ![](/files/f2 "Shot") [gone](/files/nope)',
      '<img src="/files/f2" alt="">',
      '{% file src="/files/f1" %}',
      '`/files/f1` stays in code',
      '',
    ].join('\n');
    const files = [file('f1', 'a.png'), file('f2', 'Screen shot (1).png')];
    expect(
      renderGitSyncLayout({
        pages: [
          doc('home', 'Home', 'home', { markdown }),
          doc('deep', 'Deep', 'deep', { pages: [doc('leaf', 'Leaf', 'leaf', { markdown })] }),
        ],
        files,
      }).files.get('deep/leaf.md'),
    ).toEqual({
      kind: 'page',
      pageId: 'leaf',
      content: [
        '# T',
        '',
        '![](../.gitbook/assets/a.png) ![](<../.gitbook/assets/Screen shot (1).png> "Shot") [gone](/files/nope)',
        '<img src="../.gitbook/assets/Screen shot (1).png" alt="">',
        '{% file src="../.gitbook/assets/a.png" %}',
        '`/files/f1` stays in code',
        '',
      ].join('\n'),
    });
  });

  it('turns /pages/<id> references into links relative to the page, keeping anchors (Git Sync: a page with children by its folder)', () => {
    const markdown =
      '# T\n\nSee [home](/pages/home), [leaf](/pages/leaf#setup) and [gone](/pages/nope).\n';
    const layout = renderGitSyncLayout({
      pages: [
        doc('home', 'Home', 'home', { markdown: '# Home\n' }),
        doc('deep', 'Deep', 'deep', {
          markdown,
          pages: [doc('leaf', 'Leaf', 'leaf', { markdown })],
        }),
      ],
      files: [],
    });
    expect(contentOf(layout.files.get('deep/README.md'))).toBe(
      '# T\n\nSee [home](../), [leaf](leaf.md#setup) and [gone](/pages/nope).\n',
    );
    expect(contentOf(layout.files.get('deep/leaf.md'))).toBe(
      '# T\n\nSee [home](../), [leaf](leaf.md#setup) and [gone](/pages/nope).\n',
    );
  });

  it('writes the cover as an asset path relative to the page, or its URL', () => {
    const fileCover = render(
      doc('p', 'T', 't', { cover: { ref: { kind: 'file', file: 'f1' }, yPos: 0 } }),
      [file('f1', 'hero (1).png')],
    );
    expect(fileCover).toBe('---\ncover: ../.gitbook/assets/hero (1).png\ncoverY: 0\n---\n\n# T\n');
    const urlCover = render(
      doc('p', 'T', 't', {
        cover: { ref: { kind: 'url', url: 'https://x.test/c.png' }, height: 300 },
      }),
    );
    expect(urlCover).toBe('---\ncover: https://x.test/c.png\ncoverHeight: 300\n---\n\n# T\n');
  });
});

describe('control characters in titles', () => {
  it('reach SUMMARY.md and the page heading as references that read back as the title', () => {
    const title = 'Bell\u0007 nul\u0000 del\u007f c1\u0085 tab\tend';
    const space: MirrorSpace = {
      pages: [doc('p-home', 'Home', 'home'), { ...doc('p-x', title, 'x'), markdown: '' }],
      files: [],
    };
    const layout = renderGitSyncLayout(space);
    const summary = contentOf(layout.files.get('SUMMARY.md'))!;
    const page = contentOf(layout.files.get('x.md'))!;
    for (const text of [summary, page]) {
      const controls = [...text].filter((char) => {
        const code = char.charCodeAt(0);
        return (code < 0x20 && !'\t\n'.includes(char)) || (code >= 0x7f && code <= 0x9f);
      });
      expect(controls).toEqual([]);
      expect(text).toContain('Bell&#x7; nul&#x0; del&#x7F; c1&#x85; tab\tend');
    }
    const entry = parseSummary(summary).entries.find(
      (item) => item.kind === 'link' && item.destination === 'x.md',
    );
    expect(entry?.kind === 'link' ? entry.title : undefined).toBe(title);
    expect(unescapeMarkdown(page.split('\n')[0]!.slice(2))).toBe(title);
  });
});
