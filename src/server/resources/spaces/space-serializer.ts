import { atLeast, type Role } from '../../auth/roles';
import type { Db } from '../../db/open-database';
import { prepareCached } from '../../db/prepare-cached';
import type { Urls } from '../../http/urls';

export interface SpaceRow {
  id: string;
  organization_id: string;
  title: string;
  emoji: string;
  visibility: string;
  edit_mode: string;
  parent_id: string | null;
  default_level: Role | null;
  revision_id: string;
  share_key: string;
  position: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/**
 * Select-list columns (SpaceCountColumns) counting what is shown on the space `space` (an SQL
 * expression): its change requests by status and its open (space-level) comments. A read that
 * loads its space row can take them in the same statement.
 */
export const spaceCountColumns = (space: string) => `
  (SELECT count(*) FROM change_requests WHERE space_id = ${space}) AS count_crs,
  (SELECT count(*) FROM change_requests WHERE space_id = ${space} AND status = 'open') AS count_crs_open,
  (SELECT count(*) FROM change_requests WHERE space_id = ${space} AND status = 'draft') AS count_crs_draft,
  (SELECT count(*) FROM comments
     WHERE space_id = ${space} AND change_request_id IS NULL AND status = 'open') AS count_comments`;

export interface SpaceCountColumns {
  count_crs: number;
  count_crs_open: number;
  count_crs_draft: number;
  count_comments: number;
}

export function countsOf(row: SpaceCountColumns): SpaceCounts {
  return {
    comments: row.count_comments,
    changeRequests: row.count_crs,
    changeRequestsOpen: row.count_crs_open,
    changeRequestsDraft: row.count_crs_draft,
  };
}

const SPACE_COUNTS_SQL = `SELECT ${spaceCountColumns('@space')}`;

/** Counts shown on a space: its change requests by status and its open (space-level) comments. */
export function spaceCounts(db: Db, spaceId: string): SpaceCounts {
  return countsOf(
    prepareCached<[{ space: string }], SpaceCountColumns>(db, SPACE_COUNTS_SQL).get({
      space: spaceId,
    })!,
  );
}

/** The Space resource as a caller with effective role `role` sees it. */
export function serializeSpace(
  row: SpaceRow,
  role: Role | null,
  counts: SpaceCounts,
  urls: Urls,
  shareKey?: string,
) {
  const published = `${urls.published(`/${row.organization_id}/${row.id}`)}`;
  const isPublic = row.visibility === 'public' || row.visibility === 'unlisted';
  const shareLinkOk =
    row.visibility === 'share-link' && shareKey !== undefined && shareKey === row.share_key;
  return {
    object: 'space' as const,
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility as 'private',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.deleted_at ? { deletedAt: row.deleted_at } : {}),
    editMode: row.edit_mode as 'live' | 'locked',
    organization: row.organization_id,
    ...(row.parent_id ? { parent: row.parent_id } : {}),
    revision: row.revision_id,
    defaultLevel: row.default_level,
    ...counts,
    mergeRules: { type: 'inherit' },
    urls: {
      location: urls.api(`/spaces/${row.id}`),
      app: urls.app(`/s/${row.id}`),
      ...(isPublic ? { published } : {}),
      ...(shareLinkOk
        ? { published: `${published}?share=${encodeURIComponent(row.share_key)}` }
        : {}),
      ...(row.visibility === 'public' ? { public: published } : {}),
    },
    permissions: {
      view: atLeast(role, 'read'),
      access: atLeast(role, 'admin'),
      admin: atLeast(role, 'admin'),
      viewInviteLinks: atLeast(role, 'admin'),
      edit: atLeast(role, 'edit') && row.edit_mode !== 'locked',
      triggerGitSync: atLeast(role, 'edit'),
      comment: atLeast(role, 'comment'),
      merge: atLeast(role, 'review'),
      review: atLeast(role, 'review'),
    },
  };
}
