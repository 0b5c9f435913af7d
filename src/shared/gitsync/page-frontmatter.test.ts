import { describe, expect, it } from 'vitest';
import {
  composeFrontmatter,
  findFrontmatterBlock,
  formatFrontmatter,
  FrontmatterError,
  layoutFromFrontmatter,
  layoutToFrontmatter,
  readFrontmatterFields,
  sameFrontmatter,
  splitFrontmatter,
} from './page-frontmatter';

describe('splitFrontmatter', () => {
  it('splits a closed YAML block from the Markdown after it', () => {
    const split = splitFrontmatter('---\ndescription: Hi\nhidden: true\n---\n\n# Page\n');
    expect(split).toEqual({
      data: { description: 'Hi', hidden: true },
      raw: '---\ndescription: Hi\nhidden: true\n---\n',
      body: '\n# Page\n',
    });
  });

  it('treats Markdown without a closed block at the start as having none', () => {
    expect(splitFrontmatter('# Page\n\n---\n')).toEqual({ raw: '', body: '# Page\n\n---\n' });
    expect(splitFrontmatter('---\ntitle: x\n')).toEqual({ raw: '', body: '---\ntitle: x\n' });
    expect(splitFrontmatter('----\na: 1\n----\n').data).toBeUndefined();
  });

  it('reads an empty block, CRLF line ends and a block at the very end', () => {
    expect(splitFrontmatter('---\n---\n# A\n')).toEqual({
      data: {},
      raw: '---\n---\n',
      body: '# A\n',
    });
    expect(splitFrontmatter('---\r\na: 1\r\n---\r\nbody').data).toEqual({ a: 1 });
    expect(splitFrontmatter('---\na: 1\n---').body).toBe('');
  });

  it('refuses JavaScript frontmatter without evaluating it', () => {
    const marker = globalThis as { quireFrontmatterRan?: boolean };
    for (const language of ['js', 'javascript', 'coffee', 'json', 'toml']) {
      expect(() =>
        splitFrontmatter(`---${language}\n{ a: (globalThis.quireFrontmatterRan = true) }\n---\n`),
      ).toThrow(FrontmatterError);
    }
    expect(marker.quireFrontmatterRan).toBeUndefined();
  });

  it('reports invalid YAML and non-mapping blocks as FrontmatterError', () => {
    expect(() => splitFrontmatter('---\ndescription: a: b\n---\n')).toThrow(/invalid YAML/);
    expect(() => splitFrontmatter('---\n- a\n- b\n---\n')).toThrow(/mapping/);
    expect(() => splitFrontmatter('---\njust text\n---\n')).toThrow(/mapping/);
  });

  it('refuses alias bombs and keeps __proto__ an ordinary key', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ].join('\n');
    expect(() => splitFrontmatter(`---\n${bomb}\n---\n`)).toThrow(/too large/);
    const data = splitFrontmatter('---\n__proto__:\n  polluted: true\n---\n').data ?? {};
    expect(Object.keys(data)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('finds the block without parsing it', () => {
    expect(findFrontmatterBlock('---yaml\na: [\n---\nrest')).toEqual({
      raw: '---yaml\na: [\n---\n',
      yaml: 'a: [\n',
      language: 'yaml',
      body: 'rest',
    });
  });
});

describe('composeFrontmatter', () => {
  it('writes only set fields, in Git Sync’s key order', () => {
    const data = composeFrontmatter({
      icon: 'money-bill-transfer',
      noRobotsIndex: true,
      noIndex: true,
      hidden: true,
      description: 'Everything you need to know',
    });
    expect(Object.keys(data)).toEqual([
      'description',
      'hidden',
      'noIndex',
      'noRobotsIndex',
      'icon',
    ]);
    expect(composeFrontmatter({ hidden: false, noIndex: false, description: '' })).toEqual({});
  });

  it('writes the cover and layout of the API shape as Git Sync’s keys', () => {
    const data = composeFrontmatter(
      {
        description: 'Docs',
        cover: { ref: { kind: 'file', file: 'f1' }, yPos: 0, height: 461 },
        layout: {
          width: 'wide',
          cover: true,
          coverSize: 'background',
          coverMask: 'none',
          title: false,
          pagination: true,
        },
      },
      { coverSource: '.gitbook/assets/hero (1).png' },
    );
    expect(formatFrontmatter(data)).toBe(
      [
        '---',
        'description: Docs',
        'cover: .gitbook/assets/hero (1).png',
        'coverY: 0',
        'coverHeight: 461',
        'layout:',
        '  width: wide',
        '  cover:',
        '    visible: true',
        '    size: background',
        '    mask: none',
        '  title:',
        '    visible: false',
        '  pagination:',
        '    visible: true',
        '---',
        '',
      ].join('\n'),
    );
  });

  it('leaves the layout’s cover options out for a page without a cover, as GitBook does', () => {
    expect(composeFrontmatter({ layout: { width: 'default', cover: true, title: true } })).toEqual({
      layout: { width: 'default', title: { visible: true } },
    });
  });

  it('keeps unknown keys of the Markdown’s frontmatter first, and its tags after the layout', () => {
    const existing = {
      tags: ['beta'],
      name: 'write-docs',
      description: 'old',
      metadata: { version: '1.0' },
      hidden: true,
    };
    const data = composeFrontmatter({ description: 'new', hidden: true }, { existing });
    expect(data).toEqual({
      name: 'write-docs',
      metadata: { version: '1.0' },
      description: 'new',
      hidden: true,
      tags: ['beta'],
    });
    expect(Object.keys(data)).toEqual(['name', 'metadata', 'description', 'hidden', 'tags']);
  });

  it('takes field keys from the page (a cleared field is dropped) and cover/layout from the Markdown when the page has none', () => {
    const existing = {
      description: 'stale',
      icon: 'book',
      cover: '../.gitbook/assets/a.png',
      coverY: 10,
      layout: { width: 'wide' },
    };
    expect(composeFrontmatter({}, { existing })).toEqual({
      cover: '../.gitbook/assets/a.png',
      coverY: 10,
      layout: { width: 'wide' },
    });
  });
});

describe('layout mapping', () => {
  it('round-trips the flat API options through the nested frontmatter form', () => {
    const layout = {
      width: 'wide' as const,
      cover: true,
      coverSize: 'hero',
      coverMask: 'radial',
      title: false,
      description: true,
      tableOfContents: false,
      outline: true,
      pagination: false,
      metadata: true,
      tags: false,
      actions: true,
      anchors: false,
    };
    expect(layoutFromFrontmatter(layoutToFrontmatter(layout, true))).toEqual(layout);
    expect(layoutFromFrontmatter({ width: 'huge', title: 'yes', outline: { visible: 1 } })).toEqual(
      {},
    );
  });
});

describe('readFrontmatterFields', () => {
  it('reads the page fields and reports the ones of the wrong type', () => {
    const fields = readFrontmatterFields({
      description: 'Hi',
      emoji: 2728,
      hidden: 'yes',
      noIndex: true,
      cover: ['x'],
      coverY: 4,
      coverHeight: 'tall',
      layout: { width: 'wide' },
      title: 'Custom',
    });
    expect(fields).toEqual({
      description: 'Hi',
      emoji: '2728',
      noIndex: true,
      coverY: 4,
      layout: { width: 'wide' },
      title: 'Custom',
      problems: [
        'frontmatter "hidden" must be true or false',
        'frontmatter "coverHeight" must be a number',
        'frontmatter "cover" must be a path or a URL',
      ],
    });
  });
});

describe('sameFrontmatter', () => {
  it('compares values with key order, dates by time', () => {
    expect(sameFrontmatter({ a: 1, b: [1, { c: 2 }] }, { a: 1, b: [1, { c: 2 }] })).toBe(true);
    expect(sameFrontmatter({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameFrontmatter({ a: [1] }, { a: { 0: 1 } })).toBe(false);
    expect(sameFrontmatter(new Date(5), new Date(5))).toBe(true);
    expect(sameFrontmatter(new Date(5), '1970')).toBe(false);
  });
});
