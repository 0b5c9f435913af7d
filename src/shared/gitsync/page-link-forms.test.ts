import { describe, expect, it } from 'vitest';
import type { MirrorPage } from './gitsync-types';
import {
  layoutLinkForms,
  pageRefRenderer,
  resolveWrittenTarget,
  writtenLinkForms,
} from './page-link-forms';
import { renderGitSyncLayout } from './render-gitsync-layout';
import type { LinkTargetContext } from './rewrite-link-targets';

const FILES = new Map([
  ['root', 'README.md'],
  ['guide', 'guide/README.md'],
  ['setup', 'guide/setup.md'],
  ['deep', 'guide/deep/README.md'],
  ['leaf', 'guide/deep/leaf.md'],
]);
const byPath = new Map([...FILES].map(([id, path]) => [path, id]));
const isFile = (path: string) => byPath.has(path) || path === '.gitbook/assets/x.png';
const refOf = (from: string) => (written: string, context: LinkTargetContext) => {
  const found = resolveWrittenTarget(from, written, isFile, { bare: context === 'markdown' });
  const id = found === undefined ? undefined : byPath.get(found.path);
  return id === undefined ? undefined : `/pages/${id}${found?.anchor ?? ''}`;
};

describe('writtenLinkForms', () => {
  it('lists the targets written for each page reference, in order, every form', () => {
    const markdown = [
      '[a](deep/) [b](deep/README.md) [c](./#top) [d](setup.md) [e](../README.md) [f](deep)',
      '<a href="deep/">g</a> <table data-view="deep"> [x](../.gitbook/assets/x.png)',
      '[y](https://e.com/) `[z](deep/)`',
      '```',
      '[code](deep/)',
      '```',
    ].join('\n');
    expect(Object.fromEntries(writtenLinkForms(markdown, refOf('guide/setup.md')))).toEqual({
      '/pages/deep': ['deep/', 'deep/README.md', 'deep', 'deep/'],
      '/pages/guide#top': ['./#top'],
      '/pages/setup': ['setup.md'],
      '/pages/root': ['../README.md'],
    });
  });
});

describe('layoutLinkForms', () => {
  it('reads each target as the page it names in the layout', () => {
    const formsOf = layoutLinkForms(FILES, isFile);
    const text = '[a](deep) [b](./deep/#x) <img src="deep"> [c](../nowhere/) [d](../)';
    expect(Object.fromEntries(formsOf(text, 'guide/setup.md'))).toEqual({
      '/pages/deep': ['deep'],
      '/pages/deep#x': ['./deep/#x'],
      '/pages/root': ['../'],
    });
  });
});

describe('pageRefRenderer', () => {
  const render = pageRefRenderer(FILES, isFile);

  it('writes Git Sync’s form when nothing is remembered, anchors kept', () => {
    const ref = render('guide/setup.md');
    expect(ref('/pages/deep')).toBe('deep/');
    expect(ref('/pages/guide')).toBe('./');
    expect(ref('/pages/guide#install')).toBe('./#install');
    expect(ref('/pages/root')).toBe('../');
    expect(ref('/pages/leaf#x')).toBe('deep/leaf.md#x');
    expect(render('guide/deep/leaf.md')('/pages/setup')).toBe('../setup.md');
    expect(render('guide/deep/leaf.md')('/pages/guide#a')).toBe('../#a');
    expect(ref('/pages/unknown')).toBeUndefined();
    expect(ref('/files/f1')).toBeUndefined();
  });

  it('writes each occurrence in the form remembered for it while it names the same page', () => {
    const forms = new Map([
      ['/pages/deep', ['deep/README.md', 'deep/']],
      ['/pages/guide#top', ['README.md#top']],
    ]);
    const ref = render('guide/setup.md', forms);
    expect(ref('/pages/deep')).toBe('deep/README.md');
    expect(ref('/pages/deep')).toBe('deep/');
    // More occurrences than forms: the last form goes on.
    expect(ref('/pages/deep')).toBe('deep/');
    expect(ref('/pages/guide#top')).toBe('README.md#top');
    // Forms can be given lazily, read at the first page reference.
    let reads = 0;
    const lazy = render('guide/setup.md', () => {
      reads += 1;
      return forms;
    });
    expect(reads).toBe(0);
    expect(lazy('/files/f1')).toBeUndefined();
    expect(reads).toBe(0);
    expect([lazy('/pages/deep'), lazy('/pages/deep')]).toEqual(['deep/README.md', 'deep/']);
    expect(reads).toBe(1);
    // Another anchor is another reference: Git Sync's form.
    expect(ref('/pages/guide#other')).toBe('./#other');
  });

  it('writes Git Sync’s form once a remembered form names another place (the page moved)', () => {
    const moved = new Map([...FILES, ['deep', 'reference/deep/README.md']]);
    const movedFiles = new Set(moved.values());
    const ref = pageRefRenderer(moved, (path) => movedFiles.has(path))(
      'guide/setup.md',
      new Map([['/pages/deep', ['deep/README.md']]]),
    );
    expect(ref('/pages/deep')).toBe('../reference/deep/');
  });
});

describe('renderGitSyncLayout with link forms', () => {
  const page = (id: string, slug: string, markdown: string, pages: MirrorPage[] = []) =>
    ({ id, type: 'document', title: id, slug, markdown, pages }) as MirrorPage;
  const space = {
    pages: [
      page('root', 'root', '# root\n'),
      page('guide', 'guide', '# guide\n\n[Deep](/pages/deep) [Me](/pages/guide)\n', [
        page('deep', 'deep', '# deep\n', [page('leaf', 'leaf', '# leaf\n')]),
      ]),
    ],
    files: [],
  };

  it('renders Git Sync’s folder links, or the forms given for the page', () => {
    expect(contentOf(renderGitSyncLayout(space), 'guide/README.md')).toBe(
      '# guide\n\n[Deep](deep/) [Me](./)\n',
    );
    const asked: string[] = [];
    const remembered = renderGitSyncLayout(space, {
      writtenText: (id, path) => {
        asked.push(`${id} ${path}`);
        return '# guide\n\nOld [Me](README.md) [Deep](deep/README.md) [Other](deep)\n';
      },
    });
    expect(contentOf(remembered, 'guide/README.md')).toBe(
      '# guide\n\n[Deep](deep/README.md) [Me](README.md)\n',
    );
    // Only pages that link to pages are asked for their text.
    expect(asked).toEqual(['guide guide/README.md']);
  });
});

function contentOf(layout: ReturnType<typeof renderGitSyncLayout>, path: string): string {
  const entry = layout.files.get(path);
  return entry?.kind === 'page' ? entry.content : '';
}
