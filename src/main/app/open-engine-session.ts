import { appendFileSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { openCacheDatabase } from '../cache/open-cache-database';
import { ensureQuireHome, type QuireHome } from '../config/quire-home';
import type { SyncLog } from '../sync/sync-engine';
import type { EngineSession, OpenSessionOptions } from './app-services';
import { SyncEngineSession } from './sync-engine-session';

/**
 * The engine over `<home>/cache.db`, logging to `<home>/logs/sync.log`: what every composition
 * root's `openEngine` does.
 */
export async function openEngineSession(
  home: QuireHome,
  options: OpenSessionOptions,
): Promise<EngineSession> {
  await ensureQuireHome(home);
  const cache = openCacheDatabase(home.cacheFile);
  try {
    // The cache holds page content: owner-only, like the rest of the home. SQLite gives its
    // -wal and -shm files the database file's permissions.
    if (process.platform !== 'win32') await chmod(home.cacheFile, 0o600);
    return new SyncEngineSession(
      cache,
      options,
      fileLog(path.join(home.logsDir, 'sync.log')),
      home.root,
    );
  } catch (error) {
    cache.close();
    throw error;
  }
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
