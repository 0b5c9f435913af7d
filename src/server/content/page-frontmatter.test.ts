import { describe, expect, it } from 'vitest';
import { FrontmatterError, readPageFrontmatter } from './page-frontmatter';

describe('readPageFrontmatter', () => {
  it('reads the fields, the title and every key, and returns the Markdown after the block', () => {
    const read = readPageFrontmatter(
      '---\ndescription: Hi\nhidden: true\nlayout:\n  width: wide\ntitle: T\nname: kept\n---\n# H\n',
    );
    expect(read).toEqual({
      data: {
        description: 'Hi',
        hidden: true,
        layout: { width: 'wide' },
        title: 'T',
        name: 'kept',
      },
      fields: { description: 'Hi', hidden: true, layout: { width: 'wide' } },
      title: 'T',
      content: '# H\n',
    });
    expect(readPageFrontmatter('# No block\n')).toEqual({
      data: {},
      fields: {},
      content: '# No block\n',
    });
  });

  it('refuses with the first problem, as a FrontmatterError naming the line when known', () => {
    const refusal = (markdown: string) => {
      try {
        readPageFrontmatter(markdown);
      } catch (error) {
        if (error instanceof FrontmatterError) return { message: error.message, line: error.line };
        throw error;
      }
      return undefined;
    };
    expect(refusal('---\nhidden: yes\ndescription: [1]\n---\n')).toEqual({
      message: 'frontmatter field "description" must be a string',
      line: undefined,
    });
    expect(refusal('---\ntitle: [x]\n---\n')?.message).toBe(
      'frontmatter field "title" must be a string',
    );
    expect(refusal('---js\n{}\n---\n')).toEqual({
      message: 'frontmatter language "js" is not supported; use YAML',
      line: 1,
    });
    expect(refusal('---\n- a\n---\n')).toEqual({
      message: 'frontmatter must be a YAML mapping of keys to values',
      line: 2,
    });
    expect(refusal('---\na: 1\nb: c: d\n---\n')?.line).toBe(3);
  });
});
