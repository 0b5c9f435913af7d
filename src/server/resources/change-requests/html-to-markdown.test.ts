import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown';

describe('htmlToMarkdown', () => {
  it('maps headings, paragraphs, marks, links, images, lists, code, quotes and tables', () => {
    const html = `<html><head><title>Doc</title><script>x()</script></head><body>
      <h1>Title</h1>
      <p>Some <strong>bold</strong>, <em>italic</em>, <del>gone</del> and <code>a\`b</code>.<br>Next line.</p>
      <h3>Sub &amp; more</h3>
      <p><a href="rel/page">relative</a> <a href="javascript:alert(1)">bad</a> <img src="/i.png" alt="pic"></p>
      <ol start="3"><li>three<ul><li>nested</li></ul></li><li>four</li></ol>
      <blockquote><p>Quoted</p><p>twice</p></blockquote>
      <pre class="language-js"><code>if (a &lt; b) {
  go();
}</code></pre>
      <table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>x|y</td></tr></table>
      <hr>
      <p>Stars * and _under_ [brackets]</p>
    </body></html>`;
    const { title, markdown } = htmlToMarkdown(html, { baseUrl: 'https://docs.example/a/b' });
    expect(title).toBe('Title');
    expect(markdown).toBe(
      [
        '# Title',
        '',
        'Some **bold**, *italic*, ~~gone~~ and ``a`b``.\\',
        'Next line.',
        '',
        '### Sub & more',
        '',
        '[relative](https://docs.example/a/rel/page) bad ![pic](https://docs.example/i.png)',
        '',
        '3. three',
        '',
        '   - nested',
        '4. four',
        '',
        '> Quoted',
        '>',
        '> twice',
        '',
        '```js',
        'if (a < b) {',
        '  go();',
        '}',
        '```',
        '',
        '| A | B |',
        '| --- | --- |',
        '| 1 | x\\|y |',
        '',
        '---',
        '',
        'Stars \\* and \\_under\\_ \\[brackets\\]',
        '',
      ].join('\n'),
    );
  });

  it('keeps only the main content of a website page and titles it from <title>', () => {
    const html = `<body><nav><a href="/">Home</a></nav><header>Header</header>
      <article><p>Article text.</p></article><aside>Related</aside><footer>Footer</footer></body>`;
    expect(htmlToMarkdown(`<title>My page</title>${html}`, { mainContent: true })).toEqual({
      title: 'My page',
      markdown: '# My page\n\nArticle text.\n',
    });
    // Without mainContent, only scripts and the like are dropped.
    expect(htmlToMarkdown(html).markdown).toContain('Related');
  });

  it('survives broken markup: unclosed tags, stray closers, implied ends', () => {
    const { markdown } = htmlToMarkdown('<p>one<p>two</span><ul><li>a<li>b</ul><div>tail');
    expect(markdown).toBe('one\n\ntwo\n\n- a\n- b\n\ntail\n');
    expect(htmlToMarkdown('').markdown).toBe('');
    expect(htmlToMarkdown('<script>never closed').markdown).toBe('');
  });
});
