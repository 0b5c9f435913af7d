import { describe, expect, it } from 'vitest';
import { gitSyncPageHref, relativeTarget } from './page-link-paths';

describe('gitSyncPageHref (links in page bodies as Git Sync writes them)', () => {
  it('links a page with children by its folder, relative to the linking file', () => {
    expect(gitSyncPageHref('README.md', 'file-manager/overview/README.md')).toBe(
      'file-manager/overview/',
    );
    expect(gitSyncPageHref('guide/setup.md', 'guide/README.md')).toBe('./');
    expect(gitSyncPageHref('guide/README.md', 'guide/README.md')).toBe('./');
    expect(gitSyncPageHref('guide/a/b.md', 'section/README.md')).toBe('../../section/');
    expect(gitSyncPageHref('guide/README.md', 'guide/child/README.md')).toBe('child/');
    expect(gitSyncPageHref('guide/child/README.md', 'guide/README.md')).toBe('../');
  });

  it('links the root README by the space folder', () => {
    expect(gitSyncPageHref('intro.md', 'README.md')).toBe('./');
    expect(gitSyncPageHref('a/b/c.md', 'README.md')).toBe('../../');
    expect(gitSyncPageHref('README.md', 'README.md')).toBe('./');
  });

  it('links any other page by its file', () => {
    expect(gitSyncPageHref('README.md', 'setup.md')).toBe('setup.md');
    expect(gitSyncPageHref('guide/a/b.md', 'guide/c.md')).toBe('../c.md');
    expect(gitSyncPageHref('guide/README.md', 'guide/c.md')).toBe('c.md');
    expect(gitSyncPageHref('x/y.md', 'x/y.md')).toBe('y.md');
  });

  it('escapes what would read as a fragment, query or escape; keeps spaces', () => {
    expect(gitSyncPageHref('README.md', 'a#b/README.md')).toBe('a%23b/');
    expect(gitSyncPageHref('README.md', 'what? 100%.md')).toBe('what%3F 100%25.md');
  });
});

describe('relativeTarget (every form a page link is written in)', () => {
  it('reads folder links as the folder’s README, with or without an anchor', () => {
    expect(relativeTarget('README.md', 'file-manager/overview/')).toEqual({
      candidates: ['file-manager/overview/README.md'],
      anchor: '',
      folder: true,
    });
    expect(relativeTarget('guide/setup.md', './')).toMatchObject({
      candidates: ['guide/README.md'],
    });
    expect(relativeTarget('guide/setup.md', './#install')).toEqual({
      candidates: ['guide/README.md'],
      anchor: '#install',
      folder: true,
    });
    expect(relativeTarget('guide/a/b.md', '../../section/#x')).toMatchObject({
      candidates: ['section/README.md'],
      anchor: '#x',
    });
    expect(relativeTarget('guide/a/b.md', '..')).toMatchObject({
      candidates: ['guide/README.md'],
    });
    expect(relativeTarget('guide/a/b.md', '../..')).toMatchObject({ candidates: ['README.md'] });
    expect(relativeTarget('intro.md', './')).toMatchObject({ candidates: ['README.md'] });
    expect(relativeTarget('guide/README.md', './')).toMatchObject({
      candidates: ['guide/README.md'],
    });
  });

  it('reads a bare name as a file, then a folder, then a page file (Markdown destinations only)', () => {
    expect(relativeTarget('guide/a.md', 'section#top', { bare: true })).toEqual({
      candidates: ['guide/section', 'guide/section/README.md', 'guide/section.md'],
      anchor: '#top',
      folder: true,
    });
    // In an attribute (`data-view="cards"`), a bare name is only itself.
    expect(relativeTarget('guide/a.md', 'cards')).toEqual({
      candidates: ['guide/cards'],
      anchor: '',
      folder: false,
    });
  });

  it('reads `.md` links and other files as written', () => {
    expect(relativeTarget('guide/a.md', '../setup.md#x')).toEqual({
      candidates: ['setup.md'],
      anchor: '#x',
      folder: false,
    });
    expect(relativeTarget('guide/a.md', 'dir/README.md')).toMatchObject({
      candidates: ['guide/dir/README.md'],
    });
    expect(relativeTarget('guide/a.md', '../.gitbook/assets/x')).toMatchObject({
      candidates: ['.gitbook/assets/x'],
      folder: false,
    });
    expect(relativeTarget('a.md', 'file.png', { bare: true })).toMatchObject({
      candidates: ['file.png', 'file.png/README.md', 'file.png.md'],
      folder: false,
    });
    expect(relativeTarget('a.md', '<my page.md>')).toMatchObject({ candidates: ['my page.md'] });
    expect(relativeTarget('a.md', 'what%3F%20x.md')).toMatchObject({ candidates: ['what? x.md'] });
  });

  it('refuses what is not a relative path inside the space', () => {
    for (const written of [
      '',
      '#anchor',
      '/pages/abc',
      'https://example.com/x/',
      'mailto:a@b.c',
      '../',
      'a/../../b.md',
      '%E0%A4%A.md',
    ]) {
      expect(relativeTarget('a.md', written), written).toBeUndefined();
    }
    expect(relativeTarget('guide/a.md', '../../')).toBeUndefined();
  });
});
