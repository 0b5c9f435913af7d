import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../cache/open-cache-database';
import { Outbox } from './outbox';
import { OutboxBatches } from './outbox-batches';
import type { OutboxItem } from './outbox-change';

let dir: string;
let db: CacheDb;
let outbox: Outbox;
let tick = 0;
const clock = { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)) };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-outbox-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
  outbox = new Outbox({ db, clock });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const S = 's-1';
/** The interesting part of each waiting change. */
const shape = (items: OutboxItem[]) =>
  items.map((item) => ({
    kind: item.kind,
    pageId: item.pageId,
    localKey: item.localKey,
    ...(item.markdown !== undefined ? { markdown: item.markdown } : {}),
    ...(item.fields !== undefined ? { fields: item.fields } : {}),
    ...(item.into !== undefined ? { into: item.into } : {}),
    ...(item.at !== undefined ? { at: item.at } : {}),
  }));

describe('Outbox coalescing', () => {
  it('update after update keeps the latest Markdown and the latest value of each field', () => {
    outbox.enqueue({
      kind: 'update_page',
      spaceId: S,
      page: { pageId: 'p1' },
      markdown: 'one',
      fields: { title: 'A', hidden: true },
    });
    outbox.enqueue({
      kind: 'update_page',
      spaceId: S,
      page: { pageId: 'p1' },
      markdown: 'two',
      fields: { title: 'B' },
    });
    expect(shape(outbox.pending(S))).toEqual([
      {
        kind: 'update_page',
        pageId: 'p1',
        localKey: null,
        markdown: 'two',
        fields: { title: 'B', hidden: true },
      },
    ]);
    expect(outbox.count()).toBe(1);
  });

  it('update after insert (same local key) merges into the insert', () => {
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'new.md', markdown: 'v1' });
    outbox.enqueue({
      kind: 'update_page',
      spaceId: S,
      page: { localKey: 'new.md' },
      markdown: 'v2',
    });
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'insert_page', pageId: null, localKey: 'new.md', markdown: 'v2', into: null },
    ]);
  });

  it('delete after insert removes both, and the inserts placed inside it', () => {
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p1' }, markdown: 'x' });
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'dir', markdown: '# Dir' });
    outbox.enqueue({
      kind: 'insert_page',
      spaceId: S,
      localKey: 'dir/child',
      markdown: '# Child',
      into: { localKey: 'dir' },
    });
    outbox.enqueue({
      kind: 'update_page',
      spaceId: S,
      page: { pageId: 'p2' },
      markdown: 'moved in',
      move: { into: { localKey: 'dir' } },
    });
    outbox.enqueue({ kind: 'delete_page', spaceId: S, page: { localKey: 'dir' } });
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'update_page', pageId: 'p1', localKey: null, markdown: 'x' },
      // The move lost its placement (its parent will never exist); its content stays.
      { kind: 'update_page', pageId: 'p2', localKey: null, markdown: 'moved in' },
    ]);
  });

  it('delete after update leaves the delete only', () => {
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p1' }, markdown: 'x' });
    outbox.enqueue({ kind: 'move_page', spaceId: S, page: { pageId: 'p1' }, move: { at: 0 } });
    outbox.enqueue({ kind: 'delete_page', spaceId: S, page: { pageId: 'p1' } });
    outbox.enqueue({ kind: 'delete_page', spaceId: S, page: { pageId: 'p1' } });
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p1' }, markdown: 'late' });
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'delete_page', pageId: 'p1', localKey: null },
    ]);
  });

  it('consecutive moves keep the latest parent and position', () => {
    outbox.enqueue({
      kind: 'move_page',
      spaceId: S,
      page: { pageId: 'p1' },
      move: { into: { pageId: 'a' }, at: 2 },
    });
    outbox.enqueue({
      kind: 'move_page',
      spaceId: S,
      page: { pageId: 'p1' },
      move: { into: { pageId: 'b' } },
    });
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'update_page', pageId: 'p1', localKey: null, into: { pageId: 'b' } },
    ]);
    // A bare position reorders under the parent already chosen.
    outbox.enqueue({ kind: 'move_page', spaceId: S, page: { pageId: 'p1' }, move: { at: 1 } });
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'update_page', pageId: 'p1', localKey: null, into: { pageId: 'b' }, at: 1 },
    ]);
  });

  it('a move after other changes waits after them; content still merges into the first', () => {
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p1' }, markdown: 'v1' });
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'folder', markdown: '# F' });
    outbox.enqueue({
      kind: 'update_page',
      spaceId: S,
      page: { pageId: 'p1' },
      markdown: 'v2',
      move: { into: { localKey: 'folder' } },
    });
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p1' }, markdown: 'v3' });
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'update_page', pageId: 'p1', localKey: null, markdown: 'v3' },
      { kind: 'insert_page', pageId: null, localKey: 'folder', markdown: '# F', into: null },
      { kind: 'update_page', pageId: 'p1', localKey: null, into: { localKey: 'folder' } },
    ]);
  });

  it('a newer upload of the same file replaces the older one', () => {
    const file = (base64: string) => ({ name: 'a.png', contentType: 'image/png', base64 });
    outbox.enqueue({ kind: 'insert_files', spaceId: S, localKey: 'a.png', file: file('AA==') });
    outbox.enqueue({ kind: 'insert_files', spaceId: S, localKey: 'a.png', file: file('AQ==') });
    expect(outbox.pending(S).map((item) => item.file?.base64)).toEqual(['AQ==']);
  });

  it('frozen (sending) changes are never coalesced into', () => {
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'n', markdown: 'v1' });
    let key = 0;
    const batches = new OutboxBatches(db, clock, () => `key-${++key}`);
    expect(batches.form(S, 'cr')?.body.changes).toHaveLength(1);
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { localKey: 'n' }, markdown: 'v2' });
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'insert_page', pageId: null, localKey: 'n', markdown: 'v1', into: null },
      { kind: 'update_page', pageId: null, localKey: 'n', markdown: 'v2' },
    ]);
    expect(outbox.pending(S).map((item) => item.state)).toEqual(['sending', 'pending']);

    // Once the insert is acknowledged, the waiting update names the new page by id.
    batches.acknowledge(batches.open(S)!, {
      changeRequest: { id: 'cr', number: 1, status: 'draft', subject: '' },
      changes: [{ object: 'created_page', ref: 'n', pageId: 'p-new' }],
      insertedFiles: [],
    });
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'update_page', pageId: 'p-new', localKey: 'n', markdown: 'v2' },
    ]);
    expect(batches.form(S, 'cr')!.body.changes).toEqual([
      { operation: 'update_page', page: 'p-new', document: { markdown: 'v2' } },
    ]);
  });

  it('dropContent drops a page’s waiting text and fields but keeps its move', () => {
    outbox.enqueue({
      kind: 'update_page',
      spaceId: S,
      page: { pageId: 'p1' },
      markdown: 'mine',
      fields: { title: 'Mine' },
      move: { into: { pageId: 'p-parent' }, at: 0 },
    });
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p2' }, markdown: 'x' });
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p3' }, markdown: 'y' });

    expect(outbox.dropContent(S, 'p1')).toBe(1);
    expect(outbox.dropContent(S, 'p2')).toBe(1);
    expect(outbox.dropContent(S, 'p-unknown')).toBe(0);
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'update_page', pageId: 'p1', localKey: null, into: { pageId: 'p-parent' }, at: 0 },
      { kind: 'update_page', pageId: 'p3', localKey: null, markdown: 'y' },
    ]);

    // A waiting delete of the page goes too.
    outbox.enqueue({ kind: 'delete_page', spaceId: S, page: { pageId: 'p3' } });
    outbox.dropContent(S, 'p3');
    expect(outbox.pending(S).map((item) => item.pageId)).toEqual(['p1']);
  });

  it('enqueue commits or rolls back with the caller’s transaction', () => {
    expect(() =>
      db.transaction(() => {
        outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p1' }, markdown: 'x' });
        throw new Error('file index update failed');
      })(),
    ).toThrow('file index update failed');
    expect(outbox.count()).toBe(0);
    db.transaction(() => {
      outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p1' }, markdown: 'x' });
    })();
    expect(outbox.count(S)).toBe(1);
    expect(outbox.spaces()).toEqual([S]);
  });

  it('refuses malformed changes', () => {
    expect(() =>
      outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: '', markdown: '' }),
    ).toThrow(/localKey/);
    expect(() =>
      outbox.enqueue({ kind: 'move_page', spaceId: S, page: { pageId: 'p' }, move: { at: -1 } }),
    ).toThrow(/at must/);
    expect(outbox.count()).toBe(0);
  });
});

