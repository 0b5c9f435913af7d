import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import git, { Errors, type HttpClient } from 'isomorphic-git';
import { FetchLimitError, SafeFetchError } from '../content/safe-url-fetch';
import { ArchiveCollector } from './archive-collector';
import { ArchiveEntryError, type ArchiveLimits } from './archive-limits';

export interface GitTreeSource {
  /** The repository's URL, credentials included when it has them (isomorphic-git moves them). */
  url: string;
  /** `refs/heads/<branch>`, `refs/tags/<tag>` or a bare branch name. */
  ref: string;
  /** Only this folder of the repository is imported (GitBook's `repoProjectDirectory`). */
  projectDirectory?: string;
  http: HttpClient;
  limits: ArchiveLimits;
  /** The size limit of the whole fetch, for the message when it is hit. */
  maxRepositoryBytes: number;
}

/** Why a repository could not be imported, phrased for the space's Git Sync state. */
export class GitImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitImportError';
  }
}

/**
 * Fetches one commit of a repository (shallow: depth 1, one branch, no tags) into a temporary
 * folder through `http`, then hands its tree to an ArchiveCollector entry by entry, so a
 * repository is checked and collected exactly as an uploaded archive is (paths, types, case
 * clashes, size limits). The clone is removed before returning; the collector owns its spool.
 */
export async function fetchGitTree(source: GitTreeSource): Promise<ArchiveCollector> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-git-'));
  const collector = new ArchiveCollector(source.limits);
  try {
    const ref = source.ref.replace(/^refs\/(heads|tags)\//, '');
    await git.clone({
      fs,
      http: source.http,
      dir,
      url: source.url,
      ref,
      singleBranch: true,
      depth: 1,
      noCheckout: true,
      noTags: true,
    });
    const oid = await git.resolveRef({ fs, dir, ref: 'HEAD' });
    const root = trimSlashes(source.projectDirectory ?? '');
    await collectTree(dir, oid, root, '', collector);
    return collector;
  } catch (error) {
    await collector.dispose();
    throw explain(error, source);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Feeds the tree at `path` of commit `oid` to the collector, as paths relative to `root`. */
async function collectTree(
  dir: string,
  oid: string,
  root: string,
  relative: string,
  collector: ArchiveCollector,
): Promise<void> {
  const filepath = [root, relative].filter(Boolean).join('/');
  const tree = await git.readTree({ fs, dir, oid, ...(filepath ? { filepath } : {}) });
  for (const entry of tree.tree) {
    const name = relative ? `${relative}/${entry.path}` : entry.path;
    if (entry.type === 'tree') {
      collector.accept(`${name}/`, 'directory');
      await collectTree(dir, oid, root, name, collector);
    } else if (entry.type === 'commit') {
      continue; // A submodule: another repository, not part of this one's content.
    } else {
      const path = collector.accept(name, entry.mode === '120000' ? 'symlink' : 'file');
      if (path === undefined) continue;
      const { blob } = await git.readBlob({ fs, dir, oid: entry.oid });
      await collector.read(name, path, Readable.from([Buffer.from(blob)]));
    }
  }
}

function trimSlashes(path: string): string {
  return path.replace(/^\.?\/+|\/+$/g, '');
}

/** A clear message for what went wrong, never holding the URL's credentials. */
function explain(error: unknown, source: GitTreeSource): Error {
  if (error instanceof ArchiveEntryError) {
    return new GitImportError(error.message.replace(/^archive entry/, 'repository file'));
  }
  if (error instanceof FetchLimitError && error.limit === 'size') {
    return new GitImportError(
      `the repository is larger than the server's limit of ${source.maxRepositoryBytes} bytes`,
    );
  }
  if (error instanceof SafeFetchError) return new GitImportError(redact(error.message));
  if (error instanceof Errors.NotFoundError) {
    const what = source.projectDirectory ? ' (or the project directory)' : '';
    return new GitImportError(`the ref ${source.ref}${what} is not in the repository`);
  }
  if (error instanceof Errors.HttpError) {
    const status = (error.data as { statusCode?: number }).statusCode ?? 0;
    const auth = status === 401 || status === 403 ? ': check the URL and its credentials' : '';
    return new GitImportError(`the repository answered HTTP ${status}${auth}`);
  }
  if (error instanceof Errors.SmartHttpError) {
    return new GitImportError('the URL does not serve a Git repository over smart HTTP');
  }
  const message = error instanceof Error ? error.message : String(error);
  return new GitImportError(`the repository could not be fetched: ${redact(message)}`);
}

/** Removes userinfo from any URL in a message. */
export function redact(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/?#\s@]*@/gi, '$1');
}
