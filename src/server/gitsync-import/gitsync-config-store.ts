import type { GitBookConfig } from '../../shared/gitsync/gitbook-config';
import type { Db } from '../db/open-database';
import { prepareCached } from '../db/prepare-cached';

/** A space's `.gitbook.yaml` as the configuration endpoint presents it. */
export interface StoredGitSyncConfig {
  /** The file exactly as written. */
  text: string;
  root: string;
  structure: { readme: string; summary: string };
  redirects: Record<string, string>;
}

interface ConfigRow {
  text: string;
  root: string;
  readme: string;
  summary: string;
  redirects: string;
}

/**
 * The `gitsync_configs` table (migration 0007): a space's configuration, and an import's kept
 * with its change request until the merge makes it the space's (`promote`).
 */
export class GitSyncConfigStore {
  constructor(private readonly db: Db) {}

  ofSpace(spaceId: string): StoredGitSyncConfig | undefined {
    const row = prepareCached<[string], ConfigRow>(
      this.db,
      `SELECT text, root, readme, summary, redirects FROM gitsync_configs
       WHERE space_id = ? AND change_request_id IS NULL`,
    ).get(spaceId);
    return row === undefined ? undefined : presentRow(row);
  }

  /** Replaces the space's configuration (`changeRequestId` null) or a change request's. */
  put(
    owner: { spaceId: string; changeRequestId: string | null },
    text: string,
    config: GitBookConfig,
    userId: string,
    now: string,
  ): void {
    this.remove(owner.spaceId, owner.changeRequestId);
    prepareCached(
      this.db,
      `INSERT INTO gitsync_configs (space_id, change_request_id, text, root, readme, summary,
         redirects, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      owner.spaceId,
      owner.changeRequestId,
      text,
      config.root,
      config.readme,
      config.summary,
      JSON.stringify(config.redirects),
      userId,
      now,
    );
  }

  /** The change request was merged: its configuration, if it has one, becomes the space's. */
  promote(spaceId: string, changeRequestId: string): void {
    const pending = prepareCached<[string, string], { n: number }>(
      this.db,
      'SELECT count(*) AS n FROM gitsync_configs WHERE space_id = ? AND change_request_id = ?',
    ).get(spaceId, changeRequestId);
    if ((pending?.n ?? 0) === 0) return;
    this.remove(spaceId, null);
    prepareCached(
      this.db,
      `UPDATE gitsync_configs SET change_request_id = NULL
       WHERE space_id = ? AND change_request_id = ?`,
    ).run(spaceId, changeRequestId);
  }

  private remove(spaceId: string, changeRequestId: string | null): void {
    prepareCached(
      this.db,
      `DELETE FROM gitsync_configs WHERE space_id = ? AND change_request_id IS ?`,
    ).run(spaceId, changeRequestId);
  }
}

function presentRow(row: ConfigRow): StoredGitSyncConfig {
  const redirects: Record<string, string> = {};
  // Own data only: a `__proto__` redirect must stay a key.
  for (const [from, to] of Object.entries(JSON.parse(row.redirects) as Record<string, string>)) {
    Object.defineProperty(redirects, from, { value: to, enumerable: true, writable: true });
  }
  return {
    text: row.text,
    root: row.root,
    structure: { readme: row.readme, summary: row.summary },
    redirects,
  };
}
