import { Type } from '@sinclair/typebox';
import { PageQuerySchema, UserSchema } from '../../http/common-schemas';

const IdParam = Type.String({ minLength: 1, maxLength: 100 });

const Status = Type.Union([
  Type.Literal('draft'),
  Type.Literal('open'),
  Type.Literal('archived'),
  Type.Literal('merged'),
]);

export const OrgChangeRequestParams = Type.Object({ organizationId: IdParam });

/** listChangeRequestsForOrganization's query: `status` repeats (`status=open&status=draft`). */
export const ListOrgChangeRequestsQuery = Type.Object({
  ...PageQuerySchema,
  status: Type.Optional(Type.Array(Status, { minItems: 1, maxItems: 4, default: ['open'] })),
  creator: Type.Optional(IdParam),
  contributor: Type.Optional(IdParam),
  requestedReviewer: Type.Optional(IdParam),
  space: Type.Optional(IdParam),
  /** Published filters about docs sites and style guides, which this server has none of. */
  site: Type.Optional(IdParam),
  topic: Type.Optional(IdParam),
  styleguideRun: Type.Optional(IdParam),
  finding: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('all')])),
  orderBy: Type.Optional(
    Type.Union([Type.Literal('updatedAt'), Type.Literal('createdAt')], { default: 'updatedAt' }),
  ),
});

/** ChangeRequestUserContributor: who edited or commented, how often, and when last. */
export const ContributorSchema = Type.Object({
  user: UserSchema,
  count: Type.Integer(),
  updatedAt: Type.String(),
  actionType: Type.Union([Type.Literal('edit'), Type.Literal('comment')]),
});
