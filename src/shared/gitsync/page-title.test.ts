import { describe, expect, it } from 'vitest';
import { leadingHeading, unescapeMarkdown } from './page-title';

describe('leadingHeading', () => {
  it('reads a leading ATX heading, escapes resolved and closing hashes removed', () => {
    expect(leadingHeading('# Getting \\*started\\* #\n\nBody')).toBe('Getting *started*');
    expect(leadingHeading('   # Indented\n')).toBe('Indented');
    expect(leadingHeading('# Bell &#x7; title')).toBe('Bell \u0007 title');
  });

  it('has no title for a page that does not start with a level-1 heading', () => {
    expect(leadingHeading('Intro\n# Later')).toBeUndefined();
    expect(leadingHeading('## Second level')).toBeUndefined();
    expect(leadingHeading('#\n')).toBeUndefined();
    expect(leadingHeading('    # code block')).toBeUndefined();
  });

  it('keeps references to printable characters as they are', () => {
    expect(unescapeMarkdown('&#x41; \\[x\\]')).toBe('&#x41; [x]');
  });
});
