import type { Role } from '../../auth/roles';
import { badRequest, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { TeamQueries, type TeamRow } from '../teams/team-queries';
import { certificateProblem } from './saml-certificate';
import { SAML_METADATA_CONTENT_TYPE, serviceProviderMetadata } from './saml-metadata';
import { SamlQueries, type SamlProviderRow, type SamlProviderValues } from './saml-queries';
import {
  CreateSamlProviderBody,
  ListSamlProvidersQuery,
  OrgParams,
  SamlMetadataParams,
  SamlProviderListSchema,
  SamlProviderParams,
  SamlProviderSchema,
  SsoLoginInfoListSchema,
  UpdateSamlProviderBody,
  type SamlProviderFields,
} from './saml-schema';
import { samlServiceUrls, serializeSamlProvider, serializeSsoLoginInfo } from './saml-serializer';

/** People who sign in through a provider created without a `defaultRole` join as readers. */
const DEFAULT_ROLE: Role = 'read';

/** An empty entity ID or certificate is "not given": stored as NULL, so the provider is pending. */
const orNull = (value: string | undefined | null): string | null => (value ? value : null);

/**
 * SAML providers and the SSO login information built from them.
 *
 * Access: a provider's configuration (certificate, entity IDs, default role) is organization
 * administration, so every SAML provider operation, reads included, takes the admin role, as in
 * the published GitBook app where only admins see the SSO settings. The login information is
 * what anyone signing in needs, so every member of the organization (guests too) may read it.
 */
export function samlRoutes(app: TypedApp, ctx: ServerContext): void {
  const saml = new SamlQueries(ctx.db);
  const teams = new TeamQueries(ctx.db);
  const { access, urls } = ctx;
  const now = () => ctx.clock.now().toISOString();

  const requireProvider = (organizationId: string, providerId: string): SamlProviderRow => {
    const row = saml.get(organizationId, providerId);
    if (!row) throw notFound(`SAML provider ${providerId}`);
    return row;
  };

  /** The default team must be a team of this organization (400 naming the field otherwise). */
  const checkDefaultTeam = (organizationId: string, teamId: string, callerId: string): void => {
    if (!teams.get(organizationId, teamId, callerId)) {
      throw badRequest(
        `body.defaultTeam ${JSON.stringify(teamId)} is not a team of organization ${organizationId}`,
      );
    }
  };

  /** The body's fields checked beyond the schema, merged over `current` (a patch) or defaults. */
  const valuesOf = (
    organizationId: string,
    callerId: string,
    body: SamlProviderFields,
    current: SamlProviderValues,
  ): SamlProviderValues => {
    if (body.certificate) {
      const problem = certificateProblem(body.certificate);
      if (problem) throw badRequest(`body.certificate ${problem}`);
    }
    if (body.defaultTeam !== undefined)
      checkDefaultTeam(organizationId, body.defaultTeam, callerId);
    return {
      label: body.label ?? current.label,
      ssoUrl: body.ssoURL ?? current.ssoUrl,
      entityId: body.entityID !== undefined ? orNull(body.entityID) : current.entityId,
      certificate: body.certificate !== undefined ? orNull(body.certificate) : current.certificate,
      defaultTeamId: body.defaultTeam ?? current.defaultTeamId,
      defaultRole: body.defaultRole !== undefined ? body.defaultRole : current.defaultRole,
    };
  };

  /** Serializes providers, loading each default team once per response. */
  const serializer = (organizationId: string, callerId: string, callerRole: Role | null) => {
    const loaded = new Map<string, TeamRow | undefined>();
    const teamOf = (teamId: string): TeamRow | undefined => {
      if (!loaded.has(teamId)) loaded.set(teamId, teams.get(organizationId, teamId, callerId));
      return loaded.get(teamId);
    };
    return (row: SamlProviderRow) =>
      serializeSamlProvider(
        row,
        row.default_team_id === null ? undefined : teamOf(row.default_team_id),
        callerRole,
        urls,
      );
  };

  app.get(
    '/v1/orgs/:organizationId/saml',
    {
      schema: {
        params: OrgParams,
        querystring: ListSamlProvidersQuery,
        response: { 200: SamlProviderListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'admin');
      const page = paginate<SamlProviderRow>(ctx.db, saml.listQuery(organizationId), request.query);
      const serialize = serializer(organizationId, userId, role);
      return listEnvelope(page.rows.map(serialize), page.next, page.count);
    },
  );

  app.post(
    '/v1/orgs/:organizationId/saml',
    {
      schema: {
        params: OrgParams,
        body: CreateSamlProviderBody,
        response: { 201: SamlProviderSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'admin');
      const values = valuesOf(organizationId, userId, request.body, {
        label: request.body.label,
        ssoUrl: null,
        entityId: null,
        certificate: null,
        defaultTeamId: null,
        defaultRole: DEFAULT_ROLE,
      });
      const id = saml.create(organizationId, values, now());
      const body = serializer(organizationId, userId, role)(requireProvider(organizationId, id));
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        params: SamlProviderParams,
        response: { 200: SamlProviderSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, samlProviderId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'admin');
      const row = requireProvider(organizationId, samlProviderId);
      return serializer(organizationId, userId, role)(row);
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        params: SamlProviderParams,
        body: UpdateSamlProviderBody,
        response: { 200: SamlProviderSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, samlProviderId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'admin');
      const row = requireProvider(organizationId, samlProviderId);
      const values = valuesOf(organizationId, userId, request.body, {
        label: row.label,
        ssoUrl: row.sso_url,
        entityId: row.entity_id,
        certificate: row.certificate,
        defaultTeamId: row.default_team_id,
        defaultRole: row.default_role,
      });
      saml.update(samlProviderId, values, now());
      return serializer(
        organizationId,
        userId,
        role,
      )(requireProvider(organizationId, samlProviderId));
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        params: SamlProviderParams,
        response: { ...noContentResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, samlProviderId } = request.params;
      access.requireOrg(userId, organizationId, 'admin');
      requireProvider(organizationId, samlProviderId);
      saml.delete(samlProviderId);
      return reply.code(204).send(undefined);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/sso',
    { schema: { params: OrgParams, response: { 200: SsoLoginInfoListSchema, ...errorResponses } } },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      access.requireOrg(userId, organizationId);
      // Only providers that can sign someone in: a pending one would lead nowhere.
      return {
        items: saml.activeProviders(organizationId).map((row) => serializeSsoLoginInfo(row, urls)),
      };
    },
  );

  // The provider's `service.entityID`: identity providers fetch it without a token (public,
  // rate-limited per address like file downloads); it says nothing but our own addresses.
  app.get(
    '/sso/saml/:samlProviderId/metadata',
    { config: { public: true }, schema: { params: SamlMetadataParams } },
    async (request, reply) => {
      const { samlProviderId } = request.params;
      if (!saml.byId(samlProviderId)) throw notFound(`SAML provider ${samlProviderId}`);
      return reply
        .type(SAML_METADATA_CONTENT_TYPE)
        .send(serviceProviderMetadata(samlServiceUrls(samlProviderId, urls)));
    },
  );
}
