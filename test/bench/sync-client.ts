import { fileURLToPath } from 'node:url';
import { startChild } from './bench-child';

const SYNC_CLIENT_MAIN = fileURLToPath(new URL('./sync-bench-client.ts', import.meta.url));

/**
 * What the sync client child does:
 * - `initial`: a fresh home and folder; lists and enables every space, then one timed
 *   `syncOnce` (the initial mirror), then the floors (the same files and cache rows written
 *   directly).
 * - `unchanged`: `initial`, then `repeats` timed `syncOnce` runs with nothing changed on the
 *   server (after one unmeasured run), then the unchanged-sync floor as many times.
 * - `cold`: opens an existing home (a previous `unchanged` run's) in this fresh process and times
 *   one `syncOnce` with nothing changed, as `quire sync --once` does.
 */
export type SyncClientMode = 'initial' | 'unchanged' | 'cold';

export interface SyncClientArgs {
  mode: SyncClientMode;
  server: string;
  home: string;
  folder: string;
  /** Scratch folder of the floors (`initial`, `unchanged`). */
  floorDir?: string;
  repeats?: number;
}

/** HTTP requests of one measured sync, counted twice. */
export interface RequestCount {
  /** Calls of the fetch under WorkspaceClient (retries included). */
  client: number;
  /**
   * The server's own count, from its X-RateLimit-Remaining headers (token and address windows)
   * read just before and after; null when a rate-limit window rolled over in between.
   */
  server: number | null;
  /** `GET /v1/orgs` … (method and path), for the unchanged syncs. */
  paths?: string[];
}

/** One timed `syncOnce`. */
export interface SyncRun {
  wallMs: number;
  requests: RequestCount;
  spaces: number;
  filesWritten: number;
  /** Wall time by phase, from the engine's progress events (see phaseBreakdown). */
  phases: Record<string, number>;
}

export interface FloorTimes {
  /** ensureDir + atomicWriteFile (fsync file and folder, as the engine), then one transaction. */
  atomicMs: number;
  /** mkdirSync + writeFileSync (no fsync), then one transaction. */
  plainMs: number;
  files: number;
  bytes: number;
  directories: number;
  cacheRows: number;
}

export interface SyncClientReport {
  mode: SyncClientMode;
  /** Opening the cache, the first listing and enabling the spaces (not in the timed sync). */
  setupMs: number;
  /** RSS before the measured sync (node, tsx and the loaded modules). */
  rssBeforeMB: number;
  /** Peak RSS of this process up to the end of the measured syncs (before the floors ran). */
  maxRssMB: number;
  /** The first timed sync (the initial mirror; for `cold`, the one unchanged sync). */
  sync: SyncRun;
  /** Files and bytes in the mirror folder after the sync. */
  files: number;
  bytes: number;
  floor?: FloorTimes;
  unchanged?: SyncRun[];
  /** The unchanged sync's floor: its listing requests sent directly, then one cache query. */
  unchangedFloorMs?: number[];
}

/**
 * Runs the sync client in a child process of its own (so that its peak RSS is the client's alone)
 * and returns its report. Bounded: a client silent for `timeoutMs` is killed.
 */
export async function runSyncClient(
  args: SyncClientArgs,
  timeoutMs = 900_000,
): Promise<SyncClientReport> {
  const argv = [
    '--mode',
    args.mode,
    '--server',
    args.server,
    '--home',
    args.home,
    '--folder',
    args.folder,
    ...(args.floorDir !== undefined ? ['--floor-dir', args.floorDir] : []),
    ...(args.repeats !== undefined ? ['--repeats', String(args.repeats)] : []),
  ];
  // The client reports once it is done: its "ready" message carries the report.
  const child = await startChild(`sync client (${args.mode})`, SYNC_CLIENT_MAIN, argv, timeoutMs);
  try {
    const report = child.info['report'];
    if (typeof report !== 'string') throw new Error('The sync client sent no report');
    return JSON.parse(report) as SyncClientReport;
  } finally {
    await child.stop();
  }
}
