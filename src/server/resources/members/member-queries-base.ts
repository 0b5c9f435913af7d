/**
 * The member columns with the `spaces` and `teams` counts computed in SQL, so a 1,000-member page
 * is one query. A member with a role sees every live space of the organization; a guest sees only
 * the spaces granted to them or to one of their teams.
 */
export const MEMBER_COLUMNS = `
  m.organization_id, m.user_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
  u.display_name, u.email, u.photo_url,
  (SELECT count(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id
    WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id) AS team_count,
  CASE WHEN m.role IS NOT NULL
    THEN (SELECT count(*) FROM spaces s
           WHERE s.organization_id = m.organization_id AND s.deleted_at IS NULL)
    ELSE (SELECT count(DISTINCT g.space_id) FROM space_grants g
           JOIN spaces s ON s.id = g.space_id
           LEFT JOIN team_members tm ON tm.team_id = g.team_id
           WHERE s.organization_id = m.organization_id AND s.deleted_at IS NULL
             AND (g.user_id = m.user_id OR tm.user_id = m.user_id))
  END AS space_count`;

/** The tables MEMBER_COLUMNS reads; further JOINs can be appended (team membership lists). */
export const MEMBER_FROM = `FROM members m JOIN users u ON u.id = m.user_id`;

export const MEMBER_SELECT = `SELECT ${MEMBER_COLUMNS} ${MEMBER_FROM}`;
