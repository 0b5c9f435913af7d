/**
 * The space's `.gitbook.yaml` (Git Sync's configuration: root, structure, redirects), mirrored
 * apart from the page pipeline, which ignores hidden files. The server keeps it verbatim (Quire
 * extension `…/git/config`); the text last synced is kept in the cache's sync state, so a change
 * is told from both sides:
 *
 * - pull (the space's revision moved; one request): a server text that differs from the last
 *   synced is written byte for byte, unless the local file changed too: then the local file is
 *   kept and the server's is written next to it as `.gitbook.yaml.server` (a conflict problem);
 * - push (every sync, no request unless it changed): a local text that differs from the last
 *   synced is read as the server reads it, and sent; an unreadable one is a problem on that file,
 *   left untouched, and blocks nothing else.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  GITBOOK_CONFIG_LIMITS,
  GITBOOK_CONFIG_PATH,
  readGitBookConfig,
} from '../../shared/gitsync/gitbook-config';
import { messageOf } from '../../shared/message-of';
import type { CachedSpace } from '../cache/space-cache';
import { atomicWriteFile } from '../mirror/atomic-write';
import { reportProblem, spaceRootOf, type EngineContext } from './engine-context';
import type { SpaceSyncReport } from './sync-report';

/** Where the server's text waits while the local file, changed on both sides, is kept. */
export const SERVER_COPY_PATH = `${GITBOOK_CONFIG_PATH}.server`;

type Ctx = Pick<EngineContext, 'folder' | 'remote' | 'state' | 'log'>;

const syncedKey = (spaceId: string) => `gitbook-config:${spaceId}`;

/** Stands for a file over the size limit: no `.gitbook.yaml` text starts with a NUL. */
const TOO_LARGE = '\u0000too large';

/** After a pull: writes the server's `.gitbook.yaml` if it changed there (see module comment). */
export async function pullGitBookConfig(
  ctx: Ctx,
  space: CachedSpace,
  report: SpaceSyncReport,
): Promise<void> {
  if (ctx.remote.getGitConfig === undefined) return;
  let remote: string | undefined;
  try {
    remote = await ctx.remote.getGitConfig(space.id);
  } catch (error) {
    // The pages are mirrored already; the configuration is read again on the next pull.
    ctx.log('warn', 'reading the space .gitbook.yaml failed', {
      space: space.id,
      error: messageOf(error),
    });
    return;
  }
  const synced = ctx.state.get(syncedKey(space.id));
  if (remote === undefined || remote === synced) return;
  const root = spaceRootOf(ctx, space);
  try {
    await writeRemote(ctx, space, report, { root, remote, synced });
  } catch (error) {
    const message = `${GITBOOK_CONFIG_PATH} could not be written: ${messageOf(error)}`;
    reportProblem(ctx, report, 'write-failed', GITBOOK_CONFIG_PATH, null, message);
  }
}

async function writeRemote(
  ctx: Ctx,
  space: CachedSpace,
  report: SpaceSyncReport,
  texts: { root: string; remote: string; synced: string | undefined },
): Promise<void> {
  const { root, remote, synced } = texts;
  const local = await readLocal(root, GITBOOK_CONFIG_PATH);
  if (local !== undefined && local !== synced && local !== remote) {
    await atomicWriteFile(SERVER_COPY_PATH, remote, { root });
    reportProblem(
      ctx,
      report,
      'conflict',
      GITBOOK_CONFIG_PATH,
      null,
      `${GITBOOK_CONFIG_PATH} changed here and on the server: yours is kept (not pushed); the ` +
        `server's is in ${SERVER_COPY_PATH}. Merge it into yours, then delete ${SERVER_COPY_PATH}.`,
    );
    return;
  }
  if (local !== remote) await atomicWriteFile(GITBOOK_CONFIG_PATH, remote, { root });
  ctx.state.set(syncedKey(space.id), remote);
}

/** Before a push is recorded: sends a locally edited `.gitbook.yaml` (see module comment). */
export async function pushGitBookConfig(
  ctx: Ctx,
  space: CachedSpace,
  report: SpaceSyncReport,
): Promise<void> {
  if (ctx.remote.putGitConfig === undefined) return;
  const root = spaceRootOf(ctx, space);
  const local = await readLocal(root, GITBOOK_CONFIG_PATH);
  if (local === undefined || local === ctx.state.get(syncedKey(space.id))) return;
  const notPushed = (why: string) =>
    reportProblem(ctx, report, 'not-pushed', GITBOOK_CONFIG_PATH, null, why);
  if ((await readLocal(root, SERVER_COPY_PATH)) !== undefined) {
    notPushed(
      `${GITBOOK_CONFIG_PATH} is not pushed until ${SERVER_COPY_PATH} is merged and deleted`,
    );
    return;
  }
  const config =
    local === TOO_LARGE
      ? { problem: `is larger than ${GITBOOK_CONFIG_LIMITS.maxBytes / 1024} KB` }
      : readGitBookConfig(local);
  if ('problem' in config) {
    notPushed(`${GITBOOK_CONFIG_PATH} is not pushed (${config.problem})`);
    return;
  }
  try {
    await ctx.remote.putGitConfig(space.id, local);
    ctx.state.set(syncedKey(space.id), local);
  } catch (error) {
    notPushed(`${GITBOOK_CONFIG_PATH} is not pushed: ${messageOf(error)}`);
  }
}

/**
 * A file's text; undefined when it is absent or unreadable; `TOO_LARGE` past the limit (never
 * read whole: it is the user's file, and may be anything).
 */
async function readLocal(root: string, path: string): Promise<string | undefined> {
  try {
    const info = await stat(join(root, path));
    if (!info.isFile()) return undefined;
    if (info.size > GITBOOK_CONFIG_LIMITS.maxBytes) return TOO_LARGE;
    return await readFile(join(root, path), 'utf8');
  } catch {
    return undefined;
  }
}
