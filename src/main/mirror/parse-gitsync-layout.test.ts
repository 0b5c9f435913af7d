import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseGitSyncLayout,
  type ParseGitSyncOptions,
  type ParsedPage,
} from './parse-gitsync-layout';

/** An in-memory space folder. */
function parseFolder(files: Record<string, string>, options: ParseGitSyncOptions = {}) {
  return parseGitSyncLayout(
    (path) => (Object.hasOwn(files, path) ? files[path] : undefined),
    () => Object.keys(files),
    options,
  );
}

/** The tree without the fields a test does not look at. */
function outline(pages: readonly ParsedPage[]): unknown[] {
  return pages.map((page) => ({
    type: page.type,
    title: page.title,
    ...(page.path !== undefined ? { path: page.path } : {}),
    ...(page.pages.length > 0 ? { pages: outline(page.pages) } : {}),
  }));
}

const SUMMARY = [
  '# Table of contents',
  '',
  '* [Welcome](README.md)',
  '* [Guide](guide/README.md)',
  '  * [Install](guide/install.md "Setup")',
  '* [GitHub](https://github.com/x)',
  '',
  '## Get Started <a href="#getting-started" id="getting-started"></a>',
  '',
  '* [Quickstart](getting-started/quickstart.md)',
  '  * ```yaml',
  '    props:',
  '      models: false',
  '    type: builtin:openapi',
  '    ```',
  '* [Buttons](guide/install.md#buttons)',
  '* [Install again](guide/install.md)',
  '',
  '## Editing & publishing',
  '',
  '* [Edit \\[beta\\] \\\\ now](editing-and-publishing/edit.md)',
  '',
  '***',
  '',
  '* [Skill](skill.md)',
  '',
].join('\n');

const FILES: Record<string, string> = {
  'SUMMARY.md': SUMMARY,
  'README.md': '# Welcome\n\nHi.\n',
  'guide/README.md': '---\ndescription: All about it\nhidden: true\n---\n\n# Guide\n',
  'guide/install.md': '# Installing\n\n![](<../.gitbook/assets/shot (1).png>)\n',
  'getting-started/quickstart.md': '# Quickstart\n',
  'editing-and-publishing/edit.md': '# Edit\n',
  'skill.md': '# Skill\n',
  '.gitbook/assets/shot (1).png': '',
  '.gitbook/tags.yaml': '- tag: beta\n',
  '.gitbook/includes/block.md': '---\ntitle: Block\n---\n',
};