describe('OutboxBatches.form', () => {
  it('ends a batch before a change that needs an id inserted in the same batch', () => {
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'dir', markdown: '# Dir' });
    outbox.enqueue({
      kind: 'insert_page',
      spaceId: S,
      localKey: 'dir/a',
      markdown: '# A',
      into: { localKey: 'dir' },
    });
    let key = 0;
    const batches = new OutboxBatches(db, clock, () => `key-${++key}`);
    const first = batches.form(S, 'cr')!;
    expect(first.body.changes).toEqual([
      { operation: 'insert_page', ref: 'dir', document: { markdown: '# Dir' } },
    ]);
    expect(batches.form(S, 'cr')).toBeUndefined();
    batches.acknowledge(first, {
      changeRequest: { id: 'cr', number: 1, status: 'draft', subject: '' },
      changes: [{ object: 'created_page', ref: 'dir', pageId: 'p-dir' }],
      insertedFiles: [],
    });
    expect(batches.form(S, 'cr')!.body.changes).toEqual([
      {
        operation: 'insert_page',
        ref: 'dir/a',
        document: { markdown: '# A' },
        into: 'p-dir',
      },
    ]);
    expect(outbox.created(S).map((entry) => [entry.localKey, entry.remoteId])).toEqual([
      ['dir', 'p-dir'],
    ]);
  });

  it('a refused change is marked failed with the message; the others wait again', () => {
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p1' }, markdown: 'a' });
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'gone' }, markdown: 'b' });
    const batches = new OutboxBatches(db, clock, () => 'key-1');
    const batch = batches.form(S, 'cr')!;
    const failed = batches.fail(batch, '400 body.changes.1.page: page gone does not exist');
    expect(failed.map((item) => item.pageId)).toEqual(['gone']);
    expect(outbox.failed(S).map((item) => item.error)).toEqual([
      '400 body.changes.1.page: page gone does not exist',
    ]);
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'update_page', pageId: 'p1', localKey: null, markdown: 'a' },
    ]);
    // A later edit of the failed page puts it back in the queue.
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'gone' }, markdown: 'c' });
    expect(outbox.failed(S)).toEqual([]);
    expect(outbox.pending(S)).toHaveLength(2);
  });

  it('a refusal that names no change sends each change alone next', () => {
    for (const id of ['p1', 'p2']) {
      outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: id }, markdown: id });
    }
    let key = 0;
    const batches = new OutboxBatches(db, clock, () => `key-${++key}`);
    batches.fail(batches.form(S, 'cr')!, '413 Request body is too large');
    expect(outbox.failed(S)).toEqual([]);
    const alone = batches.form(S, 'cr')!;
    expect(alone.body.changes).toHaveLength(1);
    expect(batches.fail(alone, '413 still too large').map((item) => item.pageId)).toEqual(['p1']);
  });
});

