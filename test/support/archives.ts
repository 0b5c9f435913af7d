import { crc32, deflateRawSync } from 'node:zlib';
import * as tar from 'tar-stream';

/** One archive entry for tests: a file (default), a folder, a link or a device. */
export interface TestEntry {
  name: string;
  content?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'fifo';
  linkname?: string;
}

/** A tar archive of `entries`, in memory. */
export async function tarOf(entries: readonly TestEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(Buffer.from(chunk as Uint8Array));
  })();
  for (const entry of entries) {
    const type = entry.type ?? 'file';
    const content = type === 'file' ? Buffer.from(entry.content ?? '') : Buffer.alloc(0);
    await new Promise<void>((resolve, reject) => {
      pack.entry(
        {
          name: entry.name,
          type,
          ...(entry.linkname !== undefined ? { linkname: entry.linkname } : {}),
          ...(type === 'character-device' ? { devmajor: 1, devminor: 3 } : {}),
        },
        content,
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

const MODES = {
  file: 0o100644,
  directory: 0o040755,
  symlink: 0o120777,
  link: 0o100644,
  'character-device': 0o020644,
  fifo: 0o010644,
} as const;

/** A zip archive of `entries` (deflated, Unix modes recorded), written by hand for tests. */
export function zipOf(entries: readonly TestEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const type = entry.type ?? 'file';
    const raw = Buffer.from(type === 'symlink' ? (entry.linkname ?? '') : (entry.content ?? ''));
    const data = deflateRawSync(raw);
    const name = Buffer.from(entry.name);
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((MODES[type] << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
