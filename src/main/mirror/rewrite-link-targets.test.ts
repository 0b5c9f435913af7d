import { describe, expect, it } from 'vitest';
import { markdownDestination, rewriteLinkTargets } from './rewrite-link-targets';

const upper = (target: string) => (target.startsWith('x') ? target.toUpperCase() : undefined);

describe('rewriteLinkTargets', () => {
  it('rewrites Markdown link and image destinations, keeping titles and other text', () => {
    expect(rewriteLinkTargets('See [a](x1 "title") and ![img](x2) or [b](y).', upper)).toBe(
      'See [a](X1 "title") and ![img](X2) or [b](y).',
    );
  });

  it('unwraps <…> destinations and wraps results that need it', () => {
    const seen: string[] = [];
    const result = rewriteLinkTargets('![](<x a (1).png>) ![](x.png)', (target) => {
      seen.push(target);
      return target === 'x.png' ? '../x b.png' : 'plain.png';
    });
    expect(seen).toEqual(['x a (1).png', 'x.png']);
    expect(result).toBe('![](plain.png) ![](<../x b.png>)');
  });

  it('rewrites src, srcset, href, data-* and liquid url/src attributes, either quote', () => {
    const markdown = [
      '<figure><img src="x1" srcset=\'x2\'><figcaption></figcaption></figure>',
      '<a href="x3" data-card-cover="x4">',
      '{% file src="x5" %}',
      '{% embed url="x6" %}',
      '<img alt="x7">',
    ].join('\n');
    expect(rewriteLinkTargets(markdown, upper)).toBe(
      [
        '<figure><img src="X1" srcset=\'X2\'><figcaption></figcaption></figure>',
        '<a href="X3" data-card-cover="X4">',
        '{% file src="X5" %}',
        '{% embed url="X6" %}',
        '<img alt="x7">',
      ].join('\n'),
    );
  });

  it('leaves fenced code blocks and inline code spans alone', () => {
    const markdown = [
      'Use `![alt](x1)` like ``this `one` [a](x2)`` then [b](x3).',
      '````markdown',
      '```',
      '![alt](x4)',
      '```',
      '````',
      '  ~~~',
      '  <img src="x6">',
      '  ~~~',
      '[c](x7) and a lone ` backtick [d](x8)',
    ].join('\n');
    expect(rewriteLinkTargets(markdown, upper)).toBe(
      [
        'Use `![alt](x1)` like ``this `one` [a](x2)`` then [b](X3).',
        '````markdown',
        '```',
        '![alt](x4)',
        '```',
        '````',
        '  ~~~',
        '  <img src="x6">',
        '  ~~~',
        '[c](X7) and a lone ` backtick [d](X8)',
      ].join('\n'),
    );
  });

  it('closes fences on CRLF lines too', () => {
    expect(rewriteLinkTargets('```\r\n[a](x1)\r\n```\r\n[b](x2)\r\n', upper)).toBe(
      '```\r\n[a](x1)\r\n```\r\n[b](X2)\r\n',
    );
  });

  it('keeps destinations with balanced parentheses whole and returns untouched input as is', () => {
    const seen: string[] = [];
    rewriteLinkTargets('[w](https://en.wikipedia.org/wiki/A_(b)) and [e]()', (target) => {
      seen.push(target);
      return undefined;
    });
    expect(seen).toEqual(['https://en.wikipedia.org/wiki/A_(b)']);
    const text = 'nothing to do [a](b)\n';
    expect(rewriteLinkTargets(text, () => undefined)).toBe(text);
  });
});

describe('markdownDestination', () => {
  it('wraps targets with spaces or parentheses in angle brackets, as Git Sync does', () => {
    expect(markdownDestination('.gitbook/assets/image (8).png')).toBe(
      '<.gitbook/assets/image (8).png>',
    );
    expect(markdownDestination('../a/b.md#x')).toBe('../a/b.md#x');
  });
});
