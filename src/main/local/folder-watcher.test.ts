import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BatchDebouncer,
  FolderWatcher,
  type WatchBatch,
  type WatcherTimers,
} from './folder-watcher';

/** Timers driven by hand: `advance` runs what is due. */
function manualTimers(): WatcherTimers & { advance(ms: number): void } {
  let now = 0;
  let nextId = 0;
  const due = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      nextId += 1;
      due.set(nextId, { at: now + ms, callback });
      return nextId;
    },
    clearTimeout(handle) {
      due.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
        if (next === undefined || next[1].at > end) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].callback();
      }
      now = end;
    },
  };
}

describe('BatchDebouncer', () => {
  it('emits one batch per group once events stop, and at the latest after maxWait', () => {
    const timers = manualTimers();
    const batches: [string, string[]][] = [];
    const debouncer = new BatchDebouncer({
      delayMs: 300,
      maxWaitMs: 1000,
      timers,
      flush: (group, keys) => batches.push([group, keys]),
    });
    debouncer.add('a', 'x.md');
    timers.advance(200);
    debouncer.add('a', 'y.md');
    debouncer.add('b', 'z.md');
    debouncer.add('a', 'x.md');
    timers.advance(299);
    expect(batches).toEqual([]);
    timers.advance(1);
    expect(batches).toEqual([
      ['b', ['z.md']],
      ['a', ['x.md', 'y.md']],
    ]);

    // A write every 100 ms never leaves 300 ms of quiet: maxWait flushes anyway.
    batches.length = 0;
    for (let i = 0; i < 15; i += 1) {
      debouncer.add('a', `f${i}.md`);
      timers.advance(100);
    }
    expect(batches.length).toBe(1);
    expect(batches[0]?.[1]).toHaveLength(10);
    timers.advance(300);
    expect(batches.length).toBe(2);
    expect(batches[1]?.[1]).toEqual(['f10.md', 'f11.md', 'f12.md', 'f13.md', 'f14.md']);

    // A cancelled group is dropped; flush emits what is pending right away.
    debouncer.add('a', 'late.md');
    debouncer.cancel('a');
    debouncer.add('b', 'now.md');
    debouncer.flush('b');
    timers.advance(10_000);
    expect(batches.slice(2)).toEqual([['b', ['now.md']]]);
  });
});

describe('FolderWatcher', () => {
  let base: string;
  let root: string;
  let watcher: FolderWatcher;
  let batches: WatchBatch[];
  let waiters: (() => void)[];

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-watch-'));
    root = path.join(base, 'space');
    fs.mkdirSync(path.join(root, 'guide'), { recursive: true });
    fs.writeFileSync(path.join(root, 'README.md'), '# Welcome\n');
    batches = [];
    waiters = [];
    watcher = new FolderWatcher({
      debounceMs: 250,
      stabilityThresholdMs: 50,
      onBatch: (batch) => {
        batches.push(batch);
        for (const wake of waiters.splice(0)) wake();
      },
    });
  });

  afterEach(async () => {
    await watcher.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  const nextBatch = () =>
    new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error('no batch within 5 s')), 5000);
      waiters.push(() => {
        clearTimeout(timeout);
        resolve();
      });
    });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('reports an editor-style save (temp file, then rename) as the page, and ignores swap files', async () => {
    await watcher.watchSpace('space-1', root);
    const arrived = nextBatch();
    fs.writeFileSync(path.join(root, 'guide/.setup.md.swp'), 'swap');
    fs.writeFileSync(path.join(root, 'guide/setup.md.tmp'), '# Setup\n');
    fs.renameSync(path.join(root, 'guide/setup.md.tmp'), path.join(root, 'guide/setup.md'));
    await arrived;
    expect(batches).toEqual([{ spaceId: 'space-1', root, paths: ['guide/setup.md'] }]);
  });

  it('emits one debounced batch for a burst of 20 writes', async () => {
    await watcher.watchSpace('space-1', root);
    const arrived = nextBatch();
    for (let i = 0; i < 20; i += 1) {
      fs.writeFileSync(
        path.join(root, 'guide', `page-${String(i).padStart(2, '0')}.md`),
        `# ${i}\n`,
      );
      fs.writeFileSync(path.join(root, 'README.md'), `# Welcome ${i}\n`);
    }
    await arrived;
    await sleep(400);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.paths).toEqual([
      'README.md',
      ...Array.from({ length: 20 }, (_, i) => `guide/page-${String(i).padStart(2, '0')}.md`),
    ]);
  });

  it('reports deletions and the space folder vanishing, and stops after close', async () => {
    await watcher.watchSpace('space-1', root);
    const arrived = nextBatch();
    fs.rmSync(path.join(root, 'README.md'));
    fs.writeFileSync(path.join(root, 'notes.txt'), 'ignored');
    await arrived;
    expect(batches.map((batch) => batch.paths)).toEqual([['README.md']]);

    // The folder itself is reported as '' (the scan then finds it missing and pauses the space).
    const vanished = nextBatch();
    fs.rmSync(root, { recursive: true });
    await vanished;
    expect(batches[1]?.paths).toContain('');

    fs.mkdirSync(root);

    await watcher.close();
    fs.writeFileSync(path.join(root, 'after.md'), '# After\n');
    await sleep(400);
    expect(batches).toHaveLength(2);
    expect(watcher.watchedSpaces()).toEqual([]);
    await expect(watcher.watchSpace('space-2', root)).rejects.toThrow(/closed/);
  });
});
