import type { KeysetQuery } from '../../http/paginate';
import type { ChangeRequestStatus } from './change-request-queries';

export interface OrgChangeRequestFilter {
  organizationId: string;
  userId: string;
  /** Guests see only the change requests of spaces granted to them or their teams. */
  guest: boolean;
  statuses: readonly ChangeRequestStatus[];
  space?: string | undefined;
  /** Change requests of the spaces a docs site publishes (its site spaces). */
  site?: string | undefined;
  creator?: string | undefined;
  contributor?: string | undefined;
  requestedReviewer?: string | undefined;
  orderBy: 'updatedAt' | 'createdAt';
}

/**
 * The keyset query of an organization's change requests across the spaces the caller can read
 * (listChangeRequestsForOrganization), newest activity (or creation) first. Spaces in the trash
 * are left out, as they are from the space list.
 */
export function orgChangeRequestsQuery(filter: OrgChangeRequestFilter): KeysetQuery {
  const where = [
    's.organization_id = ?',
    's.deleted_at IS NULL',
    `cr.status IN (${filter.statuses.map(() => '?').join(', ')})`,
  ];
  const params: unknown[] = [filter.organizationId, ...filter.statuses];
  if (filter.guest) {
    where.push(
      `(EXISTS (SELECT 1 FROM space_grants g WHERE g.space_id = s.id AND g.user_id = ?)
        OR EXISTS (SELECT 1 FROM space_grants g JOIN team_members tm ON tm.team_id = g.team_id
                   WHERE g.space_id = s.id AND tm.user_id = ?))`,
    );
    params.push(filter.userId, filter.userId);
  }
  const optional: [string | undefined, string][] = [
    [filter.space, 'cr.space_id = ?'],
    [filter.site, 'cr.space_id IN (SELECT ss.space_id FROM site_spaces ss WHERE ss.site_id = ?)'],
    [filter.creator, 'cr.created_by = ?'],
    [
      filter.contributor,
      'EXISTS (SELECT 1 FROM change_request_contributors c WHERE c.change_request_id = cr.id AND c.user_id = ?)',
    ],
    [
      filter.requestedReviewer,
      'EXISTS (SELECT 1 FROM change_request_requested_reviewers q WHERE q.change_request_id = cr.id AND q.user_id = ?)',
    ],
  ];
  for (const [value, condition] of optional) {
    if (value === undefined) continue;
    where.push(condition);
    params.push(value);
  }
  // Numbers repeat across spaces, so the id breaks ties here.
  const byUpdate = filter.orderBy === 'updatedAt';
  return {
    from: 'SELECT cr.* FROM change_requests cr JOIN spaces s ON s.id = cr.space_id',
    where,
    params,
    orderBy: byUpdate ? ['cr.updated_at', 'cr.id'] : ['cr.created_at', 'cr.id'],
    direction: 'DESC',
    keyOf: (row) => [byUpdate ? row['updated_at'] : row['created_at'], row['id']],
    scope: `org-change-requests:${JSON.stringify([
      filter.organizationId,
      filter.userId,
      [...filter.statuses].sort(),
      filter.space ?? null,
      filter.site ?? null,
      filter.creator ?? null,
      filter.contributor ?? null,
      filter.requestedReviewer ?? null,
      filter.orderBy,
    ])}`,
  };
}
