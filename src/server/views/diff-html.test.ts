import { describe, expect, it } from 'vitest';
import { renderLineDiff } from './diff-html';
import { lineDiff, lineDiffs, MAX_DIFF_CHARS } from './line-diff';

describe('line diffs', () => {
  it('marks added and removed lines and escapes them', () => {
    const parts = lineDiff({ before: 'a\n<b>\nc\n', after: 'a\n<B>\nc\n' });
    expect(renderLineDiff(parts, 'Changes to x').value).toBe(
      '<pre class="diff" aria-label="Changes to x"><span>  a</span>' +
        '<del>- &lt;b&gt;</del><ins>+ &lt;B&gt;</ins><span>  c</span></pre>',
    );
  });

  it('folds long unchanged runs to three lines of context', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'LINE 10');
    const html = renderLineDiff(lineDiff({ before, after }), 'x').value;
    expect(html).toContain('… 7 unchanged lines');
    expect(html).toContain('<span>  line 7</span>');
    expect(html).not.toContain('line 6<');
    expect(html).toContain('<span>  line 13</span>');
    expect(html).not.toContain('line 14<');
  });

  it('says when there is no text change, or when the diff is too large', () => {
    expect(renderLineDiff(lineDiff({ before: 'a\n', after: 'a\n' }), 'x').value).toContain(
      'No change to the text',
    );
    const huge = 'x\n'.repeat(MAX_DIFF_CHARS);
    expect(lineDiff({ before: huge, after: '' })).toBeNull();
    expect(renderLineDiff(null, 'x').value).toContain('too large to show');
  });

  it('gives up on a diff needing too many edits instead of stalling', () => {
    const before = Array.from({ length: 20_000 }, (_, i) => `a ${i}`).join('\n');
    const after = Array.from({ length: 20_000 }, (_, i) => `b ${i}`).join('\n');
    expect(lineDiffs([{ before, after }])).toEqual([null]);
  });
});
