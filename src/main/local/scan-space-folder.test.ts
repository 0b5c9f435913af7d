import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contentHash } from '../cache/content-hash';
import { createIgnoreRules } from './ignore-rules';
import { scanSpaceFolder, type FolderScan, type IndexedFile } from './scan-space-folder';

let base: string;
let root: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-scan-'));
  root = path.join(base, 'space');
  fs.mkdirSync(root);
});

afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function write(relative: string, data: string | Uint8Array): void {
  const target = path.join(root, relative);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, data);
}

/** The index entry the engine would have recorded right after writing the file. */
function indexed(relative: string, pageId: string | null = null): IndexedFile {
  const target = path.join(root, relative);
  const stats = fs.statSync(target);
  const kind =
    relative === 'SUMMARY.md' ? 'layout' : relative.startsWith('.gitbook/') ? 'asset' : 'page';
  return {
    path: relative,
    kind,
    pageId: kind === 'page' ? (pageId ?? `page-${relative}`) : null,
    fileId: kind === 'asset' ? `file-${relative}` : null,
    contentHash: contentHash(fs.readFileSync(target)),
    size: stats.size,
    mtimeMs: stats.mtimeMs,
  };
}

/** A synced folder: files written and indexed as a pull leaves them. */
function syncedFolder(): IndexedFile[] {
  write('README.md', '# Welcome\n');
  write('SUMMARY.md', '# Table of contents\n\n* [Welcome](README.md)\n');
  write('guide/README.md', '# Guide\n');
  write('guide/setup.md', '# Setup\n\nInstall it.\n');
  write('guide/usage.md', '# Usage\n');
  write('.gitbook/assets/hero.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  return [
    'README.md',
    'SUMMARY.md',
    'guide/README.md',
    'guide/setup.md',
    'guide/usage.md',
    '.gitbook/assets/hero.png',
  ].map((relative) => indexed(relative));
}

async function scan(
  index: IndexedFile[],
  extra: Partial<Parameters<typeof scanSpaceFolder>[0]> = {},
) {
  const result = await scanSpaceFolder({
    spaceRoot: root,
    index,
    ignore: createIgnoreRules(),
    maxFileBytes: 1024,
    ...extra,
  });
  expect(result.status).toBe('scanned');
  return result as FolderScan;
}

const paths = (files: readonly { path: string }[]) => files.map((file) => file.path);

function snapshot(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const target = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(target);
      else if (entry.isFile()) files.set(path.relative(root, target), fs.readFileSync(target));
    }
  };
  visit(root);
  return files;
}

