/**
 * The space's `.gitbook.yaml` (Git Sync's configuration: root, structure, redirects), mirrored
 * apart from the page pipeline, which ignores hidden files. The server keeps it verbatim (Quire
 * extension `…/git/config`); the text last synced is kept in the cache's sync state, so a change
 * is told from both sides:
 *
 * - root: a fresh mirror puts the docs in the sub-folder `root` names (`docs/`), `.gitbook.yaml`
 *   staying at the top of the space folder, and names SUMMARY.md as `structure.summary` does, as
 *   in the repository (adopt-gitbook-layout.ts);
 * - pull (the space's revision moved; one request): a server text that differs from the last
 *   synced is written byte for byte, unless the local file changed too: then the local file is
 *   kept and the server's is written next to it as `.gitbook.yaml.server` (a conflict problem);
 * - push (every sync, no request unless it changed): a local text that differs from the last
 *   synced is read as the server reads it, and sent unless the server's changed too (checked
 *   first: push runs before pull), which is kept as above; an unreadable one is a problem on that
 *   file, left untouched, and blocks nothing else.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  GITBOOK_CONFIG_LIMITS,
  GITBOOK_CONFIG_PATH,
  readGitBookConfig,
} from '../../shared/gitsync/gitbook-config';
import { messageOf } from '../../shared/message-of';
import type { CachedSpace } from '../cache/space-cache';
import { atomicWriteFile } from '../mirror/atomic-write';
import { reportProblem, spaceFolderOf, type EngineContext } from './engine-context';
import type { SpaceSyncReport } from './sync-report';

/** Where the server's text waits while the local file, changed on both sides, is kept. */
export const SERVER_COPY_PATH = `${GITBOOK_CONFIG_PATH}.server`;

type Ctx = Pick<EngineContext, 'folder' | 'remote' | 'state' | 'log'>;

const syncedKey = (spaceId: string) => `gitbook-config:${spaceId}`;

/** Stands for a file over the size limit: no `.gitbook.yaml` text starts with a NUL. */
const TOO_LARGE = '\u0000too large';

/**
 * The server's `.gitbook.yaml` for a pull (one request), read before the pages are written:
 * undefined when the space has none, null when it could not be read (or the server does not
 * keep one), then nothing changes and it is read again on the next pull.
 */
export async function fetchGitBookConfig(
  ctx: Ctx,
  space: CachedSpace,
): Promise<string | undefined | null> {
  if (ctx.remote.getGitConfig === undefined) return null;
  try {
    return await ctx.remote.getGitConfig(space.id);
  } catch (error) {
    ctx.log('warn', 'reading the space .gitbook.yaml failed', {
      space: space.id,
      error: messageOf(error),
    });
    return null;
  }
}

/** After a pull: writes the server's `.gitbook.yaml` if it changed there (see module comment). */
export async function pullGitBookConfig(
  ctx: Ctx,
  space: CachedSpace,
  report: SpaceSyncReport,
  remote: string | undefined | null,
  /** What adoptGitBookLayout answered before the pages were written. */
  rootProblem: string | undefined,
): Promise<void> {
  if (rootProblem !== undefined) {
    reportProblem(ctx, report, 'conflict', GITBOOK_CONFIG_PATH, null, rootProblem);
  }
  const synced = ctx.state.get(syncedKey(space.id));
  if (remote === undefined || remote === null || remote === synced) return;
  const root = spaceFolderOf(ctx, space);
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
    await keepBoth(ctx, space, report, { root, remote }, 'conflict');
    return;
  }
  if (local !== remote) await atomicWriteFile(GITBOOK_CONFIG_PATH, remote, { root });
  ctx.state.set(syncedKey(space.id), remote);
}

/**
 * Changed here and on the server: the local file stays, the server's text goes next to it, and
 * counts as synced, so deleting the copy (after merging it in) lets the local file be pushed.
 */
async function keepBoth(
  ctx: Ctx,
  space: CachedSpace,
  report: SpaceSyncReport,
  texts: { root: string; remote: string },
  /** A push reports it as a change not pushed, a pull as a conflict (each records its kinds). */
  kind: 'conflict' | 'not-pushed',
): Promise<void> {
  await atomicWriteFile(SERVER_COPY_PATH, texts.remote, { root: texts.root });
  ctx.state.set(syncedKey(space.id), texts.remote);
  reportProblem(
    ctx,
    report,
    kind,
    GITBOOK_CONFIG_PATH,
    null,
    `${GITBOOK_CONFIG_PATH} changed here and on the server: yours is kept (not pushed); the ` +
      `server's is in ${SERVER_COPY_PATH}. Merge it into yours, then delete ${SERVER_COPY_PATH}.`,
  );
}

/** Before a push is recorded: sends a locally edited `.gitbook.yaml` (see module comment). */
export async function pushGitBookConfig(
  ctx: Ctx,
  space: CachedSpace,
  report: SpaceSyncReport,
): Promise<void> {
  if (ctx.remote.putGitConfig === undefined) return;
  const root = spaceFolderOf(ctx, space);
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
    // Push runs before pull: a server text changed since the last sync is not overwritten.
    const remote = await ctx.remote.getGitConfig?.(space.id);
    const synced = ctx.state.get(syncedKey(space.id));
    if (remote !== undefined && remote !== synced && remote !== local) {
      await keepBoth(ctx, space, report, { root, remote }, 'not-pushed');
      return;
    }
    if (remote !== local) await ctx.remote.putGitConfig(space.id, local);
    ctx.state.set(syncedKey(space.id), local);
  } catch (error) {
    notPushed(`${GITBOOK_CONFIG_PATH} is not pushed: ${messageOf(error)}`);
  }
}

/**
 * A file's text; undefined when it is absent, unreadable or not a regular file (a symbolic link is
 * not followed: it could point anywhere); `TOO_LARGE` past the limit (never read whole).
 */
async function readLocal(root: string, path: string): Promise<string | undefined> {
  try {
    const info = await lstat(join(root, path));
    if (!info.isFile()) return undefined;
    if (info.size > GITBOOK_CONFIG_LIMITS.maxBytes) return TOO_LARGE;
    return await readFile(join(root, path), 'utf8');
  } catch {
    return undefined;
  }
}
