import type { CachedSpace } from '../cache/space-cache';
import type { RemoteRevision } from '../sync-ports';
import type { EngineContext } from './engine-context';
import type { SyncRun } from './sync-run';

/** Spaces whose revisions are fetched ahead of the one being written (and held at most). */
export const REVISION_PREFETCH = 6;

/**
 * Fetches the revisions of the spaces a run pulls a few ahead of the one it is writing, so a first
 * sync of many spaces waits on the server's answers side by side rather than one after the other,
 * while the writes stay one space at a time, in order. At most `ahead` revisions are in flight or
 * held at once, which bounds memory as well as concurrency. Nothing new starts once the run is
 * asked to stop.
 */
export class RevisionPrefetch {
  private readonly started = new Map<string, Promise<RemoteRevision>>();
  private next = 0;

  constructor(
    private readonly ctx: EngineContext,
    private readonly run: SyncRun,
    private readonly spaces: readonly CachedSpace[],
    private readonly ahead = REVISION_PREFETCH,
  ) {}

  /** The revision of `spaces[index]` (already on its way, or asked for now). */
  take(index: number): Promise<RemoteRevision> {
    this.fill(index);
    const space = this.spaces[index]!;
    const revision = this.started.get(space.id) ?? this.fetch(space);
    this.started.delete(space.id);
    return revision;
  }

  private fill(from: number): void {
    this.next = Math.max(this.next, from);
    while (this.next < this.spaces.length && this.next < from + this.ahead) {
      if (this.run.stopRequested) return;
      const space = this.spaces[this.next++]!;
      const revision = this.fetch(space);
      // Awaited by take(); a run that stops before then must not leave it unhandled.
      revision.catch(() => undefined);
      this.started.set(space.id, revision);
    }
  }

  private fetch(space: CachedSpace): Promise<RemoteRevision> {
    return this.ctx.remote.getRevision(
      space.id,
      space.remoteRevision!,
      this.ctx.content.knownPages(space.id),
    );
  }
}
