import { setMaxListeners } from 'node:events';
import path from 'node:path';
import PQueue from 'p-queue';
import { contentHash } from '../../cache/content-hash';
import { ensureDir } from '../../mirror/atomic-write';
import { resolveInside } from '../../mirror/resolve-inside';
import { StagedFile } from '../../mirror/staged-file';
import { isTokenRejected, RemoteUnavailableError } from '../../remote/errors';
import type { DownloadResult } from '../../sync-ports';
import { messageOf } from '../../../shared/message-of';
import { reportProblem } from '../engine-context';
import type { LayoutEntry } from '../space-layout';
import { SyncStopped } from '../sync-run';
import { indexEntry, indexFields, urlPath } from './pull-plan-entries';
import type { PullPlan } from './pull-plan';
import type { PullApplication } from './apply-pull-plan';

/** Asset downloads of one pull in flight at once (each streams into its own temp file). */
export const ASSET_DOWNLOAD_CONCURRENCY = 8;

/** Writes one planned file from its bytes or a staged download (apply-pull-plan's writeOne). */
export type WriteOne = (
  entry: LayoutEntry,
  data: string | Uint8Array | StagedFile,
  hash: string,
) => Promise<void>;

/**
 * Downloads and writes a pull's assets, several at once: each streams into a temp file beside its
 * path, is journaled (with the download it came from) once complete, and only then renamed into
 * place, so no partial file ever sits at a real path. A file a stopped sync already downloaded
 * for the same download URL is kept, not fetched again. An unreachable server, rate limiting or a
 * refused token fail the space (the other downloads are cancelled); a file the server cannot
 * serve is one problem, and the rest of the space syncs.
 */
export async function pullAssets(
  app: PullApplication,
  plan: PullPlan,
  entries: readonly LayoutEntry[],
  writeOne: WriteOne,
  tick: () => void,
): Promise<void> {
  // Folders first, one at a time: the downloads then only write files.
  const folders = new Set(entries.map((entry) => path.posix.dirname(entry.path)));
  for (const folder of folders)
    await ensureDir(resolveInside(app.spaceRoot, folder), { root: app.spaceRoot });

  const stop = new AbortController();
  // One listener per queued download: as many as the space has assets.
  setMaxListeners(0, stop.signal);
  const queue = new PQueue({ concurrency: ASSET_DOWNLOAD_CONCURRENCY });
  let failure: { error: unknown } | undefined;
  const one = async (entry: LayoutEntry) => {
    if (failure !== undefined) return;
    try {
      // Stopped: what is written is journaled, and the pull is redone like after a crash.
      if (app.run.stopRequested) throw new SyncStopped();
      await pullAsset(app, plan, entry, writeOne, stop.signal);
      tick();
    } catch (error) {
      if (failure === undefined) failure = { error };
      stop.abort(error);
    }
  };
  await Promise.all(entries.map((entry) => queue.add(() => one(entry))));
  if (failure !== undefined) throw failure.error;
}

async function pullAsset(
  app: PullApplication,
  plan: PullPlan,
  entry: LayoutEntry,
  writeOne: WriteOne,
  signal: AbortSignal,
): Promise<void> {
  const { ctx, space } = app;
  const source = urlPath(entry.file!.downloadURL);
  const done = ctx.index.pendingDownload(space.id, entry.path, source);
  if (done !== undefined) {
    const local = await app.fileState(entry.path);
    if (local.kind !== 'missing' && local.hash === done) {
      // Downloaded by a sync that stopped before recording it: kept as it is.
      plan.index.set(entry.path, indexEntry(entry, done, local.stats));
      plan.fileHashes.set(entry.fileId!, done);
      return;
    }
  }
  const staged = await StagedFile.open(resolveInside(app.spaceRoot, entry.path), {
    root: app.spaceRoot,
  });
  try {
    const received = await download(app, entry, staged, signal);
    if (received === undefined) {
      const base = app.indexByPath.get(entry.path);
      if (base !== undefined) plan.index.set(entry.path, { ...base, ...indexFields(entry) });
      return;
    }
    // Journaled before the rename: a crash cannot make it look like a local edit.
    ctx.index.addPendingWrites(space.id, [
      { path: entry.path, contentHash: received.hash, source },
    ]);
    await writeOne(entry, staged, received.hash);
  } finally {
    await staged.discard();
  }
}

/**
 * Streams an asset into `staged` (through downloadFile where the remote cannot stream), or
 * returns undefined when the server cannot serve this one file (not found, an unsafe download
 * URL, too large, a 5xx...): reported as one problem on its path, and the next sync pulls the
 * space again to retry it. An unreachable server, rate limiting or a refused token still fail
 * the run (the pull is redone).
 */
async function download(
  app: PullApplication,
  entry: LayoutEntry,
  staged: StagedFile,
  signal: AbortSignal,
): Promise<DownloadResult | undefined> {
  const file = entry.file!;
  const remote = app.ctx.remote;
  // Checked right before the request: a stop that came while this one waited starts nothing.
  if (app.run.stopRequested) throw new SyncStopped();
  try {
    if (remote.streamFile !== undefined) return await remote.streamFile(file, staged, signal);
    const bytes = await remote.downloadFile(file);
    await staged.reset();
    await staged.write(bytes);
    return { hash: contentHash(bytes), size: bytes.byteLength };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (
      isTokenRejected(error) ||
      (error instanceof RemoteUnavailableError && !serverFault(error))
    ) {
      throw error;
    }
    reportProblem(
      app.ctx,
      app.report,
      'download-failed',
      entry.path,
      null,
      `${entry.path} was not written${named(entry.path, file.name)}: ${messageOf(error)}`,
    );
    return undefined;
  }
}

/** A 5xx for one file (after the client's retries): that file's problem, not an outage. */
function serverFault(error: RemoteUnavailableError): boolean {
  return error.status !== undefined && error.status >= 500;
}

/** ` (the server names it "…")` when the name did not become the file name as it is. */
function named(relativePath: string, name: string): string {
  return path.posix.basename(relativePath) === name ? '' : ` (the server names it "${name}")`;
}
