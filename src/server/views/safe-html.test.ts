import { describe, expect, it } from 'vitest';
import { escapeHtml, markup, safeHref, SafeHtml } from './safe-html';

describe('markup', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const text = `<img src=x onerror="a('1')">&`;
    expect(markup`<p title="${text}">${text}</p>`.value).toBe(
      '<p title="&lt;img src=x onerror=&quot;a(&#39;1&#39;)&quot;&gt;&amp;">' +
        '&lt;img src=x onerror=&quot;a(&#39;1&#39;)&quot;&gt;&amp;</p>',
    );
  });

  it('keeps SafeHtml and lists of it as they are, and drops null and undefined', () => {
    const items = ['a', '<b>'].map((item) => markup`<li>${item}</li>`);
    expect(markup`<ul>${items}</ul>${null}${undefined}${new SafeHtml('<hr>')}`.value).toBe(
      '<ul><li>a</li><li>&lt;b&gt;</li></ul><hr>',
    );
  });

  it('escapes the five characters that matter', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('safeHref', () => {
  it('lets http(s) and mailto through, normalised', () => {
    expect(safeHref('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(safeHref('mailto:ada@acme.test')).toBe('mailto:ada@acme.test');
  });

  it('refuses every other scheme, however spelled, and what is not a URL', () => {
    for (const href of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>x</script>',
      'vbscript:x',
      '/relative',
      '',
    ]) {
      expect(safeHref(href), href).toBeNull();
    }
  });
});
