import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { GitImportError } from './fetch-git-tree';
import { guardedGitHttp } from './guarded-git-http';
import { pushGitTree } from './push-git-tree';

/** What a Git push job is given (plain data: it crosses to a worker thread). */
export interface GitPushInput {
  /** A folder holding the space's layout (written by the caller, who removes it). */
  folder: string;
  url: string;
  ref: string;
  projectDirectory?: string;
  commitMessage: string;
  force: boolean;
  allowPrivate: boolean;
  allowedAddresses: string[];
  maxRepositoryBytes: number;
  requestTimeoutMs: number;
  timeoutMs: number;
}

export type GitPushOutput = { commit: string } | { error: string };

/**
 * Commits and pushes a written layout (pushGitTree) on a worker thread: hashing and packing
 * the files is CPU work that must not run on the event loop. A refusal comes back as data.
 */
export async function gitPushTask(input: GitPushInput): Promise<GitPushOutput> {
  const files = readdirSync(input.folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = join(entry.parentPath, entry.name);
      return {
        path: relative(input.folder, file).split(sep).join('/'),
        bytes: () => readFileSync(file),
      };
    });
  try {
    const commit = await pushGitTree(files, {
      url: input.url,
      ref: input.ref,
      ...(input.projectDirectory ? { projectDirectory: input.projectDirectory } : {}),
      commitMessage: input.commitMessage,
      force: input.force,
      maxRepositoryBytes: input.maxRepositoryBytes,
      http: guardedGitHttp({
        allowPrivate: input.allowPrivate,
        allowedAddresses: input.allowedAddresses,
        maxBytes: input.maxRepositoryBytes,
        maxRequestBytes: input.maxRepositoryBytes,
        requestTimeoutMs: input.requestTimeoutMs,
        signal: AbortSignal.timeout(input.timeoutMs),
      }),
    });
    return { commit };
  } catch (error) {
    if (error instanceof GitImportError) return { error: error.message };
    throw error;
  }
}
