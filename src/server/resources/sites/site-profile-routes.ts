import { Type } from '@sinclair/typebox';
import { callerOf } from '../../http/authenticate';
import { errorResponses } from '../../http/common-schemas';
import type { TypedApp } from '../../http/typed-app';
import { checkAdaptiveSchema, defaultAdaptiveSchema, type JsonObject } from './adaptive-schema';
import { readSite, requireSite } from './site-access';
import type { SiteDeps } from './site-deps';
import type { SiteRow } from './site-queries';
import { SiteParams, SiteSchema } from './site-schema';
import { serializeSite } from './site-serializer';
import { PublishedQuery } from './structure-schema';

/**
 * A JSON object whose inside the handler checks (see checkAdaptiveSchema); `additionalProperties`
 * says so to the response serializer too, which would otherwise write `{}`.
 */
const FreeObject = Type.Unsafe<JsonObject>({ type: 'object', additionalProperties: true });

const AdaptiveSchemaSchema = Type.Object({
  object: Type.Literal('site-adaptive-schema'),
  jsonSchema: FreeObject,
  updatedAt: Type.String(),
});
const PutAdaptiveSchemaBody = Type.Object({ jsonSchema: FreeObject });

/** Structure items are sections, groups or site spaces; their schemas are in structure-schema. */
const PublishedSiteSchema = Type.Object({
  object: Type.Literal('published-content-site'),
  site: SiteSchema,
  structure: Type.Object({
    type: Type.String(),
    structure: Type.Array(Type.Unsafe<unknown>({})),
  }),
  customizations: Type.Object({
    site: FreeObject,
    siteSpaces: FreeObject,
  }),
  scripts: Type.Array(Type.Unsafe<unknown>({})),
});

const color = (hex: string) => ({ light: hex, dark: hex });

/** The customization every site has until one is set (this server sets none): GitBook's look. */
function defaultCustomization(site: SiteRow) {
  return {
    title: site.title,
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB'),
      infoColor: color('#787878'),
      successColor: color('#00C950'),
      warningColor: color('#FE9A00'),
      dangerColor: color('#FB2C36'),
      tint: { color: color('#346DDB') },
      corners: 'rounded',
      links: 'default',
      font: 'Inter',
      icons: 'regular',
      search: 'subtle',
      sidebar: { background: 'default', list: 'default' },
    },
    internationalization: { locale: 'en' },
    favicon: {},
  };
}

/** A site's adaptive schema (read: members; replace: admins) and its published profile. */
export function siteProfileRoutes(app: TypedApp, deps: SiteDeps): void {
  const BASE = '/v1/orgs/:organizationId/sites/:siteId';

  const adaptive = (site: SiteRow) => ({
    object: 'site-adaptive-schema' as const,
    jsonSchema: site.adaptive_schema
      ? (JSON.parse(site.adaptive_schema) as JsonObject)
      : defaultAdaptiveSchema(),
    updatedAt: site.adaptive_schema_updated_at ?? site.created_at,
  });

  app.get(
    `${BASE}/adaptive-schema`,
    { schema: { params: SiteParams, response: { 200: AdaptiveSchemaSchema, ...errorResponses } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return adaptive(requireSite(deps, callerOf(request).userId, organizationId, siteId).site);
    },
  );

  app.put(
    `${BASE}/adaptive-schema`,
    {
      schema: {
        params: SiteParams,
        body: PutAdaptiveSchemaBody,
        response: { 200: AdaptiveSchemaSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId } = request.params;
      requireSite(deps, userId, organizationId, siteId, 'admin');
      const jsonSchema = checkAdaptiveSchema(request.body.jsonSchema);
      deps.sites.setAdaptiveSchema(siteId, JSON.stringify(jsonSchema), deps.now());
      return adaptive(requireSite(deps, userId, organizationId, siteId).site);
    },
  );

  app.get(
    `${BASE}/published`,
    {
      schema: {
        params: SiteParams,
        querystring: PublishedQuery,
        response: { 200: PublishedSiteSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId } = request.params;
      const { shareKey } = request.query;
      const { site, role } = readSite(deps, userId, organizationId, siteId, shareKey);
      const view = deps.view(site, userId, shareKey);
      return {
        object: 'published-content-site' as const,
        site: serializeSite(site, role, deps.urls, shareKey),
        structure: view.structure(),
        customizations: { site: defaultCustomization(site), siteSpaces: {} },
        scripts: [],
      };
    },
  );
}
