import { describe, expect, it } from 'vitest';
import { createIgnoreRules } from './ignore-rules';

describe('createIgnoreRules', () => {
  const ignore = createIgnoreRules();

  it.each([
    // [path, isDirectory, ignored]
    ['README.md', false, false],
    ['SUMMARY.md', false, false],
    ['guide/setup.md', false, false],
    ['guide/NOTES.MD', false, false],
    ['guide', true, false],
    ['.gitbook', true, false],
    ['.gitbook/assets', true, false],
    ['.gitbook/assets/hero (1).png', false, false],
    ['.gitbook/assets/diagram.drawio', false, false],
    // editor and OS leftovers
    ['guide/.setup.md.swp', false, true],
    ['guide/.setup.md.swo', false, true],
    ['setup.md~', false, true],
    ['.#setup.md', false, true],
    ['#setup.md#', false, true],
    ['setup.md.tmp', false, true],
    ['guide/4913', false, true],
    ['.DS_Store', false, true],
    ['.gitbook/assets/.DS_Store', false, true],
    ['Thumbs.db', false, true],
    ['.gitbook/assets/video.mp4.crdownload', false, true],
    ['.~lock.notes.odt#', false, true],
    // the mirror's own temp files
    ['.setup.md.quire-tmp-0123456789abcdef', false, true],
    ['.gitbook/assets/.hero.png.quire-tmp-0123456789abcdef', false, true],
    // hidden files and folders, GitBook-owned files
    ['.git', true, true],
    ['.git/config', false, true],
    ['.obsidian/workspace.json', false, true],
    ['guide/.hidden.md', false, true],
    ['.gitbook/includes', true, true],
    ['.gitbook/includes/snippet.md', false, true],
    ['.gitbook/vars.yaml', false, true],
    // neither Markdown nor an asset
    ['notes.txt', false, true],
    ['guide/image.png', false, true],
    ['.gitbook.yaml', false, true],
    ['docs.yaml', false, true],
  ] as const)('%s (folder: %s) → ignored: %s', (path, isDirectory, ignored) => {
    expect(ignore(path, isDirectory)).toBe(ignored);
  });

  it('does not apply file-only rules when the type is unknown', () => {
    expect(ignore('guide')).toBe(false);
    expect(ignore('guide/images')).toBe(false);
    expect(ignore('.git')).toBe(true);
    expect(ignore('guide/.setup.md.swp')).toBe(true);
  });

  it('accepts Windows separators and never ignores the folder itself', () => {
    expect(ignore('guide\\.setup.md.swp', false)).toBe(true);
    expect(ignore('guide\\setup.md', false)).toBe(false);
    expect(ignore('', true)).toBe(false);
  });

  it('adds configurable glob patterns', () => {
    const custom = createIgnoreRules([
      'drafts/**',
      '*.draft.md',
      'private/',
      '/TODO.md',
      'guide/**/scratch-?.md',
      '# a comment',
      '',
    ]);
    expect(custom('drafts', true)).toBe(true);
    expect(custom('drafts/idea.md', false)).toBe(true);
    expect(custom('drafts/deep/idea.md', false)).toBe(true);
    expect(custom('guide/plan.draft.md', false)).toBe(true);
    expect(custom('plan.draft.md', false)).toBe(true);
    expect(custom('private', true)).toBe(true);
    expect(custom('guide/private/secret.md', false)).toBe(true);
    expect(custom('private.md', false)).toBe(false);
    expect(custom('TODO.md', false)).toBe(true);
    expect(custom('guide/TODO.md', false)).toBe(false);
    expect(custom('guide/scratch-1.md', false)).toBe(true);
    expect(custom('guide/a/b/scratch-2.md', false)).toBe(true);
    expect(custom('guide/scratch-12.md', false)).toBe(false);
    expect(custom('guide/setup.md', false)).toBe(false);
    // Regular-expression characters in a pattern are literal.
    expect(createIgnoreRules(['a+b (1).md'])('a+b (1).md', false)).toBe(true);
    expect(createIgnoreRules(['a+b (1).md'])('aab (1).md', false)).toBe(false);
  });
});