describe('scanSpaceFolder', () => {
  it('recognises an untouched folder by stat calls alone', async () => {
    const index = syncedFolder();
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('guide/.setup.md.swp', 'swap');
    const hash = vi.fn(contentHash);
    const result = await scan(index, { hash });
    expect(hash).not.toHaveBeenCalled();
    expect(result).toMatchObject({
      changed: [],
      added: [],
      deleted: [],
      touched: [],
      problems: [],
    });
    expect(result.unchanged).toBe(index.length);
  });

  it('finds edits made while Quire was not running, reading only the files that moved', async () => {
    const index = syncedFolder();
    // Quire is not running: the user edits, adds, deletes and merely touches files.
    write('guide/setup.md', '# Setup\n\nInstall it with npm.\n');
    write('guide/new-page.md', '# New page\n');
    write('.gitbook/assets/diagram.svg', '<svg/>');
    fs.rmSync(path.join(root, 'guide/usage.md'));
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'README.md'), later, later);
    write('notes.txt', 'not content');

    const hash = vi.fn(contentHash);
    const result = await scan(index, { hash });
    expect(paths(result.changed)).toEqual(['guide/setup.md']);
    expect(result.changed[0]).toMatchObject({
      kind: 'page',
      text: '# Setup\n\nInstall it with npm.\n',
      base: { pageId: 'page-guide/setup.md' },
    });
    expect(paths(result.added)).toEqual(['.gitbook/assets/diagram.svg', 'guide/new-page.md']);
    expect(result.added[0]?.kind).toBe('asset');
    expect(Buffer.from(result.added[0]!.bytes!).toString()).toBe('<svg/>');
    expect(result.added[1]).toMatchObject({ kind: 'page', text: '# New page\n' });
    expect(paths(result.deleted)).toEqual(['guide/usage.md']);
    expect(result.deleted[0]?.pageId).toBe('page-guide/usage.md');
    expect(paths(result.touched)).toEqual(['README.md']);
    expect(result.problems).toEqual([]);
    // Four reads: the edit, two new files and the touched file; the other files cost a stat only.
    expect(hash).toHaveBeenCalledTimes(4);
    expect(result.unchanged).toBe(3);
  });

  it('reports non-UTF-8, oversized and linked files and leaves them untouched', async () => {
    const index = syncedFolder();
    write('guide/latin1.md', Buffer.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]));
    write('guide/setup.md', Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a])); // an indexed page
    write('guide/huge.md', `# Huge\n\n${'x'.repeat(2000)}\n`);
    write('.gitbook/assets/big.bin', new Uint8Array(300));
    fs.symlinkSync(path.join(root, 'README.md'), path.join(root, 'guide/link.md'));
    fs.symlinkSync(base, path.join(root, 'escape'));
    const before = snapshot();

    const result = await scan(index, { maxAssetBytes: 256 });
    expect(result.problems.map((p) => [p.path, p.reason])).toEqual([
      ['.gitbook/assets/big.bin', 'too-large'],
      ['escape', 'symlink'],
      ['guide/huge.md', 'too-large'],
      ['guide/latin1.md', 'not-utf8'],
      ['guide/link.md', 'symlink'],
      ['guide/setup.md', 'not-utf8'],
    ]);
    expect(result.problems.find((p) => p.path === 'guide/setup.md')?.pageId).toBe(
      'page-guide/setup.md',
    );
    expect(result.problems.find((p) => p.path === 'guide/huge.md')?.message).toMatch(
      /over the 1\.0 KiB limit/,
    );
    // A page that cannot be read is neither changed nor deleted.
    expect(result).toMatchObject({ changed: [], added: [], deleted: [] });
    expect(snapshot()).toEqual(before);
  });

  it('reports the space folder missing instead of deleting everything', async () => {
    const index = syncedFolder();
    fs.rmSync(root, { recursive: true });
    const result = await scanSpaceFolder({
      spaceRoot: root,
      index,
      ignore: createIgnoreRules(),
      maxFileBytes: 1024,
    });
    expect(result).toMatchObject({ status: 'folder-missing', spaceRoot: root });
    fs.writeFileSync(root, 'a file where the folder was');
    expect(
      (
        await scanSpaceFolder({
          spaceRoot: root,
          index,
          ignore: createIgnoreRules(),
          maxFileBytes: 1024,
        })
      ).status,
    ).toBe('folder-missing');
  });

  it("does not count ignored paths as deleted, and recognises the engine's pending writes", async () => {
    const index = syncedFolder();
    fs.rmSync(path.join(root, 'guide'), { recursive: true });
    write('README.md', '# Welcome back\n');
    const pending = new Map([['README.md', new Set([contentHash('# Welcome back\n')])]]);
    const result = await scan(index, { ignore: createIgnoreRules(['guide/']), pending });
    expect(result.deleted).toEqual([]);
    expect(paths(result.touched)).toEqual(['README.md']);
    expect(result.changed).toEqual([]);
  });

  it('reports a folder where a synced file was, without deleting the page', async () => {
    const index = syncedFolder();
    fs.rmSync(path.join(root, 'guide/usage.md'));
    fs.mkdirSync(path.join(root, 'guide/usage.md'));
    const result = await scan(index);
    expect(result.deleted).toEqual([]);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'guide/usage.md', reason: 'not-a-file' }),
    ]);
  });
});
