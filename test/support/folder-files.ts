import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as tar from 'tar-stream';

/** Writes `files` (path → content) under `folder`, creating folders as needed. */
export function writeFolder(folder: string, files: ReadonlyMap<string, string | Buffer>): void {
  for (const [path, content] of files) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
}

/** Every file under `root`, as sorted `/`-separated paths relative to it. */
export function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/** The entries of a tar, by path, sorted by path. */
export async function untar(bytes: Buffer): Promise<Map<string, Buffer>> {
  const extract = tar.extract();
  const files = new Map<string, Buffer>();
  const done = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.set(entry.header.name, Buffer.concat(chunks));
    }
  })();
  extract.end(bytes);
  await done;
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
