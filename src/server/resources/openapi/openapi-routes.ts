import { conflict, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { OpenApiProcessor } from './openapi-processor';
import { OpenApiQueries, type OpenApiSpecRow, type SpecSource } from './openapi-queries';
import {
  CreateSpecBody,
  ListQuery,
  OpenApiSpecListSchema,
  OpenApiSpecSchema,
  OrgParams,
  PutSpecBody,
  PutSpecParams,
  SpecParams,
} from './openapi-schema';
import { serializeOpenApiSpec } from './openapi-serializer';
import { refusedSourceUrl } from './source-address';
import { openApiVersionRoutes } from './openapi-version-routes';

const processors = new WeakMap<ServerContext, OpenApiProcessor>();

/** The server's OpenAPI processor (tests adjust its settings and stand-ins for the network). */
export function openApiProcessorFor(ctx: ServerContext): OpenApiProcessor {
  const processor = processors.get(ctx);
  if (!processor) throw new Error('The OpenAPI routes are not registered on this server');
  return processor;
}

/**
 * OpenAPI specifications of an organization, by slug. Access: members with a role read them
 * (guests get 403); creating, replacing and deleting take the `create` role (the organization's
 * `createOpenAPISpec` permission). A write answers at once with `processingState: pending`; the
 * processor fetches and parses the source afterwards.
 */
export function openApiRoutes(app: TypedApp, ctx: ServerContext): void {
  const specs = new OpenApiQueries(ctx.db);
  const processor = new OpenApiProcessor(ctx, (error) =>
    app.log.error({ err: error }, 'OpenAPI processing failed unexpectedly'),
  );
  processors.set(ctx, processor);
  app.addHook('onReady', (done) => {
    processor.start();
    done();
  });
  app.addHook('preClose', (done) => {
    void processor.stop().then(() => done());
  });

  const { access, urls } = ctx;
  const now = () => ctx.clock.now().toISOString();
  const requireSpec = (organizationId: string, slug: string): OpenApiSpecRow => {
    const spec = specs.get(organizationId, slug);
    if (!spec) throw notFound(`OpenAPI specification ${slug}`);
    return spec;
  };
  /** Saves the source and queues processing in one transaction; processing starts after. */
  const save = (organizationId: string, slug: string, source: SpecSource, create: boolean) => {
    const refused =
      'url' in source
        ? refusedSourceUrl(source.url, {
            allowPrivate: ctx.config.allowPrivateUrls,
            allowedAddresses: processor.settings.allowedAddresses,
          })
        : undefined;
    if (refused) throw refused;
    const id = ctx.db.transaction(() => {
      const existing = specs.get(organizationId, slug);
      if (existing && create) throw conflict(`OpenAPI specification ${slug} already exists`);
      const specId = existing?.id ?? specs.create(organizationId, slug, source, now());
      if (existing) specs.setSource(specId, source, now());
      processor.enqueue(specId);
      return specId;
    })();
    return specs.getById(id)!;
  };

  app.get(
    '/v1/orgs/:organizationId/openapi',
    {
      schema: {
        params: OrgParams,
        querystring: ListQuery,
        response: { 200: OpenApiSpecListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const { role } = access.requireOrg(callerOf(request).userId, organizationId, 'read');
      const page = paginate<OpenApiSpecRow>(ctx.db, specs.listQuery(organizationId), request.query);
      return listEnvelope(
        page.rows.map((row) => serializeOpenApiSpec(row, role, urls)),
        page.next,
        page.count,
      );
    },
  );

  app.post(
    '/v1/orgs/:organizationId/openapi',
    {
      schema: {
        params: OrgParams,
        body: CreateSpecBody,
        response: { 201: OpenApiSpecSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const { role } = access.requireOrg(callerOf(request).userId, organizationId, 'create');
      const { slug, source } = request.body;
      const body = serializeOpenApiSpec(save(organizationId, slug, source, true), role, urls);
      processor.wake();
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/openapi/:specSlug',
    { schema: { params: SpecParams, response: { 200: OpenApiSpecSchema, ...errorResponses } } },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const { role } = access.requireOrg(callerOf(request).userId, organizationId, 'read');
      return serializeOpenApiSpec(requireSpec(organizationId, specSlug), role, urls);
    },
  );

  app.put(
    '/v1/orgs/:organizationId/openapi/:specSlug',
    {
      schema: {
        params: PutSpecParams,
        body: PutSpecBody,
        response: { 200: OpenApiSpecSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const { role } = access.requireOrg(callerOf(request).userId, organizationId, 'create');
      const spec = save(organizationId, specSlug, request.body.source, false);
      const body = serializeOpenApiSpec(spec, role, urls);
      processor.wake();
      return body;
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/openapi/:specSlug',
    { schema: { params: SpecParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      access.requireOrg(callerOf(request).userId, organizationId, 'create');
      // Its versions and queued jobs go with it; a job in flight then records nothing.
      specs.delete(requireSpec(organizationId, specSlug).id);
      return reply.code(205).send(undefined);
    },
  );

  openApiVersionRoutes(app, ctx, specs);
}
