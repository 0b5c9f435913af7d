import { appendFileSync } from 'node:fs';
import { chmod, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { openCacheDatabase, type CacheDb } from '../cache/open-cache-database';
import { ensureQuireHome, type QuireHome } from '../config/quire-home';
import { WorkspaceOutboxRemote } from '../outbox/workspace-outbox-remote';
import { RemoteAuthError, RemoteUnavailableError } from '../remote/errors';
import { WorkspaceClient } from '../remote/workspace-client';
import { FileSecretStore } from '../secrets/file-secret-store';
import {
  SyncEngine,
  type SpaceSyncReport,
  type SyncLog,
  type SyncReport,
} from '../sync/sync-engine';
import type { RemoteWorkspace } from '../sync/sync-ports';
import {
  UnknownSpaceError,
  type OpenEngineOptions,
  type QuireEngine,
  type QuireServices,
  type SpaceList,
  type SpaceStatus,
  type SpaceSyncResult,
  type SyncOnceResult,
} from './quire-services';

/** Login fails fast on an unreachable server: one retry, a shorter timeout. */
const LOGIN_HTTP = { maxAttempts: 2, timeoutMs: 15_000 } as const;

/**
 * The composition root of the headless `quire`: the file secret store in the home, the HTTP
 * client, and the sync engine over `<home>/cache.db`, logging to `<home>/logs/sync.log`.
 */
export function createQuireServices(home: QuireHome): QuireServices {
  return {
    home,
    secrets: new FileSecretStore(home.secretsFile),
    connect: (server, token, options = {}) =>
      new WorkspaceClient({
        endpoint: server,
        token,
        userAgent: 'quire-cli',
        ...(options.quick ? { http: LOGIN_HTTP } : {}),
      }),
    openEngine: async (options) => {
      await ensureQuireHome(home);
      const cache = openCacheDatabase(home.cacheFile);
      try {
        // The cache holds page content: owner-only, like the rest of the home. SQLite gives its
        // -wal and -shm files the database file's permissions.
        if (process.platform !== 'win32') await chmod(home.cacheFile, 0o600);
        return new CliEngine(cache, options, fileLog(path.join(home.logsDir, 'sync.log')));
      } catch (error) {
        cache.close();
        throw error;
      }
    },
  };
}

/** The sync engine behind the CLI's `QuireEngine` view. */
class CliEngine implements QuireEngine {
  private readonly engine: SyncEngine;
  private readonly folder: string;
  /** The first typed error the remote threw: the engine reports failures as text only. */
  private remoteFailure: unknown;

  constructor(
    private readonly cache: CacheDb,
    options: OpenEngineOptions,
    log: SyncLog,
  ) {
    this.folder = options.config.folder;
    this.engine = new SyncEngine({
      cache,
      remote: this.recording(options.remote),
      folder: options.config.folder,
      clock: { now: () => new Date() },
      log,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      // Pushing needs the outbox's calls, which only the real client has (a logged-out remote
      // cannot push: its sync refuses before anything is sent).
      ...(options.remote instanceof WorkspaceClient
        ? { push: { remote: new WorkspaceOutboxRemote(options.remote), deviceName: hostname() } }
        : {}),
    });
  }

  async refreshSpaces(): Promise<SpaceList> {
    const result = await this.engine.refreshSpaces();
    const organizations = new Map(result.organizations.map((org) => [org.id, org.title]));
    const spaces = result.spaces
      .filter((space) => space.removedAt === null)
      .map((space) => ({
        id: space.id,
        title: space.title,
        organizationId: space.organizationId,
        organization: organizations.get(space.organizationId) ?? space.organizationId,
        ...(space.emoji ? { emoji: space.emoji } : {}),
        enabled: space.enabled,
        folder: space.folderPath,
      }));
    return { spaces, errors: result.errors };
  }

  async setSpaceEnabled(spaceId: string, enabled: boolean): Promise<void> {
    if (!this.engine.status().some((space) => space.id === spaceId)) {
      throw new UnknownSpaceError(spaceId);
    }
    this.engine.setSpaceEnabled(spaceId, enabled);
  }

  async syncOnce(): Promise<SyncOnceResult> {
    // Checked here too so that a missing folder is a failure, not a "problem" of a finished sync.
    const folder = await stat(this.folder).catch(() => undefined);
    if (!folder?.isDirectory()) {
      throw new Error(
        `the mirror folder ${this.folder} is missing (moved, deleted or not mounted?); ` +
          'create it again or log in with another --folder and --home',
      );
    }
    this.remoteFailure = undefined;
    const report = await this.engine.syncOnce();
    if (report.spaces.length === 0 && report.errors.length > 0) {
      // Nothing could be pulled at all: a failed command, with the typed error when there is one.
      const failure = this.remoteFailure;
      if (failure instanceof RemoteAuthError || failure instanceof RemoteUnavailableError) {
        throw failure;
      }
      throw new Error(`sync failed: ${report.errors.join('; ')}`);
    }
    return { spaces: this.results(report), errors: report.errors };
  }

  async status(): Promise<readonly SpaceStatus[]> {
    return this.engine.status().map((space) => ({
      id: space.id,
      title: space.title,
      organization: space.organization,
      folder: space.folder,
      enabled: space.enabled,
      state: space.state,
      revision: space.revision,
      remoteRevision: space.remoteRevision,
      pages: space.pages,
      lastSync: space.lastSync,
      errors: space.errors,
    }));
  }

  async pause(until?: Date): Promise<void> {
    this.engine.pause(until);
  }

  async resume(): Promise<void> {
    this.engine.resume();
  }

  async pauseState(): Promise<{ paused: boolean; until: Date | null }> {
    return this.engine.pauseState();
  }

  async confirmDeletes(spaceId: string): Promise<void> {
    if (!this.engine.status().some((space) => space.id === spaceId)) {
      throw new UnknownSpaceError(spaceId);
    }
    this.engine.confirmDeletes(spaceId);
  }

  async close(): Promise<void> {
    this.cache.close();
  }

  /** One entry per space the run touched, then every other enabled space as unchanged. */
  private results(report: SyncReport): SpaceSyncResult[] {
    const results = report.spaces.map(spaceResult);
    const touched = new Set(results.map((result) => result.id));
    for (const space of this.engine.status()) {
      if (!space.enabled || space.state === 'removed' || touched.has(space.id)) continue;
      results.push({
        id: space.id,
        title: space.title,
        outcome: 'unchanged',
        revision: space.revision,
        filesWritten: 0,
        filesRemoved: 0,
        conflicts: 0,
        problems: [],
      });
    }
    return results;
  }

  private recording(remote: RemoteWorkspace): RemoteWorkspace {
    const record = <T>(call: Promise<T>): Promise<T> =>
      call.catch((error: unknown) => {
        this.remoteFailure ??= error;
        throw error;
      });
    return {
      whoAmI: () => record(remote.whoAmI()),
      listOrganizations: () => record(remote.listOrganizations()),
      listSpaces: (organizationId) => record(remote.listSpaces(organizationId)),
      getRevision: (spaceId, revisionId, knownPages) =>
        record(remote.getRevision(spaceId, revisionId, knownPages)),
      downloadFile: (file) => record(remote.downloadFile(file)),
    };
  }
}

function spaceResult(space: SpaceSyncReport): SpaceSyncResult {
  const conflicts = space.problems.filter((problem) => problem.kind === 'conflict').length;
  const problems = space.problems
    .filter((problem) => problem.kind !== 'conflict')
    .map((problem) => (problem.path ? `${problem.path}: ${problem.message}` : problem.message));
  if (space.error !== undefined) problems.unshift(space.error);
  let outcome: SpaceSyncResult['outcome'] = space.pulled ? 'pulled' : 'pushed';
  if (space.removedSpace) outcome = 'removed';
  else if (space.error !== undefined) outcome = 'failed';
  else if (!space.pulled && !space.pushed) outcome = 'unchanged';
  return {
    id: space.spaceId,
    title: space.title,
    outcome,
    revision: space.toRevision,
    filesWritten: space.written.length,
    filesRemoved: space.removed.length,
    conflicts,
    problems,
    ...(space.pushed ? { pushed: space.pushed } : {}),
  };
}

/**
 * Engine events as JSON lines in a 0600 file. Synchronous appends keep the lines in order and
 * survive a crash right after; a CLI run logs a handful of lines. Debug lines are left out.
 */
function fileLog(file: string): SyncLog {
  return (level, message, fields) => {
    if (level === 'debug') return;
    const entry = { time: new Date().toISOString(), level, message, ...fields };
    try {
      appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      // Logging must never fail a sync.
    }
  };
}
