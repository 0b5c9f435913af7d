import type { ArchiveLimits } from './archive-limits';
import type { SpooledFile } from './archive-collector';
import { fetchGitTree, GitImportError } from './fetch-git-tree';
import { guardedGitHttp } from './guarded-git-http';

/** What a Git fetch job is given (plain data: it crosses to a worker thread). */
export interface GitFetchInput {
  url: string;
  ref: string;
  projectDirectory?: string;
  limits: ArchiveLimits;
  allowPrivate: boolean;
  allowedAddresses: string[];
  maxRepositoryBytes: number;
  requestTimeoutMs: number;
  timeoutMs: number;
}

/** The collected layout (assets spooled in `folder`, which the caller removes), or why not. */
export type GitFetchOutput =
  | {
      texts: [string, Uint8Array][];
      assets: [string, SpooledFile][];
      folder?: string;
    }
  | { error: string };

/**
 * Fetches and collects a repository's tree (fetchGitTree) on a worker thread: unpacking and
 * hashing a pack is CPU work that must not run on the server's event loop. A refusal comes back
 * as data, since a worker's own errors reach the caller only as "failed".
 */
export async function gitFetchTask(input: GitFetchInput): Promise<GitFetchOutput> {
  try {
    const collector = await fetchGitTree({
      url: input.url,
      ref: input.ref,
      ...(input.projectDirectory ? { projectDirectory: input.projectDirectory } : {}),
      limits: input.limits,
      maxRepositoryBytes: input.maxRepositoryBytes,
      http: guardedGitHttp({
        allowPrivate: input.allowPrivate,
        allowedAddresses: input.allowedAddresses,
        maxBytes: input.maxRepositoryBytes,
        requestTimeoutMs: input.requestTimeoutMs,
        signal: AbortSignal.timeout(input.timeoutMs),
      }),
    });
    return {
      texts: [...collector.texts],
      assets: [...collector.assets],
      ...(collector.spoolFolder !== undefined ? { folder: collector.spoolFolder } : {}),
    };
  } catch (error) {
    if (error instanceof GitImportError) return { error: error.message };
    throw error;
  }
}
