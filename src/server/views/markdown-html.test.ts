import { describe, expect, it } from 'vitest';
import { markdownToHtml, pageBodyToHtml } from './markdown-html';

describe('markdownToHtml', () => {
  it('renders CommonMark and GFM', () => {
    expect(markdownToHtml('# Title\n\nSome *text* and a [link](https://example.com).\n')).toBe(
      '<h1>Title</h1>\n<p>Some <em>text</em> and a <a href="https://example.com">link</a>.</p>',
    );
    expect(markdownToHtml('| a | b |\n| - | - |\n| 1 | 2 |\n')).toContain('<td>1</td>');
    expect(markdownToHtml('- [x] done\n')).toContain('type="checkbox"');
  });

  it('keeps raw HTML only as far as the allow-list goes, and no unsafe URL', () => {
    const html = markdownToHtml(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '[a](javascript:alert(1))',
        '![b](data:image/png;base64,AAAA)',
        '<iframe src="https://evil.example"></iframe>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<(script|iframe)|<[^>]*\son\w+=|(href|src)="(javascript|data):/i);
    expect(html).toContain('<a>a</a>');
    expect(html).toContain('<img alt="b">');
  });

  it("renders GitBook's HTML figures, their images pointed at the view addresses given", () => {
    const html = markdownToHtml(
      '<figure><img src=".gitbook/assets/a.png" alt="A"><figcaption><p>Caption</p></figcaption></figure>\n',
      { '.gitbook/assets/a.png': 'https://docs.example.com/v1/files/s1/f1/a.png' },
    );
    expect(html).toBe(
      '<figure><img src="https://docs.example.com/v1/files/s1/f1/a.png" alt="A">' +
        '<figcaption><p>Caption</p></figcaption></figure>',
    );
  });

  it("shows Git Sync's liquid blocks: hints as quotes, tab titles, embeds as links", () => {
    const html = markdownToHtml(
      [
        '{% hint style="info" %}',
        'Read **this**.',
        '{% endhint %}',
        '{% tabs %}',
        '{% tab title="macOS" %}',
        'brew install x',
        '{% endtab %}',
        '{% endtabs %}',
        '{% embed url="https://example.com/v" %}',
      ].join('\n'),
    );
    expect(html).toBe(
      '<blockquote>\n<p>Read <strong>this</strong>.</p>\n</blockquote>\n' +
        '<p><strong>macOS</strong></p>\n<p>brew install x</p>\n' +
        '<p><a href="https://example.com/v">https://example.com/v</a></p>',
    );
  });

  it('stays bounded on pathological nesting', () => {
    const html = markdownToHtml('>'.repeat(50_000));
    expect(html.length).toBeGreaterThan(0);
  });
});

describe('link targets', () => {
  it('points links, images and definitions at the view addresses given, and nothing else', () => {
    const html = markdownToHtml('[a](x.md) ![b](/files/f1) [c][d] [e](y.md)\n\n[d]: x.md\n', {
      'x.md': '/app/s/s1/x',
      '/files/f1': 'https://docs.example.com/v1/files/s1/f1/b.png?sig=1',
    });
    expect(html).toBe(
      '<p><a href="/app/s/s1/x">a</a> <img src="https://docs.example.com/v1/files/s1/f1/b.png?sig=1" alt="b"> ' +
        '<a href="/app/s/s1/x">c</a> <a href="y.md">e</a></p>',
    );
  });

  it('still sanitises what a target is pointed at', () => {
    expect(markdownToHtml('[a](x.md)', { 'x.md': 'javascript:alert(1)' })).toBe('<p><a>a</a></p>');
  });
});

describe('pageBodyToHtml', () => {
  it('leaves out the frontmatter and the leading title (page fields shown around it)', () => {
    expect(pageBodyToHtml('---\ndescription: D\n---\n\n# Title\n\nBody.\n')).toBe('<p>Body.</p>');
  });
});
