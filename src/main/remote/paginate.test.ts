import { describe, expect, it } from 'vitest';
import { RemoteProtocolError } from './errors';
import { collectPages, iteratePages, type ListPage } from './paginate';

/** A list of `total` numbers served `size` at a time, cursors being the next start index. */
function numbers(total: number, size: number) {
  const asked: (string | undefined)[] = [];
  const read = async (page: string | undefined): Promise<ListPage<number>> => {
    asked.push(page);
    const start = page ? Number(page) : 0;
    const items = Array.from({ length: Math.min(size, total - start) }, (_, i) => start + i);
    const next = start + size < total ? { page: String(start + size) } : undefined;
    return { items, ...(next ? { next } : {}), count: total } as ListPage<number>;
  };
  return { read, asked };
}

describe('collectPages', () => {
  it('follows next.page to the end, in order', async () => {
    const { read, asked } = numbers(7, 3);
    expect(await collectPages(read)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(asked).toEqual([undefined, '3', '6']);
  });

  it('makes one request for a list that fits one page, and handles an empty list', async () => {
    const one = numbers(3, 1000);
    expect(await collectPages(one.read)).toEqual([0, 1, 2]);
    expect(one.asked).toHaveLength(1);
    expect(await collectPages(numbers(0, 10).read)).toEqual([]);
  });

  it('stops at the page cap', async () => {
    const { read } = numbers(100, 10);
    await expect(collectPages(read, { maxPages: 3 })).rejects.toBeInstanceOf(RemoteProtocolError);
    expect(await collectPages(read, { maxPages: 10 })).toHaveLength(100);
  });

  it('refuses a cursor seen twice instead of looping forever', async () => {
    const read = async (): Promise<ListPage<number>> => ({ items: [1], next: { page: 'same' } });
    await expect(collectPages(read)).rejects.toThrow(/twice/);
  });

  it('refuses a page without items, ignores extra fields and an empty cursor', async () => {
    await expect(collectPages(async () => ({}) as ListPage<number>)).rejects.toBeInstanceOf(
      RemoteProtocolError,
    );
    const extra = async () => ({ items: [1], next: { page: '' }, count: 1, extra: true });
    expect(await collectPages(extra)).toEqual([1]);
  });
});

describe('iteratePages', () => {
  it('yields page by page and reads no further than asked', async () => {
    const { read, asked } = numbers(9, 3);
    for await (const items of iteratePages(read)) {
      expect(items).toEqual([0, 1, 2]);
      break;
    }
    expect(asked).toEqual([undefined]);
  });
});
