import { Type } from '@sinclair/typebox';
import { SingleLineText } from '../../http/text-schemas';
import { PageQuerySchema } from '../../http/common-schemas';
import { MemberSchema } from '../members/member-serializer';
import { StringEnum } from '../members/string-enum';

export const TEAM_MEMBER_ROLES = ['owner', 'member'] as const;
export type TeamMemberRole = (typeof TEAM_MEMBER_ROLES)[number];
export const TeamMemberRoleSchema = StringEnum(TEAM_MEMBER_ROLES);

export const TeamSchema = Type.Object({
  object: Type.Literal('team'),
  id: Type.String(),
  title: Type.String(),
  members: Type.Integer(),
  spaces: Type.Integer(),
  createdAt: Type.String(),
  permissions: Type.Object({ admin: Type.Boolean(), view: Type.Boolean() }),
  urls: Type.Object({ location: Type.String() }),
});

/** A user's membership of a team (`{ role }`), as embedded in list items. */
export const TeamMembershipSchema = Type.Object({ role: TeamMemberRoleSchema });

export const TeamMemberSchema = Type.Object({
  organization: MemberSchema,
  team: TeamMembershipSchema,
  permissions: Type.Object({ view: Type.Boolean() }),
});

const Id = Type.String({ minLength: 1, maxLength: 100 });
export const TeamTitle = SingleLineText({ minLength: 1, maxLength: 64 });
/** A user id or an e-mail address (e-mails are at most 320 characters). */
const UserRef = Type.String({ minLength: 1, maxLength: 320 });
// Bulk bodies are bounded so one request cannot hold the database for long.
const MAX_BULK = 1000;

export const OrgParams = Type.Object({ organizationId: Id });
export const TeamParams = Type.Object({ organizationId: Id, teamId: Id });
export const TeamMemberParams = Type.Object({ organizationId: Id, teamId: Id, userId: Id });

export const ListTeamsQuery = Type.Object({
  ...PageQuerySchema,
  owner: Type.Optional(Id),
  title: Type.Optional(Type.String({ maxLength: 256 })),
});

export const CreateTeamBody = Type.Object({
  title: TeamTitle,
  members: Type.Optional(Type.Array(Id, { maxItems: MAX_BULK })),
});

export const UpdateTeamBody = Type.Object({ title: TeamTitle });

export const ListTeamMembersQuery = Type.Object(PageQuerySchema);

export const UpdateTeamMembersBody = Type.Object({
  add: Type.Optional(Type.Array(UserRef, { maxItems: MAX_BULK })),
  remove: Type.Optional(Type.Array(UserRef, { maxItems: MAX_BULK })),
  memberships: Type.Optional(
    Type.Record(Type.String(), TeamMembershipSchema, { maxProperties: MAX_BULK }),
  ),
});

export const AddTeamMemberBody = Type.Object({ role: Type.Optional(TeamMemberRoleSchema) });
