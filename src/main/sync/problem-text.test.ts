import { describe, expect, it } from 'vitest';
import { problemText } from './problem-text';

describe('problemText', () => {
  it('leads with the path once', () => {
    expect(problemText('a/b.md', 'invalid YAML frontmatter')).toBe(
      'a/b.md: invalid YAML frontmatter',
    );
    expect(problemText('a/b.md', 'a/b.md: invalid YAML frontmatter')).toBe(
      'a/b.md: invalid YAML frontmatter',
    );
    expect(problemText('a/b.md', 'a/b.md was deleted, but its page is kept')).toBe(
      'a/b.md was deleted, but its page is kept',
    );
  });

  it('is the message alone without a path', () => {
    expect(problemText(null, 'The server could not be reached')).toBe(
      'The server could not be reached',
    );
    expect(problemText('', 'SUMMARY.md could not be parsed')).toBe(
      'SUMMARY.md could not be parsed',
    );
  });
});
