import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dumpYaml, parseFrontmatterYaml, type YamlValue } from './frontmatter-yaml';

describe('dumpYaml', () => {
  it('folds long strings with >- at 78 columns for top-level values, as Git Sync does', () => {
    const description =
      'Create and publish AI-native documentation your users will love. GitBook gives you ' +
      'intelligent tools to build product guides, API references, and documentation that ' +
      'improves over time.';
    expect(dumpYaml({ description })).toBe(
      'description: >-\n' +
        '  Create and publish AI-native documentation your users will love. GitBook gives\n' +
        '  you intelligent tools to build product guides, API references, and\n' +
        '  documentation that improves over time.\n',
    );
    // 70 characters fit: plain.
    const short = 'Publish your docs publicly to the web so that everyone can access them';
    expect(dumpYaml({ description: short })).toBe(`description: ${short}\n`);
  });

  it('keeps commas plain (js-yaml 3 would quote them) and quotes what reads as another type', () => {
    expect(dumpYaml({ description: 'Add header buttons, footers, and more' })).toBe(
      'description: Add header buttons, footers, and more\n',
    );
    expect(
      dumpYaml({ version: '1.0', flag: 'true', nothing: 'null', on: 'yes', time: '12:30' }),
    ).toBe("version: '1.0'\nflag: 'true'\nnothing: 'null'\n'on': 'yes'\ntime: '12:30'\n");
    expect(dumpYaml({ date: '2024-01-31', hex: '0x1F', octal: '0o17', empty: '' })).toBe(
      "date: '2024-01-31'\nhex: '0x1F'\noctal: '0o17'\nempty: ''\n",
    );
    expect(dumpYaml({ a: 'key: value', b: '#tag', c: 'a #b', d: 'a#b', e: "it's" })).toBe(
      "a: 'key: value'\nb: '#tag'\nc: 'a #b'\nd: a#b\ne: it's\n",
    );
  });

  it('double-quotes strings with a no-break space or control characters, never folding them', () => {
    const description = `Tags are reusable labels you can add to pages and update blocks —\u00a0this page tells you how to create, add and manage tags`;
    expect(dumpYaml({ description })).toBe(
      'description: "Tags are reusable labels you can add to pages and update blocks —\\_this page tells you how to create, add and manage tags"\n',
    );
    expect(dumpYaml({ a: 'tab\there', b: 'bell\u0007', c: 'line\u2028sep' })).toBe(
      'a: "tab\\there"\nb: "bell\\a"\nc: "line\\Lsep"\n',
    );
  });

  it('writes multi-line strings as literal blocks with the right chomping', () => {
    expect(dumpYaml({ a: 'one\ntwo', b: 'one\ntwo\n', c: 'one\n\n', d: ' lead\nx' })).toBe(
      'a: |-\n  one\n  two\nb: |\n  one\n  two\nc: |+\n  one\n\nd: |2-\n   lead\n  x\n',
    );
  });

  it('writes nested mappings and sequences in block style', () => {
    expect(
      dumpYaml({
        layout: { width: 'wide', cover: { visible: true, size: 'background' } },
        tags: ['beta', { tag: 'new', primary: true }],
        metadata: { version: '1.0' },
        empty: {},
        none: [],
        nested: [[1, 2], []],
      }),
    ).toBe(
      [
        'layout:',
        '  width: wide',
        '  cover:',
        '    visible: true',
        '    size: background',
        'tags:',
        '  - beta',
        '  - tag: new',
        '    primary: true',
        'metadata:',
        "  version: '1.0'",
        'empty: {}',
        'none: []',
        'nested:',
        '  - - 1',
        '    - 2',
        '  - []',
        '',
      ].join('\n'),
    );
  });

  it('writes numbers, booleans, null and dates as js-yaml does', () => {
    expect(
      dumpYaml({
        int: 461,
        negative: -3,
        float: 0.5,
        big: 1e21,
        tiny: 5e-100,
        nan: NaN,
        inf: Infinity,
        ninf: -Infinity,
        zero: -0,
        isTrue: true,
        isFalse: false,
        nil: null,
        when: new Date('2024-01-31T10:00:00Z'),
      }),
    ).toBe(
      [
        'int: 461',
        'negative: -3',
        'float: 0.5',
        // An integer, which js-yaml writes with toString.
        'big: 1e+21',
        'tiny: 5.e-100',
        'nan: .nan',
        'inf: .inf',
        'ninf: -.inf',
        'zero: -0.0',
        'isTrue: true',
        'isFalse: false',
        'nil: null',
        'when: 2024-01-31T10:00:00.000Z',
        '',
      ].join('\n'),
    );
  });

  it('skips undefined mapping values and writes missing sequence items as null', () => {
    expect(dumpYaml({ a: undefined, b: 1 })).toBe('b: 1\n');
    expect(dumpYaml({ list: [1, undefined as unknown as null, 3] })).toBe(
      'list:\n  - 1\n  - null\n  - 3\n',
    );
  });

  it('narrows the fold width with depth, down to 40 columns', () => {
    const text = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const yaml = dumpYaml({ a: { b: { c: text } } });
    const lines = yaml.split('\n').filter((line) => line.startsWith('      '));
    expect(lines.length).toBeGreaterThan(2);
    // Level 3 → indent 6, width 74: every folded line fits, content-wise.
    for (const line of lines) expect(line.length - 6).toBeLessThanOrEqual(74);
  });

  it('reads back (through the shared YAML reader) as the value it wrote', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.:#'"’—-]{0,30}$/);
    const text = fc.oneof(
      word,
      fc.array(word, { maxLength: 30 }).map((w) => w.join(' ')),
    );
    const leaf = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z]{0,8}$/), tie('node'), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z]{0,8}$/), value.node, { minKeys: 1 }),
        (data) => {
          // The generators only build YAML values; fast-check types the recursion as unknown.
          expect(parseFrontmatterYaml(dumpYaml(data as YamlValue))).toEqual({ data });
        },
      ),
      { numRuns: 150 },
    );
  });
});