describe('Refused changes never block the others', () => {
  /** Sends every batch the outbox forms to a "server" refusing, without naming it, any batch holding `bad`. */
  function drainAgainst(batches: OutboxBatches, bad: string): string[][] {
    const sent: string[][] = [];
    for (let batch = batches.form(S, 'cr'); batch; batch = batches.form(S, 'cr')) {
      const pages = batch.body.changes.map((change) => ('page' in change ? change.page : ''));
      sent.push(pages);
      if (pages.includes(bad)) batches.fail(batch, '400 The batch cannot be applied');
      else {
        batches.acknowledge(batch, {
          changeRequest: { id: 'cr', number: 1, status: 'draft', subject: '' },
          changes: pages.map((pageId) => ({ object: 'updated_page' as const, pageId })),
          insertedFiles: [],
        });
      }
    }
    return sent;
  }

  it('splits a refused batch that names no change in halves until the refused change is alone', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `p${i + 1}`);
    for (const id of ids) {
      outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: id }, markdown: id });
    }
    let key = 0;
    const sent = drainAgainst(new OutboxBatches(db, clock, () => `key-${++key}`), 'p5');
    expect(sent).toEqual([
      ids,
      ['p1', 'p2', 'p3', 'p4'],
      ['p5', 'p6', 'p7', 'p8'],
      ['p5', 'p6'],
      ['p5'],
      ['p6'],
      ['p7', 'p8'],
    ]);
    expect(outbox.failed(S).map((item) => [item.pageId, item.error])).toEqual([
      ['p5', '400 The batch cannot be applied'],
    ]);
    expect(outbox.pending(S)).toEqual([]);
  });

  it('holds the changes that need a refused insert, and only those', () => {
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'bad', markdown: '# Bad' });
    outbox.enqueue({
      kind: 'insert_page',
      spaceId: S,
      localKey: 'bad/child',
      markdown: '# Child',
      into: { localKey: 'bad' },
    });
    outbox.enqueue({
      kind: 'insert_page',
      spaceId: S,
      localKey: 'bad/child/grandchild',
      markdown: '# Grandchild',
      into: { localKey: 'bad/child' },
    });
    outbox.enqueue({
      kind: 'move_page',
      spaceId: S,
      page: { pageId: 'p-moved' },
      move: { into: { localKey: 'bad' } },
    });
    outbox.enqueue({ kind: 'update_page', spaceId: S, page: { pageId: 'p1' }, markdown: 'x' });
    let key = 0;
    const batches = new OutboxBatches(db, clock, () => `key-${++key}`);
    const first = batches.form(S, 'cr')!;
    expect(first.body.changes).toHaveLength(1);
    batches.fail(first, '400 body.changes.0.emoji: must NOT have more than 50 characters');

    const [refused] = outbox.failed(S);
    expect(
      outbox.held(S).map(({ item, heldBy }) => [item.localKey ?? item.pageId, heldBy.id]),
    ).toEqual([
      ['bad/child', refused!.id],
      ['bad/child/grandchild', refused!.id],
      ['p-moved', refused!.id],
    ]);
    // Only the unrelated edit is still to be sent, and it goes.
    expect(outbox.unsent(S)).toBe(1);
    expect(batches.form(S, 'cr')!.body.changes).toEqual([
      { operation: 'update_page', page: 'p1', document: { markdown: 'x' } },
    ]);
  });

  it('retry queues a refused change again, alone and without its stale position', () => {
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'a', markdown: '# A', at: 7 });
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'b', markdown: '# B' });
    const batches = new OutboxBatches(db, clock, () => `key-${tick}`);
    batches.fail(batches.form(S, 'cr')!, '400 body.changes.0.at: must be at most 6 here');
    const [refused] = outbox.failed(S);
    expect(outbox.retry(refused!.id)).toBe(true);
    expect(outbox.retry(refused!.id)).toBe(false);
    expect(outbox.failed(S)).toEqual([]);
    const again = batches.form(S, 'cr')!;
    expect(again.body.changes).toEqual([
      { operation: 'insert_page', ref: 'a', document: { markdown: '# A' } },
    ]);
  });

  it('drop removes a refused insert with the inserts it held, and reports their keys', () => {
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'bad', markdown: '# Bad' });
    outbox.enqueue({
      kind: 'insert_page',
      spaceId: S,
      localKey: 'bad/child',
      markdown: '# Child',
      into: { localKey: 'bad' },
    });
    outbox.enqueue({
      kind: 'move_page',
      spaceId: S,
      page: { pageId: 'p-moved' },
      move: { into: { localKey: 'bad' }, at: 0 },
    });
    outbox.enqueue({ kind: 'insert_page', spaceId: S, localKey: 'fine', markdown: '# Fine' });
    const batches = new OutboxBatches(db, clock, () => 'key-1');
    batches.fail(batches.form(S, 'cr')!, '400 body.changes.0.title: must not be empty');
    const [refused] = outbox.failed(S);

    expect(outbox.drop(refused!.id + 1000)).toBeUndefined();
    expect(outbox.drop(refused!.id)?.droppedInserts).toEqual(['bad', 'bad/child']);
    expect(outbox.failed(S)).toEqual([]);
    expect(outbox.held(S)).toEqual([]);
    // The move into the dropped page is dropped (the page stays where it is); the rest stays.
    expect(shape(outbox.pending(S))).toEqual([
      { kind: 'insert_page', pageId: null, localKey: 'fine', markdown: '# Fine', into: null },
    ]);
  });
});
