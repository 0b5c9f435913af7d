import { describe, expect, it } from 'vitest';
import { planImportTree, type PlannedPage } from './plan-import-tree';

const text = (path: string, content: string) => ({ path, bytes: Buffer.from(content) });

function outline(pages: readonly PlannedPage[]): unknown[] {
  return pages.map((page) => [page.type, page.title, page.slug, outline(page.pages)]);
}

describe('planImportTree', () => {
  it('reads the docs from the root and summary .gitbook.yaml names, with its redirects', () => {
    const plan = planImportTree({
      texts: [
        text(
          '.gitbook.yaml',
          'root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\nredirects:\n  a: b.md\n  c: d.md\n',
        ),
        text('docs/toc.md', '# Summary\n\n* [Intro](intro.md)\n* [Guide](guide.md)\n'),
        text('docs/intro.md', '# Intro\n\nSee [the guide](guide.md#x).\n'),
        text('docs/guide.md', '# Guide\n'),
        text('README.md', '# The repository, not the docs\n'),
      ],
      assets: ['docs/.gitbook/assets/a.png', '.gitbook/assets/outside.png'],
    });
    if ('refused' in plan) throw new Error(plan.refused.message);
    expect(outline(plan.pages)).toEqual([
      ['document', 'Intro', 'intro', []],
      ['document', 'Guide', 'guide', []],
    ]);
    expect(plan.files.map((file) => file.name)).toEqual(['a.png']);
    expect(Object.keys(plan.config.redirects)).toEqual(['a', 'c']);
    const guideId = plan.pages[1]!.id;
    expect(plan.pages[0]!.markdown).toBe(`# Intro\n\nSee [the guide](/pages/${guideId}#x).\n`);
  });

  it('infers the tree without a summary: first page, names in order, folders by README.md', () => {
    const plan = planImportTree({
      texts: [
        text('b.md', '---\ndescription: x\n---\n\n# Bee \\*\n'),
        text('README.md', '# Home\n'),
        text('a/README.md', '# Section A\n'),
        text('a/z.md', 'no heading\n'),
        text('a/deep/README.md', '# Deep\n'),
        text('a/deep/one.md', '# One\n'),
        text('loose/x.md', '# Loose\n'),
        text('.gitbook/includes/part.md', '# Not a page\n'),
      ],
      assets: [],
    });
    if ('refused' in plan) throw new Error(plan.refused.message);
    expect(outline(plan.pages)).toEqual([
      ['document', 'Home', 'home', []],
      [
        'document',
        'Section A',
        'a',
        [
          ['document', 'Deep', 'deep', [['document', 'One', 'one', []]]],
          ['document', 'z', 'z', []],
        ],
      ],
      ['document', 'Bee *', 'b', []],
      ['document', 'Loose', 'x', []],
    ]);
    expect(plan.problems).toEqual([
      { path: 'SUMMARY.md', message: expect.stringContaining('inferred from the folders') },
    ]);
  });

  it('refuses a .gitbook.yaml root outside the layout', () => {
    const outside = planImportTree({ texts: [text('.gitbook.yaml', 'root: ../x\n')], assets: [] });
    expect(outside).toEqual({
      refused: { path: '.gitbook.yaml', message: 'root "../x" leaves the repository' },
    });
  });

  it('lifts the children of a missing page, and makes link pages of URLs and repeated files', () => {
    const plan = planImportTree({
      texts: [
        text(
          'SUMMARY.md',
          '* [Gone](gone/README.md)\n  * [Child](gone/child.md)\n* [Again](gone/child.md)\n* [Web](https://example.com)\n',
        ),
        text('gone/child.md', '# Child\n'),
      ],
      assets: [],
    });
    if ('refused' in plan) throw new Error(plan.refused.message);
    expect(outline(plan.pages)).toEqual([
      ['document', 'Child', 'child', []],
      ['link', 'Again', 'again', []],
      ['link', 'Web', 'web', []],
    ]);
    expect(plan.problems).toEqual([
      expect.objectContaining({
        path: 'gone/README.md',
        message: expect.stringContaining('missing'),
      }),
    ]);
  });
});
