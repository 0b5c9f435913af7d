import { Type } from '@sinclair/typebox';
import { callerOf } from '../../http/authenticate';
import { conflict, notFound } from '../../http/api-error';
import {
  ListSchema,
  PageQuerySchema,
  errorResponses,
  noContentResponses,
} from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { SiteQueries } from '../sites/site-queries';
import { SpaceQueries } from '../spaces/space-queries';
import { checkDefaultContent } from './default-content';
import { OrganizationQueries, type OrganizationRow } from './organization-queries';
import {
  InviteSchema,
  OrganizationSchema,
  UpdateInviteBody,
  UpdateOrganizationBody,
} from './organization-schema';
import { serializeInvite, serializeOrganization } from './organization-serializer';
import type { Role } from '../../auth/roles';

const OrgParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }) });
const InviteParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  inviteId: Type.String({ minLength: 1, maxLength: 100 }),
});

export function organizationRoutes(app: TypedApp, ctx: ServerContext): void {
  const queries = new OrganizationQueries(ctx.db);
  const spaces = new SpaceQueries(ctx.db);
  const sites = new SiteQueries(ctx.db);
  const { access, urls } = ctx;

  app.get(
    '/v1/orgs',
    {
      schema: {
        querystring: Type.Object(PageQuerySchema),
        response: { 200: ListSchema(OrganizationSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const page = paginate<OrganizationRow & { member_role: Role | null }>(
        ctx.db,
        {
          from: `SELECT o.*, m.role AS member_role FROM organizations o
                 JOIN members m ON m.organization_id = o.id AND m.user_id = ? AND m.disabled = 0`,
          where: [],
          params: [userId],
          orderBy: ['o.created_at', 'o.id'],
          direction: 'ASC',
          keyOf: (row) => [row['created_at'], row['id']],
          scope: `orgs:${userId}`,
        },
        request.query,
      );
      return listEnvelope(
        page.rows.map((row) => serializeOrganization(row, row.member_role, urls)),
        page.next,
        page.count,
      );
    },
  );

  app.get(
    '/v1/orgs/:organizationId',
    { schema: { params: OrgParams, response: { 200: OrganizationSchema, ...errorResponses } } },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const membership = access.requireOrg(userId, organizationId);
      const row = queries.get(organizationId);
      if (!row) throw notFound(`Organization ${organizationId}`);
      return serializeOrganization(row, membership.role, urls);
    },
  );

  app.patch(
    '/v1/orgs/:organizationId',
    {
      schema: {
        params: OrgParams,
        body: UpdateOrganizationBody,
        response: { 200: OrganizationSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const membership = access.requireOrg(userId, organizationId, 'admin');
      const { defaultContent, ...body } = request.body;
      if (body.hostname !== undefined && queries.hostnameTaken(body.hostname, organizationId)) {
        throw conflict(`Hostname ${body.hostname} is already used by another organization`);
      }
      // null (remove) and undefined (keep) pass through; a pointer must lead somewhere.
      const pointer = defaultContent
        ? checkDefaultContent(defaultContent, organizationId, userId, { spaces, sites, access })
        : defaultContent;
      queries.update(organizationId, { ...body, defaultContent: pointer });
      const row = queries.get(organizationId);
      if (!row) throw notFound(`Organization ${organizationId}`);
      return serializeOrganization(row, membership.role, urls);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    { schema: { params: InviteParams, response: { 200: InviteSchema, ...errorResponses } } },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, inviteId } = request.params;
      access.requireOrg(userId, organizationId, 'admin');
      const invite = queries.getInvite(organizationId, inviteId);
      if (!invite) throw notFound(`Invite ${inviteId}`);
      return serializeInvite(invite, queries.inviteIsRedundant(invite));
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    {
      schema: {
        params: InviteParams,
        body: UpdateInviteBody,
        response: { 200: InviteSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, inviteId } = request.params;
      access.requireOrg(userId, organizationId, 'admin');
      if (!queries.getInvite(organizationId, inviteId)) throw notFound(`Invite ${inviteId}`);
      queries.updateInvite(inviteId, request.body.role);
      const invite = queries.getInvite(organizationId, inviteId);
      if (!invite) throw notFound(`Invite ${inviteId}`);
      return serializeInvite(invite, queries.inviteIsRedundant(invite));
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    { schema: { params: InviteParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, inviteId } = request.params;
      access.requireOrg(userId, organizationId, 'admin');
      if (!queries.getInvite(organizationId, inviteId)) throw notFound(`Invite ${inviteId}`);
      queries.deleteInvite(inviteId);
      return reply.code(205).send(undefined);
    },
  );

  app.get(
    '/v1/email-domains/:emailDomain/orgs',
    {
      schema: {
        params: Type.Object({ emailDomain: Type.String({ minLength: 1, maxLength: 253 }) }),
        response: {
          200: Type.Object({ organizations: Type.Array(OrganizationSchema) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      // Only organizations the caller can see: the lookup must not enumerate other tenants.
      const organizations = queries.byEmailDomain(request.params.emailDomain).flatMap((row) => {
        const membership = access.membership(userId, row.id);
        return membership ? [serializeOrganization(row, membership.role, urls)] : [];
      });
      return { organizations };
    },
  );
}