describe('parseGitSyncLayout', () => {
  it('reads the page tree from SUMMARY.md and the page files', async () => {
    const parsed = await parseFolder(FILES);
    expect(parsed.problems).toEqual([]);
    expect(parsed.unlisted).toEqual([]);
    expect(parsed.summary).toBe('found');
    expect(outline(parsed.pages)).toEqual([
      { type: 'document', title: 'Welcome', path: 'README.md' },
      {
        type: 'document',
        title: 'Guide',
        path: 'guide/README.md',
        pages: [{ type: 'document', title: 'Install', path: 'guide/install.md' }],
      },
      { type: 'link', title: 'GitHub' },
      {
        type: 'group',
        title: 'Get Started',
        pages: [
          {
            type: 'document',
            title: 'Quickstart',
            path: 'getting-started/quickstart.md',
            pages: [{ type: 'computed', title: '' }],
          },
          { type: 'link', title: 'Buttons' },
          { type: 'link', title: 'Install again' },
        ],
      },
      {
        type: 'group',
        title: 'Editing & publishing',
        pages: [
          { type: 'document', title: 'Edit [beta] \\ now', path: 'editing-and-publishing/edit.md' },
        ],
      },
      { type: 'document', title: 'Skill', path: 'skill.md' },
    ]);
    expect(parsed.files).toEqual([{ path: '.gitbook/assets/shot (1).png', name: 'shot (1).png' }]);
  });

  it('reads slugs, link titles, targets, computed sources and frontmatter fields', async () => {
    const [home, guide, github, start, edit] = (await parseFolder(FILES)).pages;
    expect(home).toMatchObject({
      slug: 'welcome',
      markdown: '# Welcome\n\nHi.\n',
      headingTitle: 'Welcome',
    });
    expect(guide).toMatchObject({
      slug: 'guide',
      description: 'All about it',
      hidden: true,
      frontmatter: { description: 'All about it', hidden: true },
      markdown: '# Guide\n',
    });
    // The SUMMARY.md link text is the title; a differing heading is only reported.
    expect(guide?.pages[0]).toMatchObject({
      title: 'Install',
      headingTitle: 'Installing',
      linkTitle: 'Setup',
      slug: 'install',
    });
    expect(github).toMatchObject({ href: 'https://github.com/x' });
    expect(github?.target).toBeUndefined();
    expect(start).toMatchObject({ slug: 'getting-started' });
    expect(start?.pages[0]?.pages[0]?.computed).toEqual({
      props: { models: false },
      type: 'builtin:openapi',
    });
    expect(start?.pages[1]).toMatchObject({
      href: 'guide/install.md#buttons',
      target: { path: 'guide/install.md', anchor: 'buttons' },
    });
    // A file listed a second time is a link to the page.
    expect(start?.pages[2]).toMatchObject({ type: 'link', target: { path: 'guide/install.md' } });
    expect(edit).toMatchObject({ slug: 'editing-and-publishing' });
  });

  it('rewrites asset references to /files/<id> when it knows the ids', async () => {
    const parsed = await parseFolder(
      {
        ...FILES,
        'skill.md': '---\ncover: .gitbook/assets/shot (1).png\ncoverY: 0\n---\n\n# Skill\n',
      },
      { fileIdForAsset: (name) => (name === 'shot (1).png' ? 'f1' : undefined) },
    );
    expect(parsed.files).toEqual([
      { path: '.gitbook/assets/shot (1).png', name: 'shot (1).png', fileId: 'f1' },
    ]);
    expect(parsed.pages[1]?.pages[0]?.markdown).toBe('# Installing\n\n![](/files/f1)\n');
    expect(parsed.pages[5]?.cover).toEqual({
      src: '.gitbook/assets/shot (1).png',
      assetName: 'shot (1).png',
      fileId: 'f1',
      yPos: 0,
    });
  });

  it('reports what it cannot read, with the file and line, and carries on', async () => {
    const parsed = await parseFolder({
      'SUMMARY.md': [
        '# Summary',
        '',
        'Some paragraph.',
        '* Plain entry',
        '  * [Child](child.md)',
        '* [Outside](../secret.md)',
        '* [Include](.gitbook/includes/block.md)',
        '* ```json',
        '  {}',
        '  ```',
        '* ```yaml',
        '  props: [',
        '  ```',
        '* [Gone](gone.md)',
        '* [Bad YAML](bad.md)',
        '* [JS](js.md)',
        '* [Types](types.md)',
      ].join('\n'),
      'child.md': '# Child\n',
      'bad.md': '---\ndescription: a: b\n---\n\n# Bad\n',
      'js.md': '---js\n{ description: (globalThis.quireParsedJs = true) }\n---\n# JS\n',
      'types.md': '---\nhidden: maybe\n---\n# Types\n',
      'stray.md': '# Stray\n',
      '.gitbook/assets/nested/x.png': '',
    });
    expect(parsed.problems).toEqual([
      {
        path: '.gitbook/assets/nested/x.png',
        message: 'files in folders under .gitbook/assets/ are not synced',
      },
      { path: 'SUMMARY.md', line: 3, message: expect.stringMatching(/^unexpected line/) },
      { path: 'SUMMARY.md', line: 4, message: expect.stringMatching(/^entry without a \[Title\]/) },
      { path: 'SUMMARY.md', line: 8, message: expect.stringMatching(/```yaml computed page/) },
      {
        path: 'SUMMARY.md',
        line: 11,
        message: expect.stringMatching(/^invalid computed page source/),
      },
      { path: 'SUMMARY.md', line: 6, message: '"../secret.md" points outside the space folder' },
      { path: 'SUMMARY.md', line: 7, message: expect.stringMatching(/inside \.gitbook/) },
      { path: 'gone.md', line: 14, message: 'listed in SUMMARY.md but the file does not exist' },
      { path: 'bad.md', message: expect.stringMatching(/^invalid YAML frontmatter/) },
      { path: 'js.md', message: 'frontmatter language "js" is not supported; use YAML' },
      { path: 'types.md', message: 'frontmatter "hidden" must be true or false' },
      { path: 'stray.md', message: expect.stringMatching(/^not listed in SUMMARY.md/) },
    ]);
    expect((globalThis as { quireParsedJs?: boolean }).quireParsedJs).toBeUndefined();
    expect(parsed.unlisted).toEqual(['stray.md']);
    const byTitle = new Map(parsed.pages.map((page) => [page.title, page]));
    expect([...byTitle.keys()]).toEqual(['Child', 'Include', 'Gone', 'Bad YAML', 'JS', 'Types']);
    expect(byTitle.get('Gone')).toMatchObject({ missing: true, path: 'gone.md' });
    expect(byTitle.get('Gone')?.markdown).toBeUndefined();
    // Unreadable frontmatter: the file is kept whole, nothing the user wrote is dropped.
    expect(byTitle.get('Bad YAML')?.markdown).toBe('---\ndescription: a: b\n---\n\n# Bad\n');
    expect(byTitle.get('Types')).toMatchObject({ markdown: '# Types\n' });
    expect(byTitle.get('Types')?.hidden).toBeUndefined();
  });

  it('infers the tree from the folders when there is no SUMMARY.md', async () => {
    const parsed = await parseFolder({
      'README.md': '# Home\n',
      'b.md': '---\ntitle: Bee\n---\n# B heading\n',
      'a.md': '# A\n',
      'guide/README.md': '# Guide\n',
      'guide/step.md': 'No heading\n',
      'loose/page.md': '# Loose\n',
      '.gitbook/includes/x.md': '# Include\n',
    });
    expect(parsed.summary).toBe('inferred');
    expect(parsed.problems).toEqual([
      {
        path: 'SUMMARY.md',
        message: 'SUMMARY.md is missing; the page tree was inferred from the folders',
      },
    ]);
    expect(outline(parsed.pages)).toEqual([
      { type: 'document', title: 'Home', path: 'README.md' },
      { type: 'document', title: 'A', path: 'a.md' },
      { type: 'document', title: 'Bee', path: 'b.md' },
      {
        type: 'document',
        title: 'Guide',
        path: 'guide/README.md',
        pages: [{ type: 'document', title: 'step', path: 'guide/step.md' }],
      },
      { type: 'document', title: 'Loose', path: 'loose/page.md' },
    ]);
  });

  it('reads hand-written SUMMARY.md variants', async () => {
    const parsed = await parseFolder({
      'SUMMARY.md': [
        '<!-- generated -->',
        '- [Home](README.md)',
        "- [Space name](<with space.md> 'Quoted')",
        '    - [Deep](dir/deep%20page.md (Paren))',
        '\t- [Tabbed](./dir/tab.md)',
        '## Group #',
        '+ [G](g/x.md)',
      ].join('\r\n'),
      'README.md': '# Home\n',
      'with space.md': '# S\n',
      'dir/deep page.md': '# D\n',
      'dir/tab.md': '# T\n',
      'g/x.md': '# G\n',
    });
    expect(parsed.problems).toEqual([]);
    expect(outline(parsed.pages)).toEqual([
      { type: 'document', title: 'Home', path: 'README.md' },
      {
        type: 'document',
        title: 'Space name',
        path: 'with space.md',
        pages: [
          { type: 'document', title: 'Deep', path: 'dir/deep page.md' },
          { type: 'document', title: 'Tabbed', path: 'dir/tab.md' },
        ],
      },
      { type: 'group', title: 'Group', pages: [{ type: 'document', title: 'G', path: 'g/x.md' }] },
    ]);
    expect(parsed.pages[1]).toMatchObject({ linkTitle: 'Quoted', slug: 'with space' });
    expect(parsed.pages[1]?.pages[0]).toMatchObject({ linkTitle: 'Paren' });
    expect(parsed.pages[2]).toMatchObject({ slug: 'group' });
  });

  it('accepts asynchronous callbacks and reports files it cannot read', async () => {
    const parsed = await parseGitSyncLayout(
      async (path) => {
        if (path === 'locked.md') throw new Error('EACCES: permission denied');
        return path === 'SUMMARY.md' ? '* [Locked](locked.md)\n' : undefined;
      },
      async () => ['SUMMARY.md', 'locked.md'],
    );
    expect(parsed.problems).toEqual([
      { path: 'locked.md', message: 'could not read the file: EACCES: permission denied' },
      { path: 'locked.md', line: 1, message: 'listed in SUMMARY.md but the file does not exist' },
    ]);
    expect(parsed.pages[0]).toMatchObject({ title: 'Locked', missing: true });
  });

  it('never throws on arbitrary SUMMARY.md and page content', async () => {
    const text = fc.string({
      unit: fc.constantFrom(...'*-+#[]()<>`~ \t\n\\"\'!:yaml.md/'.split('')),
      maxLength: 200,
    });
    await fc.assert(
      fc.asyncProperty(text, text, async (summary, page) => {
        const parsed = await parseFolder({
          'SUMMARY.md': summary,
          'a.md': page,
          'README.md': page,
        });
        expect(Array.isArray(parsed.problems)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
