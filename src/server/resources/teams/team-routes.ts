import type { FastifyRequest } from 'fastify';
import type { Membership } from '../../auth/access';
import { badRequest, forbidden, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { ListSchema, errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { serializeMember } from '../members/member-serializer';
import { TeamQueries, type TeamMemberRow, type TeamRow } from './team-queries';
import {
  AddTeamMemberBody,
  CreateTeamBody,
  ListTeamMembersQuery,
  ListTeamsQuery,
  OrgParams,
  TeamMemberParams,
  TeamMemberSchema,
  TeamParams,
  TeamSchema,
  UpdateTeamBody,
  UpdateTeamMembersBody,
  type TeamMemberRole,
} from './team-schema';
import { serializeTeam, teamPermissions } from './team-serializer';

/** Every field of these bodies is optional, so a request sent without any body means `{}`. */
async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

interface TeamAccess {
  membership: Membership;
  team: TeamRow;
}

export function teamRoutes(app: TypedApp, ctx: ServerContext): void {
  const teams = new TeamQueries(ctx.db);
  const { access, urls } = ctx;

  /**
   * The team as the caller sees it: 404 unless the caller belongs to the organization and the
   * team is one of its teams; 403 when the caller may not `view` / `manage` (its members) it.
   */
  const requireTeam = (
    userId: string,
    organizationId: string,
    teamId: string,
    needed: 'view' | 'manage',
  ): TeamAccess => {
    const membership = access.requireOrg(userId, organizationId);
    const team = teams.get(organizationId, teamId, userId);
    if (!team) throw notFound(`Team ${teamId}`);
    const permissions = teamPermissions(team, membership.role);
    if (needed === 'view' && !permissions.view) {
      throw forbidden(
        `Guests see only the teams they belong to; team ${teamId} is not one of them`,
      );
    }
    if (needed === 'manage' && !permissions.admin) {
      throw forbidden(
        `Only organization admins and owners of team ${teamId} may change its members`,
      );
    }
    return { membership, team };
  };

  /** The organization member named by an id or e-mail, or a 400 naming the offending entry. */
  const resolve = (organizationId: string, ref: string, field: string): string => {
    const userId = teams.resolveMember(organizationId, ref);
    if (!userId) {
      throw badRequest(
        `${field} ${JSON.stringify(ref)} is not a member of organization ${organizationId}`,
      );
    }
    return userId;
  };

  const reload = (organizationId: string, teamId: string, callerId: string): TeamRow => {
    const team = teams.get(organizationId, teamId, callerId);
    if (!team) throw notFound(`Team ${teamId}`);
    return team;
  };

  app.get(
    '/v1/orgs/:organizationId/teams',
    {
      schema: {
        params: OrgParams,
        querystring: ListTeamsQuery,
        response: { 200: ListSchema(TeamSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const membership = access.requireOrg(userId, organizationId, 'read');
      const { owner, title } = request.query;
      // Spec: `owner` keeps the teams that member can manage — all of them for an admin.
      const ownerMembership = owner === undefined ? null : access.membership(owner, organizationId);
      const page = paginate<TeamRow>(
        ctx.db,
        teams.listQuery(organizationId, userId, {
          title,
          manager: owner,
          managerIsAdmin: ownerMembership?.role === 'admin',
        }),
        request.query,
      );
      return listEnvelope(
        page.rows.map((row) => serializeTeam(row, membership.role, urls)),
        page.next,
        page.count,
      );
    },
  );

  app.put(
    '/v1/orgs/:organizationId/teams',
    {
      schema: {
        params: OrgParams,
        body: CreateTeamBody,
        response: { 201: TeamSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const membership = access.requireOrg(userId, organizationId, 'admin');
      const { title, members = [] } = request.body;
      const memberIds = new Set<string>();
      members.forEach((id, index) => {
        if (!teams.isMember(organizationId, id)) {
          throw badRequest(
            `body.members[${index}] ${JSON.stringify(id)} is not a member of organization ${organizationId}`,
          );
        }
        memberIds.add(id);
      });
      const teamId = teams.create(
        organizationId,
        title,
        [...memberIds],
        ctx.clock.now().toISOString(),
      );
      return reply
        .code(201)
        .send(serializeTeam(reload(organizationId, teamId, userId), membership.role, urls));
    },
  );

  app.get(
    '/v1/orgs/:organizationId/teams/:teamId',
    { schema: { params: TeamParams, response: { 200: TeamSchema, ...errorResponses } } },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, teamId } = request.params;
      const { membership, team } = requireTeam(userId, organizationId, teamId, 'view');
      return serializeTeam(team, membership.role, urls);
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        params: TeamParams,
        body: UpdateTeamBody,
        response: { 200: TeamSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, teamId } = request.params;
      const membership = access.requireOrg(userId, organizationId, 'admin');
      reload(organizationId, teamId, userId);
      teams.rename(teamId, request.body.title);
      return serializeTeam(reload(organizationId, teamId, userId), membership.role, urls);
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/teams/:teamId',
    { schema: { params: TeamParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, teamId } = request.params;
      access.requireOrg(userId, organizationId, 'admin');
      reload(organizationId, teamId, userId);
      teams.delete(teamId);
      return reply.code(204).send(undefined);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        params: TeamParams,
        querystring: ListTeamMembersQuery,
        response: { 200: ListSchema(TeamMemberSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, teamId } = request.params;
      requireTeam(userId, organizationId, teamId, 'view');
      const page = paginate<TeamMemberRow>(
        ctx.db,
        teams.teamMembersQuery(organizationId, teamId),
        request.query,
      );
      return listEnvelope(
        page.rows.map((row) => ({
          organization: serializeMember(row, urls),
          team: { role: row.team_role },
          permissions: { view: true },
        })),
        page.next,
        page.count,
      );
    },
  );

  app.put(
    '/v1/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        params: TeamParams,
        body: UpdateTeamMembersBody,
        response: { ...noContentResponses, ...errorResponses },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, teamId } = request.params;
      requireTeam(userId, organizationId, teamId, 'manage');
      const { add = [], remove = [], memberships = {} } = request.body;
      // Resolve everything before writing anything: one bad entry changes nothing.
      const upserts = new Map<string, TeamMemberRole | undefined>();
      add.forEach((ref, index) =>
        upserts.set(resolve(organizationId, ref, `body.add[${index}]`), undefined),
      );
      for (const [ref, { role }] of Object.entries(memberships)) {
        upserts.set(resolve(organizationId, ref, 'body.memberships'), role);
      }
      const removals = new Set(
        remove.map((ref, index) => resolve(organizationId, ref, `body.remove[${index}]`)),
      );
      // A user named in both add and remove ends up removed (the spec's rule).
      for (const id of removals) upserts.delete(id);
      teams.applyBulk(teamId, upserts, removals, ctx.clock.now().toISOString());
      return reply.code(204).send(undefined);
    },
  );

  app.put(
    '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        params: TeamMemberParams,
        body: AddTeamMemberBody,
        response: { ...noContentResponses, ...errorResponses },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { organizationId, teamId, userId } = request.params;
      requireTeam(caller.userId, organizationId, teamId, 'manage');
      if (!teams.isMember(organizationId, userId)) {
        throw notFound(`Member ${userId} of organization ${organizationId}`);
      }
      teams.upsertMember(teamId, userId, request.body.role, ctx.clock.now().toISOString());
      return reply.code(204).send(undefined);
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        params: TeamMemberParams,
        response: { ...noContentResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { organizationId, teamId, userId } = request.params;
      requireTeam(caller.userId, organizationId, teamId, 'manage');
      if (!teams.removeMember(teamId, userId)) {
        throw notFound(`Member ${userId} of team ${teamId}`);
      }
      return reply.code(204).send(undefined);
    },
  );
}
