import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tarOf, zipOf } from '../../../test/support/archives';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-limits';
import { readArchive } from './read-archive';

const limits = (overrides: Partial<ArchiveLimits>): ArchiveLimits => ({
  ...DEFAULT_ARCHIVE_LIMITS,
  ...overrides,
});

describe('readArchive limits', () => {
  it('refuses the entry that takes the archive past its extracted total', async () => {
    const tar = await tarOf([
      { name: 'a.md', content: 'x'.repeat(600) },
      { name: 'b.md', content: 'y'.repeat(600) },
    ]);
    await expect(
      readArchive('tar', Readable.from([tar]), limits({ maxTotalBytes: 1000 })),
    ).rejects.toThrow('archive entry "b.md" takes the archive past 1000 bytes extracted');
  });

  it('refuses a file over its limit, a Markdown file over the text limit, too many entries', async () => {
    const big = await tarOf([{ name: '.gitbook/assets/x.png', content: Buffer.alloc(2000) }]);
    await expect(
      readArchive('tar', Readable.from([big]), limits({ maxFileBytes: 1000 })),
    ).rejects.toThrow('archive entry ".gitbook/assets/x.png" is larger than 1000 bytes');
    const text = await tarOf([{ name: 'page.md', content: 'z'.repeat(2000) }]);
    await expect(
      readArchive('tar', Readable.from([text]), limits({ maxTextBytes: 1000 })),
    ).rejects.toThrow('archive entry "page.md" is larger than 1000 bytes');
    const many = zipOf([{ name: 'a.md' }, { name: 'b.md' }, { name: 'c.md' }]);
    await expect(
      readArchive('zip', Readable.from([many]), limits({ maxEntries: 2 })),
    ).rejects.toThrow('archive entry "c.md" is past the limit of 2 entries');
  });

  it('refuses a zip whose entries declare more than the extracted total', async () => {
    const zip = zipOf([{ name: '.gitbook/assets/zeros.bin', content: Buffer.alloc(4000) }]);
    await expect(
      readArchive('zip', Readable.from([zip]), limits({ maxTotalBytes: 3000, maxRatio: 1e9 })),
    ).rejects.toThrow(
      'archive entry ".gitbook/assets/zeros.bin" takes the archive past 3000 bytes extracted',
    );
  });

  it('refuses an upload over the archive limit', async () => {
    const tar = await tarOf([{ name: 'a.md', content: 'x'.repeat(5000) }]);
    await expect(
      readArchive('tar', Readable.from([tar]), limits({ maxArchiveBytes: 4096 })),
    ).rejects.toThrow('is larger than 4096 bytes');
  });

  it('keeps Markdown in memory and spools assets to disk, then removes them', async () => {
    const tar = await tarOf([
      { name: 'docs/', type: 'directory' },
      { name: 'docs/README.md', content: '# Hi\n' },
      { name: 'docs/.gitbook/assets/a.png', content: Buffer.alloc(10, 1) },
      { name: 'notes.txt', content: 'not kept' },
    ]);
    const collected = await readArchive('tar', Readable.from([tar]), DEFAULT_ARCHIVE_LIMITS);
    expect([...collected.texts.keys()]).toEqual(['docs/README.md']);
    expect([...collected.assets.keys()]).toEqual(['docs/.gitbook/assets/a.png']);
    expect(collected.assets.get('docs/.gitbook/assets/a.png')?.size).toBe(10);
    await collected.dispose();
  });
});
