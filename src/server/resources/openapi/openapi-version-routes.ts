import { notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import type { OpenApiQueries, OpenApiSpecRow, OpenApiVersionRow } from './openapi-queries';
import {
  ListQuery,
  OpenApiSpecContentSchema,
  OpenApiSpecRawContentSchema,
  OpenApiSpecVersionListSchema,
  OpenApiSpecVersionSchema,
  SpecParams,
  VersionParams,
} from './openapi-schema';
import { serializeOpenApiVersion, versionContentJson } from './openapi-serializer';

const JSON_TYPE = 'application/json; charset=utf-8';
const BASE = '/v1/orgs/:organizationId/openapi/:specSlug/versions';

/**
 * The versions of a specification (one per content change, newest first), by id or `latest`,
 * and their content: the parsed document (`content`) or the entry file as it came (`content/raw`,
 * the published API's). Anyone who may read the specification may read its versions.
 */
export function openApiVersionRoutes(app: TypedApp, ctx: ServerContext, specs: OpenApiQueries) {
  const { access, urls } = ctx;

  const requireSpec = (userId: string, organizationId: string, slug: string): OpenApiSpecRow => {
    access.requireOrg(userId, organizationId, 'read');
    const spec = specs.get(organizationId, slug);
    if (!spec) throw notFound(`OpenAPI specification ${slug}`);
    return spec;
  };
  /** The version `versionId` names (`latest` included) with its specification; 404 otherwise. */
  const requireVersion = (
    userId: string,
    params: { organizationId: string; specSlug: string; versionId: string },
  ): { spec: OpenApiSpecRow; version: OpenApiVersionRow } => {
    const spec = requireSpec(userId, params.organizationId, params.specSlug);
    const version =
      params.versionId === 'latest'
        ? specs.latest(spec.id)
        : specs.version(spec.id, params.versionId);
    if (!version) {
      throw notFound(
        params.versionId === 'latest'
          ? `A version of OpenAPI specification ${spec.slug}`
          : `OpenAPI specification version ${params.versionId}`,
      );
    }
    return { spec, version };
  };

  app.get(
    BASE,
    {
      schema: {
        params: SpecParams,
        querystring: ListQuery,
        response: { 200: OpenApiSpecVersionListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const spec = requireSpec(callerOf(request).userId, organizationId, specSlug);
      const page = paginate<OpenApiVersionRow>(ctx.db, specs.versionsQuery(spec.id), request.query);
      return listEnvelope(
        page.rows.map((version) => serializeOpenApiVersion(spec, version, urls)),
        page.next,
        page.count,
      );
    },
  );

  // `latest` is a version id like any other here (the static route would only duplicate these).
  app.get(
    `${BASE}/:versionId`,
    {
      schema: {
        params: VersionParams,
        response: { 200: OpenApiSpecVersionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spec, version } = requireVersion(callerOf(request).userId, request.params);
      return serializeOpenApiVersion(spec, version, urls);
    },
  );

  app.get(
    `${BASE}/:versionId/content`,
    {
      schema: {
        params: VersionParams,
        response: { 200: OpenApiSpecContentSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spec, version } = requireVersion(callerOf(request).userId, request.params);
      const body = versionContentJson(spec, version, specs.document(version.id), urls);
      return reply.type(JSON_TYPE).send(body);
    },
  );

  app.get(
    `${BASE}/:versionId/content/raw`,
    {
      schema: {
        params: VersionParams,
        response: { 200: OpenApiSpecRawContentSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { version } = requireVersion(callerOf(request).userId, request.params);
      return { text: specs.text(version.id), format: version.format };
    },
  );
}
