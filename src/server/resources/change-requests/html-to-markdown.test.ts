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
        '| - | - |',
        '| 1 | x\\|y |',
        '',
        '---',
        '',
        'Stars \\* and \\_under\\_ \\[brackets]',
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

  describe(
    'hostile HTML finishes in bounded time, without a stack overflow',
    { timeout: 120_000 },
    () => {
      /**
       * Generous for a loaded machine (each case takes a few seconds at most alone); on the server
       * the CPU pool's budget ends a job that runs longer.
       */
      const BOUND_MS = 20_000;
      const convert = (html: string) => {
        const started = performance.now();
        const result = htmlToMarkdown(html, { baseUrl: 'https://site.example/' });
        expect(performance.now() - started).toBeLessThan(BOUND_MS);
        return result.markdown;
      };

      it('100,000 nested elements', () => {
        for (const unit of ['<div>', '<blockquote>', '<ul><li>', '<table><tr><td>', '<span>']) {
          expect(convert(`<body>${unit.repeat(100_000)}deep</body>`)).toContain('deep');
        }
      });

      it('unclosed tags and nested emphasis', () => {
        expect(convert(`<body>${'<b><i><p><table><tr><td>'.repeat(20_000)}x</body>`)).toContain(
          'x',
        );
        expect(convert(`${'<b><i>'.repeat(100_000)}x`)).toContain('x');
        // Formatting elements closed implicitly are re-opened by the parser in every later block.
        expect(
          convert(Array.from({ length: 2000 }, (_, i) => `<div><b class=k${i}>t</div>`).join('')),
        ).toContain('t');
        expect(convert(`${'<a x="'.repeat(50_000)}`)).toBeDefined();
        expect(convert(`${'<p>one<li>two<td>three'.repeat(5000)}`)).toContain('three');
      });

      it('entity floods', () => {
        expect(convert(`<p>${'&amp;'.repeat(200_000)}</p>`)).toContain('&&&');
        expect(convert(`<p>${'&amp;&lt;&#x41;&nbsp;&bogus;'.repeat(100_000)}</p>`)).toContain('A');
      });

      it('huge attribute values', () => {
        const huge = 'x'.repeat(1_000_000);
        expect(convert(`<p><a href="/${huge}" title="${huge}">link</a></p>`)).toContain('[link](');
        expect(convert(`<p><img alt="${huge}" src="i.png"></p>`)).toContain(
          '](https://site.example/i.png)',
        );
        expect(convert(`<p class="${'a '.repeat(500_000)}">text</p>`)).toBe('text\n');
      });

      it('drops script and style content', () => {
        const markdown = convert(
          `<p>before</p><script>alert("s")</script><style>p { color: red }</style>` +
            `<p>after<script>document.write("t")</p><style>unclosed { }`,
        );
        expect(markdown).toBe('before\n\nafter\n');
      });

      it('never makes script links or images', () => {
        const markdown = convert(
          [
            '<a href="javascript:alert(1)">one</a>',
            '<a href=" JaVaScRiPt:alert(1)">two</a>',
            '<a href="java&#x09;script:alert(1)">three</a>',
            '<a href="vbscript:msgbox(1)">four</a>',
            '<a href="data:text/html,<script>alert(1)</script>">five</a>',
            '<img src="javascript:alert(1)" alt="six">',
            '<a href="/fine">seven</a>',
          ].join(' '),
        );
        expect(markdown.replace(/ +/g, ' ')).toBe(
          'one two three four five [seven](https://site.example/fine)\n',
        );
      });
    },
  );
});
