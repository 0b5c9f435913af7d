import { ImportUploadError } from './upload-import';

export interface GitUrlImportTarget {
  server: string;
  token: string;
  spaceId: string;
  /** The repository (http or https; credentials in it go to the server only). */
  url: string;
  ref: string;
  /** Update the space (merged); otherwise the import is left open as a change request. */
  merge: boolean;
}

/** How the server's import ended (its Git Sync state's last operation). */
export interface GitUrlImportResult {
  state: 'success' | 'failure' | 'timeout';
  error?: string;
}

export interface GitUrlImportOptions {
  fetch?: typeof fetch;
  /** Between two looks at the operation's state. */
  pollMs?: number;
  /** Gives up waiting (the import may still finish on the server). */
  waitMs?: number;
}

interface GitInfo {
  operation?: { state: string; error?: string };
}

/**
 * Asks the server to import a repository by URL (the published `POST …/git/import`, which
 * answers 204 and works in the background), then follows `GET …/git/info` until the operation
 * has ended. HTTP refusals are ImportUploadErrors, as for a folder's import.
 */
export async function importGitUrl(
  target: GitUrlImportTarget,
  options: GitUrlImportOptions = {},
): Promise<GitUrlImportResult> {
  const call = options.fetch ?? fetch;
  const base = `${target.server.replace(/\/+$/, '')}/v1/spaces/${encodeURIComponent(target.spaceId)}/git`;
  const headers = { authorization: `Bearer ${target.token}` };
  const request = async (path: string, init: RequestInit = {}) => {
    let response: Response;
    try {
      response = await call(`${base}/${path}`, {
        ...init,
        headers: { ...headers, ...init.headers },
      });
    } catch (error) {
      throw new ImportUploadError(0, `cannot reach ${target.server}: ${String(error)}`);
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
      throw new ImportUploadError(
        response.status,
        body.error?.message ?? `HTTP ${response.status}`,
      );
    }
    return response;
  };
  await request('import', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: target.url, ref: target.ref, standalone: !target.merge }),
  });
  const deadline = Date.now() + (options.waitMs ?? 10 * 60_000);
  for (;;) {
    const info = (await (await request('info')).json()) as GitInfo;
    const state = info.operation?.state;
    if (state === 'success' || state === 'failure' || state === 'timeout') {
      return { state, ...(info.operation?.error ? { error: info.operation.error } : {}) };
    }
    if (Date.now() > deadline) {
      return { state: 'timeout', error: 'still running on the server; `quire` stopped waiting' };
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 500));
  }
}
