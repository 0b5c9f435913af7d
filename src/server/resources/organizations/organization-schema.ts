import { Type } from '@sinclair/typebox';
import { SingleLineText } from '../../http/text-schemas';
import { NullableRoleSchema, Nullable, RoleSchema } from '../../http/common-schemas';

export const OrganizationSchema = Type.Object({
  object: Type.Literal('organization'),
  id: Type.String(),
  title: Type.String(),
  createdAt: Type.String(),
  emailDomains: Type.Array(Type.String()),
  hostname: Type.Optional(Type.String()),
  type: Type.String(),
  useCase: Type.Optional(Type.String()),
  communityType: Type.Optional(Type.String()),
  defaultRole: Type.Optional(NullableRoleSchema),
  defaultContent: Type.Optional(
    Type.Object({
      type: Type.Union([Type.Literal('site'), Type.Literal('space')]),
      site: Type.Optional(Type.String()),
      space: Type.Optional(Type.String()),
    }),
  ),
  sso: Type.Optional(Type.Boolean()),
  ai: Type.Optional(Type.Boolean()),
  inviteLinks: Type.Boolean(),
  plan: Type.String(),
  trial: Type.Optional(Type.Object({ status: Type.String() })),
  internal_isOnNewTrial: Type.Optional(Type.Boolean()),
  urls: Type.Object({
    location: Type.String(),
    app: Type.String(),
    logo: Type.Optional(Type.String()),
  }),
  permissions: Type.Object({
    view: Type.Boolean(),
    admin: Type.Boolean(),
    ownTeam: Type.Boolean(),
    createContent: Type.Boolean(),
    createOpenAPISpec: Type.Boolean(),
    viewBilling: Type.Boolean(),
    listMembers: Type.Boolean(),
    listTeams: Type.Boolean(),
    listIntegrations: Type.Boolean(),
  }),
});

// Hostnames follow the spec's subdomain rule: lowercase letters, digits and inner hyphens.
const HOSTNAME_PATTERN = '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$';
const EMAIL_DOMAIN_PATTERN =
  '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$';

export const UpdateOrganizationBody = Type.Object(
  {
    title: Type.Optional(SingleLineText({ minLength: 2, maxLength: 255 })),
    emailDomains: Type.Optional(
      Type.Array(Type.String({ maxLength: 253, pattern: EMAIL_DOMAIN_PATTERN }), { maxItems: 100 }),
    ),
    hostname: Type.Optional(
      Type.String({ minLength: 3, maxLength: 32, pattern: HOSTNAME_PATTERN }),
    ),
    defaultRole: Type.Optional(NullableRoleSchema),
    // `{ type: 'site', site }` (the spec) or `{ type: 'space', space }`; which id goes with which
    // type, and that it exists, is checked by the route (see default-content.ts).
    defaultContent: Type.Optional(
      Nullable(
        Type.Object({
          type: Type.Union([Type.Literal('site'), Type.Literal('space')]),
          site: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          space: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        }),
      ),
    ),
    logo: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 2048 }))),
    sso: Type.Optional(Type.Boolean()),
    ai: Type.Optional(Type.Boolean()),
    inviteLinks: Type.Optional(Type.Boolean()),
  },
  { minProperties: 1 },
);

export const InviteSchema = Type.Object({
  object: Type.Literal('invite'),
  id: Type.String(),
  role: RoleSchema,
  redundant: Type.Boolean(),
});

export const UpdateInviteBody = Type.Object({ role: RoleSchema });
