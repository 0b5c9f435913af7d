import { describe, expect, it } from 'vitest';
import { readFrontmatter } from './frontmatter-block';
import { frontmatterProblemMessage } from './frontmatter-problem';
import { pickPageFields, readPageFields } from './page-fields';

describe('readPageFields', () => {
  it('reads every page field and collects every problem, in the server’s order', () => {
    const { fields, problems } = readPageFields({
      description: 'Hi',
      emoji: 2728,
      hidden: 'yes',
      noIndex: true,
      cover: ['x'],
      coverY: 4,
      coverHeight: 'tall',
      layout: 'wide',
      title: '  Custom  ',
      name: 'kept elsewhere',
    });
    expect(fields).toEqual({
      description: 'Hi',
      emoji: '2728',
      noIndex: true,
      coverY: 4,
      title: 'Custom',
    });
    expect(problems.map(frontmatterProblemMessage)).toEqual([
      'frontmatter field "hidden" must be true or false',
      'frontmatter field "coverHeight" must be a number',
      'frontmatter field "layout" must be a mapping',
      'frontmatter field "cover" must be a path or URL',
    ]);
  });

  it('reads a timestamp as its ISO text on both sides, and a blank title as none', () => {
    const read = readFrontmatter('---\ndescription: 2024-01-31\ntitle: " "\n---\n# Page\n');
    if ('problem' in read) throw new Error('unexpected problem');
    expect(read.data).toEqual({ description: '2024-01-31T00:00:00.000Z', title: ' ' });
    expect(readPageFields(read.data)).toEqual({
      fields: { description: '2024-01-31T00:00:00.000Z' },
      problems: [],
    });
    expect(read.body).toBe('# Page\n');
  });

  it('reports a block it cannot read with the page’s line', () => {
    const read = readFrontmatter('---\ntitle: ok\ndescription: a: b\n---\n');
    expect('problem' in read && frontmatterProblemMessage(read.problem)).toMatch(
      /^invalid YAML frontmatter: .+ at line 3, column \d+$/,
    );
    expect(readFrontmatter('---js\n{}\n---\n')).toEqual({
      problem: { kind: 'language', language: 'js' },
    });
    expect(readFrontmatter('---\n- a\n---\n')).toEqual({ problem: { kind: 'not-mapping' } });
  });
});

describe('pickPageFields', () => {
  it('keeps the set page fields and nothing else', () => {
    const source = { title: 'T', description: 'd', hidden: false, icon: undefined, slug: 's' };
    expect(pickPageFields(source)).toEqual({ description: 'd', hidden: false });
  });
});
