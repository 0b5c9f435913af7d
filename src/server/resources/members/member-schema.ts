import { Type } from '@sinclair/typebox';
import { ROLES } from '../../auth/roles';
import { NullableRoleSchema, PageQuerySchema, RoleSchema } from '../../http/common-schemas';
import { SpaceSchema } from '../spaces/space-schema';
import { TeamMembershipSchema, TeamSchema } from '../teams/team-schema';
import { StringEnum } from './string-enum';

export const ListOrderSchema = StringEnum(['asc', 'desc'] as const);

/** `guest` selects members without a role, as the published client allows. */
export const MEMBER_ROLE_FILTERS = [...ROLES, 'guest'] as const;
export type MemberRoleFilter = (typeof MEMBER_ROLE_FILTERS)[number];

export const MemberParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  userId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ListMembersQuery = Type.Object({
  ...PageQuerySchema,
  order: Type.Optional(ListOrderSchema),
  role: Type.Optional(StringEnum(MEMBER_ROLE_FILTERS)),
  search: Type.Optional(Type.String({ maxLength: 256 })),
  sort: Type.Optional(StringEnum(['joinedAt', 'lastSeenAt'] as const)),
});

/** `role` is required: the client always sends it, and null (guest) must be said explicitly. */
export const UpdateMemberBody = Type.Object({ role: NullableRoleSchema });

/** The same signed JWT under the spec's name and the published API's. */
export const PingResponse = Type.Object({
  serviceVisitorClaims: Type.String(),
  gitbookVisitorClaims: Type.String(),
});

export const ListMemberSpacesQuery = Type.Object({
  ...PageQuerySchema,
  order: Type.Optional(ListOrderSchema),
});

export const MemberSpaceSchema = Type.Object({ permission: RoleSchema, space: SpaceSchema });

export const ListMemberTeamsQuery = Type.Object({
  ...PageQuerySchema,
  title: Type.Optional(Type.String({ maxLength: 256 })),
});

export const MemberTeamSchema = Type.Object({ team: TeamSchema, member: TeamMembershipSchema });
