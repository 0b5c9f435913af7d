import { open, rename, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { lstatOrNull } from '../../common/fs/lstat-or-null';
import {
  checkedTarget,
  fsyncDirectory,
  tempName,
  unlinkIfPresent,
  type AtomicWriteOptions,
} from './atomic-write';
import { assertNoSymlinkOnPath } from './resolve-inside';

/**
 * A file written in pieces (a download) into a temp file beside its target, then put in place as
 * atomicWriteFile does: fsync, rename over the target, fsync of the folder. Until `commit`, the
 * target is untouched, so a failed or interrupted transfer never leaves a partial file at the real
 * path; a crash leaves only the temp file, which removeStaleTempFiles recognises.
 */
export class StagedFile {
  private position = 0;
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly temp: string,
    private readonly target: string,
    private readonly root: string,
  ) {}

  /** Opens a temp file for `filePath` (its folder must exist; see ensureDir). */
  static async open(filePath: string, options: AtomicWriteOptions): Promise<StagedFile> {
    const { root, target } = checkedTarget(filePath, options);
    await assertNoSymlinkOnPath(root, target);
    const temp = path.join(path.dirname(target), tempName(path.basename(target)));
    // 'wx' is O_CREAT|O_EXCL: it never follows or reuses whatever already sits at the temp path.
    const handle = await open(temp, 'wx+', options.mode ?? 0o666);
    return new StagedFile(handle, temp, target, root);
  }

  /** Drops what was written so far. */
  async reset(): Promise<void> {
    await this.handle.truncate(0);
    this.position = 0;
  }

  async write(chunk: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < chunk.byteLength) {
      const { bytesWritten } = await this.handle.write(
        chunk,
        offset,
        chunk.byteLength - offset,
        this.position,
      );
      offset += bytesWritten;
      this.position += bytesWritten;
    }
  }

  /** Puts the bytes at the target, durably. */
  async commit(): Promise<void> {
    try {
      const existing = await lstatOrNull(this.target);
      if (existing?.isFile()) await this.handle.chmod(existing.mode & 0o7777);
      await this.handle.sync();
      await this.close();
      // Re-check right before the rename to narrow the window for a swapped-in link.
      await assertNoSymlinkOnPath(this.root, this.target);
      await rename(this.temp, this.target);
    } catch (error) {
      await this.discard();
      throw error;
    }
    await fsyncDirectory(path.dirname(this.target));
  }

  /** Removes the temp file (nothing once committed). */
  async discard(): Promise<void> {
    await this.close();
    await unlinkIfPresent(this.temp);
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}
