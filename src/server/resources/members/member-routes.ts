import { Type, type Static } from '@sinclair/typebox';
import { conflict, forbidden, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { ListSchema, errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { serializeSpace, spaceCounts, type SpaceRow } from '../spaces/space-serializer';
import { TeamQueries, type MemberTeamRow } from '../teams/team-queries';
import { serializeTeam } from '../teams/team-serializer';
import { MemberQueries } from './member-queries';
import {
  ListMemberSpacesQuery,
  ListMemberTeamsQuery,
  ListMembersQuery,
  MemberParams,
  MemberSpaceSchema,
  MemberTeamSchema,
  PingResponse,
  UpdateMemberBody,
} from './member-schema';
import { MemberSchema, serializeMember, type MemberRow } from './member-serializer';

const OrgParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }) });

export function memberRoutes(app: TypedApp, ctx: ServerContext): void {
  const members = new MemberQueries(ctx.db);
  const teams = new TeamQueries(ctx.db);
  const { access, urls } = ctx;

  const requireMember = (organizationId: string, userId: string): MemberRow => {
    const row = members.get(organizationId, userId);
    if (!row) throw notFound(`Member ${userId} of organization ${organizationId}`);
    return row;
  };

  /** The last active admin can neither be demoted nor removed: the organization would be orphaned. */
  const keepAnAdmin = (target: MemberRow, action: string) => {
    if (
      target.role === 'admin' &&
      !target.disabled &&
      members.otherAdmins(target.organization_id, target.user_id) === 0
    ) {
      throw conflict(
        `Cannot ${action} ${target.user_id}: they are the last admin of organization ` +
          `${target.organization_id}; make another member an admin first`,
      );
    }
  };

  /**
   * GET /v1/orgs/{id}/members: also answered by ctx.fastReads (pages of 1,000 members are built
   * once and reused until anything changes), so both paths share this function.
   */
  const listMembers = (
    organizationId: string,
    userId: string,
    query: Static<typeof ListMembersQuery>,
  ) => {
    access.requireOrg(userId, organizationId, 'read');
    const { order = 'desc', sort = 'joinedAt', role, search } = query;
    const page = paginate<MemberRow>(
      ctx.db,
      members.listQuery(organizationId, { order, sort, role, search }),
      query,
    );
    return listEnvelope(
      page.rows.map((row) => serializeMember(row, urls)),
      page.next,
      page.count,
    );
  };
  // The query arrives validated and coerced by the route's own schema (see FastReads).
  ctx.fastReads.addWithQuery(
    '/v1/orgs/',
    '/members',
    ListMembersQuery,
    (organizationId, userId, query) =>
      listMembers(organizationId, userId, query as Static<typeof ListMembersQuery>),
  );

  app.get(
    '/v1/orgs/:organizationId/members',
    {
      schema: {
        params: OrgParams,
        querystring: ListMembersQuery,
        response: { 200: ListSchema(MemberSchema), ...errorResponses },
      },
    },
    async (request) =>
      listMembers(request.params.organizationId, callerOf(request).userId, request.query),
  );

  app.get(
    '/v1/orgs/:organizationId/members/:userId',
    { schema: { params: MemberParams, response: { 200: MemberSchema, ...errorResponses } } },
    async (request) => {
      const caller = callerOf(request);
      const { organizationId, userId } = request.params;
      // Guests may see their own membership, not anyone else's.
      if (userId !== caller.userId) access.requireOrg(caller.userId, organizationId, 'read');
      else access.requireOrg(caller.userId, organizationId);
      return serializeMember(requireMember(organizationId, userId), urls);
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/members/:userId',
    {
      schema: {
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: MemberSchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { organizationId, userId } = request.params;
      access.requireOrg(caller.userId, organizationId, 'admin');
      const target = requireMember(organizationId, userId);
      const { role } = request.body;
      if (role !== 'admin') keepAnAdmin(target, 'demote');
      members.updateRole(organizationId, userId, role);
      return serializeMember(requireMember(organizationId, userId), urls);
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/members/:userId',
    { schema: { params: MemberParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { organizationId, userId } = request.params;
      // Anyone may leave; removing someone else takes an admin.
      if (userId === caller.userId) access.requireOrg(caller.userId, organizationId);
      else access.requireOrg(caller.userId, organizationId, 'admin');
      keepAnAdmin(requireMember(organizationId, userId), 'remove');
      members.remove(organizationId, userId);
      return reply.code(204).send(undefined);
    },
  );

  app.post(
    '/v1/orgs/:organizationId/ping',
    { schema: { params: OrgParams, response: { 200: PingResponse, ...errorResponses } } },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      access.requireOrg(userId, organizationId);
      members.touch(organizationId, userId, ctx.clock.now().toISOString());
      const member = requireMember(organizationId, userId);
      const token = await ctx.visitorClaims.sign(
        {
          organizationId,
          userId,
          email: member.email,
          name: member.display_name,
          role: member.role,
        },
        urls.root,
      );
      // The spec's name, and the published client's (`@gitbook/api` reads gitbookVisitorClaims).
      return { serviceVisitorClaims: token, gitbookVisitorClaims: token };
    },
  );

  app.post(
    '/v1/orgs/:organizationId/members/:userId/sso',
    { schema: { params: MemberParams, response: { 200: MemberSchema, ...errorResponses } } },
    async (request) => {
      const caller = callerOf(request);
      const { organizationId, userId } = request.params;
      access.requireOrg(caller.userId, organizationId, 'admin');
      requireMember(organizationId, userId);
      members.markSso(organizationId, userId);
      return serializeMember(requireMember(organizationId, userId), urls);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/members/:userId/spaces',
    {
      schema: {
        params: MemberParams,
        querystring: ListMemberSpacesQuery,
        response: { 200: ListSchema(MemberSpaceSchema), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { organizationId, userId } = request.params;
      const membership = access.requireOrg(caller.userId, organizationId);
      if (userId !== caller.userId && membership.role !== 'admin') {
        throw forbidden(`Only admins may list the spaces of another member`);
      }
      const target = requireMember(organizationId, userId);
      const page = paginate<SpaceRow>(
        ctx.db,
        members.spacesQuery(
          organizationId,
          { userId, guest: target.role === null },
          request.query.order ?? 'desc',
        ),
        request.query,
      );
      const items = page.rows.flatMap((row) => {
        const permission = access.spaceRole(userId, row)?.role ?? null;
        // A disabled member has no effective role anywhere; nothing to show for them.
        if (permission === null) return [];
        const callerRole =
          userId === caller.userId ? permission : access.roleOnSpace(caller.userId, row);
        return [
          {
            permission,
            space: serializeSpace(row, callerRole, spaceCounts(ctx.db, row.id), urls),
          },
        ];
      });
      return listEnvelope(items, page.next, page.count);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/members/:userId/teams',
    {
      schema: {
        params: MemberParams,
        querystring: ListMemberTeamsQuery,
        response: { 200: ListSchema(MemberTeamSchema), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { organizationId, userId } = request.params;
      // Members with a role see everyone's teams (as they see every team); guests only their own.
      const membership =
        userId === caller.userId
          ? access.requireOrg(caller.userId, organizationId)
          : access.requireOrg(caller.userId, organizationId, 'read');
      requireMember(organizationId, userId);
      const page = paginate<MemberTeamRow>(
        ctx.db,
        teams.memberTeamsQuery(organizationId, userId, caller.userId, request.query.title),
        request.query,
      );
      return listEnvelope(
        page.rows.map((row) => ({
          team: serializeTeam(row, membership.role, urls),
          member: { role: row.member_role },
        })),
        page.next,
        page.count,
      );
    },
  );
}
