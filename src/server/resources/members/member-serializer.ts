import type { Role } from '../../auth/roles';
import { Type } from '@sinclair/typebox';
import { NullableRoleSchema, UserSchema } from '../../http/common-schemas';
import type { Urls } from '../../http/urls';
import { serializeUser } from '../users/user-serializer';

export interface MemberRow {
  organization_id: string;
  user_id: string;
  role: Role | null;
  disabled: number;
  sso: number;
  joined_at: string;
  last_seen_at: string | null;
  display_name: string;
  email: string;
  photo_url: string | null;
  team_count: number;
  space_count: number;
}

export const MemberSchema = Type.Object({
  object: Type.Literal('member'),
  id: Type.String(),
  role: NullableRoleSchema,
  user: UserSchema,
  disabled: Type.Boolean(),
  joinedAt: Type.String(),
  lastSeenAt: Type.Optional(Type.String()),
  sso: Type.Boolean(),
  spaces: Type.Integer(),
  teams: Type.Integer(),
});

/**
 * Two literals rather than a conditional spread (see serializeUser): pages hold 1,000 members.
 * Keys in Fastify's serializer's order (required, then optional; see serializeUser).
 */
export function serializeMember(row: MemberRow, urls: Urls) {
  const user = serializeUser(
    { id: row.user_id, display_name: row.display_name, email: row.email, photo_url: row.photo_url },
    urls,
  );
  return row.last_seen_at
    ? {
        object: 'member' as const,
        id: row.user_id,
        role: row.role,
        user,
        disabled: row.disabled === 1,
        joinedAt: row.joined_at,
        sso: row.sso === 1,
        spaces: row.space_count,
        teams: row.team_count,
        lastSeenAt: row.last_seen_at,
      }
    : {
        object: 'member' as const,
        id: row.user_id,
        role: row.role,
        user,
        disabled: row.disabled === 1,
        joinedAt: row.joined_at,
        sso: row.sso === 1,
        spaces: row.space_count,
        teams: row.team_count,
      };
}
