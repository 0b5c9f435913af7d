import { describe, expect, it } from 'vitest';
import type { MirrorPage, MirrorSpace } from '../../shared/gitsync/gitsync-types';
import { renderGitSyncLayout } from '../../shared/gitsync/render-gitsync-layout';
import { parseGitSyncLayout, type ParsedPage } from './parse-gitsync-layout';

function doc(id: string, title: string, slug: string, extra: Partial<MirrorPage> = {}): MirrorPage {
  return { id, type: 'document', title, slug, markdown: `# ${title}\n`, pages: [], ...extra };
}

/** A first page with children, a page slugged like the first page's file, links to the first. */
const SPACE: MirrorSpace = {
  pages: [
    doc('p-home', 'Welcome', 'start', {
      markdown: '# Welcome\n\nSee [setup](/pages/p-setup).\n',
      pages: [
        doc('p-setup', 'Setup', 'setup', { markdown: '# Setup\n\n[Home](/pages/p-home#a)\n' }),
      ],
    }),
    doc('p-intro', 'Intro', 'intro'),
    doc('p-readme', 'Readme', 'readme', { markdown: '# Readme\n\n[Home](/pages/p-home)\n' }),
  ],
  files: [],
};

function texts(space: MirrorSpace, readmePath?: string): Map<string, string> {
  const layout = renderGitSyncLayout(space, readmePath ? { readmePath } : {});
  const out = new Map<string, string>();
  for (const [path, entry] of layout.files)
    if (entry.kind !== 'asset') out.set(path, entry.content);
  return out;
}

function outline(pages: readonly ParsedPage[]): unknown[] {
  return pages.map((page) => [page.path, page.slug, outline(page.pages)]);
}

describe("renderGitSyncLayout with .gitbook.yaml's structure.readme", () => {
  it('writes the first page under that name, lists it, and links to it by that file', () => {
    const files = texts(SPACE, 'intro.md');
    expect([...files.keys()]).toEqual([
      'SUMMARY.md',
      'intro.md',
      'start/setup.md',
      'intro-2.md',
      'readme-2.md',
    ]);
    expect(files.get('SUMMARY.md')).toBe(
      [
        '# Table of contents',
        '',
        '* [Welcome](intro.md)',
        '  * [Setup](start/setup.md)',
        '* [Intro](intro-2.md)',
        '* [Readme](readme-2.md)',
        '',
      ].join('\n'),
    );
    expect(files.get('intro.md')).toBe('# Welcome\n\nSee [setup](start/setup.md).\n');
    expect(files.get('start/setup.md')).toBe('# Setup\n\n[Home](../intro.md#a)\n');
    expect(files.get('readme-2.md')).toBe('# Readme\n\n[Home](intro.md)\n');
  });

  it('leaves the default layout as it was', () => {
    const files = texts(SPACE);
    expect([...files.keys()]).toEqual([
      'SUMMARY.md',
      'README.md',
      'start/setup.md',
      'intro.md',
      'readme-2.md',
    ]);
    expect(files.get('start/setup.md')).toBe('# Setup\n\n[Home](../#a)\n');
  });

  it('reads back into the same tree and slugs with the same structure', async () => {
    const files = texts(SPACE, 'intro.md');
    const parsed = await parseGitSyncLayout(
      (path) => files.get(path),
      () => [...files.keys()],
      { structure: { readme: 'intro.md', summary: 'SUMMARY.md' } },
    );
    expect(parsed.problems).toEqual([]);
    expect(outline(parsed.pages)).toEqual([
      ['intro.md', 'start', [['start/setup.md', 'setup', []]]],
      ['intro-2.md', 'intro-2', []],
      ['readme-2.md', 'readme-2', []],
    ]);
  });

  it('never gives a page the file of a renamed table of contents (structure.summary)', () => {
    const space: MirrorSpace = {
      pages: [doc('p-home', 'Home', 'home'), doc('p-toc', 'Toc', 'toc')],
      files: [],
    };
    const layout = renderGitSyncLayout(space, { readmePath: 'intro.md', summaryPath: 'toc.md' });
    expect([...layout.files.keys()]).toEqual(['toc.md', 'intro.md', 'toc-2.md']);
    expect(layout.files.get('toc.md')?.kind).toBe('summary');
  });
});
