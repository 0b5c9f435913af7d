import fs from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import git, { Errors, type HttpClient } from 'isomorphic-git';
import { FetchLimitError, SafeFetchError } from '../content/safe-url-fetch';
import { checkEntryPath } from './check-entry-path';
import { GitImportError, redact } from './fetch-git-tree';
import type { ExportedFile } from './space-export';

export interface GitPushTarget {
  /** The repository's URL, credentials included when it has them. */
  url: string;
  /** `refs/heads/<branch>` or a bare branch name. */
  ref: string;
  /** The layout goes into this folder of the repository (the rest is kept). */
  projectDirectory?: string;
  commitMessage: string;
  /** Push even when the branch moved on (replaces its history). */
  force: boolean;
  http: HttpClient;
  maxRepositoryBytes: number;
}

const AUTHOR = { name: 'Quire', email: 'quire@localhost' };

/**
 * Commits `files` (a space's Git Sync layout) on top of the branch's tip, replacing what the
 * project folder held, and pushes the commit: a shallow clone (depth 1) of the branch, or a new
 * repository history when the branch does not exist yet. Returns the commit's id.
 */
export async function pushGitTree(
  files: readonly ExportedFile[],
  target: GitPushTarget,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-git-push-'));
  const branch = target.ref.replace(/^refs\/heads\//, '');
  // The route has already refused `..` and the like: this is a second guard of the temp folder.
  const root = target.projectDirectory ? checkEntryPath(target.projectDirectory) : '';
  try {
    await checkout(dir, branch, target);
    for (const path of await git.listFiles({ fs, dir })) {
      if (root !== '' && !path.startsWith(`${root}/`)) continue;
      await git.remove({ fs, dir, filepath: path });
      await rm(join(dir, path), { force: true });
    }
    for (const file of files) {
      const path = root ? `${root}/${file.path}` : file.path;
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), file.bytes());
      await git.add({ fs, dir, filepath: path });
    }
    const oid = await git.commit({ fs, dir, message: target.commitMessage, author: AUTHOR });
    const result = await git.push({
      fs,
      http: target.http,
      dir,
      remote: 'origin',
      ref: branch,
      remoteRef: `refs/heads/${branch}`,
      force: target.force,
    });
    if (!result.ok) throw new GitImportError(`the repository refused the push: ${result.error}`);
    return oid;
  } catch (error) {
    throw explainPush(error, target);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The branch's tip checked out in `dir`, or an empty repository when the branch is new. */
async function checkout(dir: string, branch: string, target: GitPushTarget): Promise<void> {
  try {
    await git.clone({
      fs,
      http: target.http,
      dir,
      url: target.url,
      ref: branch,
      singleBranch: true,
      depth: 1,
      noTags: true,
    });
  } catch (error) {
    if (!(error instanceof Errors.NotFoundError)) throw error;
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir);
    await git.init({ fs, dir, defaultBranch: branch });
    await git.addRemote({ fs, dir, remote: 'origin', url: target.url });
  }
}

function explainPush(error: unknown, target: GitPushTarget): Error {
  if (error instanceof GitImportError) return error;
  if (error instanceof FetchLimitError && error.limit === 'size') {
    return new GitImportError(
      `the repository is larger than the server's limit of ${target.maxRepositoryBytes} bytes`,
    );
  }
  if (error instanceof SafeFetchError) return new GitImportError(redact(error.message));
  if (error instanceof Errors.PushRejectedError) {
    return new GitImportError(
      `the repository refused the push (${error.data.reason}): the branch moved on; use force`,
    );
  }
  if (error instanceof Errors.HttpError) {
    const status = (error.data as { statusCode?: number }).statusCode ?? 0;
    const auth = status === 401 || status === 403 ? ': check the URL and its credentials' : '';
    return new GitImportError(`the repository answered HTTP ${status}${auth}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new GitImportError(`the push failed: ${redact(message)}`);
}
