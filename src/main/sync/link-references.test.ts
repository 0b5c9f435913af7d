import { describe, expect, it } from 'vitest';
import type { FileIndexEntry } from '../cache/file-index';
import { localReferences, serverReferences } from './link-references';

const entry = (path: string, kind: FileIndexEntry['kind'], id: string | null): FileIndexEntry => ({
  path,
  kind,
  pageId: kind === 'page' ? id : null,
  fileId: kind === 'asset' ? id : null,
  contentHash: 'h',
  size: 1,
  mtimeMs: 1,
});

const VIEW = [
  entry('README.md', 'page', 'home'),
  entry('SUMMARY.md', 'layout', null),
  entry('guide/README.md', 'page', 'guide'),
  entry('guide/setup.md', 'page', 'setup'),
  entry('guide/deep/README.md', 'page', 'deep'),
  entry('guide/deep/leaf.md', 'page', 'leaf'),
  entry('guide/new.md', 'page', null),
  entry('.gitbook/assets/a.png', 'asset', 'f1'),
];

describe('serverReferences (push)', () => {
  const toServer = serverReferences(VIEW);

  it('reads every form of a page link as the page’s reference, anchors kept', () => {
    const written =
      '[a](deep/) [b](deep/#x) [c](deep) [d](deep/README.md#x) [e](./) [f](./#top) [g](../)' +
      ' [h](README.md) [i](./deep/leaf.md) [j](../guide/deep/) [k](<./deep/>) [l](..#up)';
    expect(toServer(written, 'guide/setup.md')).toBe(
      '[a](/pages/deep) [b](/pages/deep#x) [c](/pages/deep) [d](/pages/deep#x) [e](/pages/guide)' +
        ' [f](/pages/guide#top) [g](/pages/home) [h](/pages/guide) [i](/pages/leaf)' +
        ' [j](/pages/deep) [k](/pages/deep) [l](/pages/home#up)',
    );
    expect(toServer('[up](../) [root](../../#x)', 'guide/deep/leaf.md')).toBe(
      '[up](/pages/guide) [root](/pages/home#x)',
    );
    expect(toServer('[me](./) [guide](guide/)', 'README.md')).toBe(
      '[me](/pages/home) [guide](/pages/guide)',
    );
  });

  it('reads asset paths as file references, and leaves everything else as written', () => {
    const written =
      '![](../.gitbook/assets/a.png) [n](new.md) [x](nowhere/) [y](../../) [z](https://e.com/a/)' +
      ' <a href="deep/">h</a> <table data-view="deep"> `[c](deep/)` [s](/pages/x)';
    expect(toServer(written, 'guide/setup.md')).toBe(
      '![](/files/f1) [n](new.md) [x](nowhere/) [y](../../) [z](https://e.com/a/)' +
        ' <a href="/pages/deep">h</a> <table data-view="deep"> `[c](deep/)` [s](/pages/x)',
    );
  });
});

describe('localReferences (read-back)', () => {
  const toLocal = localReferences(VIEW);

  it('writes Git Sync’s form, or the form of the text the file was sent with', () => {
    const stored = '[a](/pages/deep) [b](/pages/guide#top) [c](/pages/home) ![](/files/f1)';
    expect(toLocal(stored, 'guide/setup.md')).toBe(
      '[a](deep/) [b](./#top) [c](../) ![](../.gitbook/assets/a.png)',
    );
    const sent = '[a](deep/README.md) [b](README.md#top) [c](../README.md) ![](x.png)';
    expect(toLocal(stored, 'guide/setup.md', sent)).toBe(
      '[a](deep/README.md) [b](README.md#top) [c](../README.md) ![](../.gitbook/assets/a.png)',
    );
  });
});
