/**
 * The `urls.app` of an organization's docs sites and OpenAPI specifications: a page saying what
 * each is (a site's links to its published address, where members read it signed in).
 */
import { Type } from '@sinclair/typebox';
import { prepareCached } from '../db/prepare-cached';
import { notFound } from '../http/api-error';
import type { TypedApp } from '../http/typed-app';
import { SiteQueries } from '../resources/sites/site-queries';
import { markup } from './safe-html';
import { requireViewer, type ViewDeps } from './view-deps';
import { renderViewPage } from './view-layout';

const Id = Type.String({ minLength: 1, maxLength: 200 });

interface SpecRow {
  slug: string;
  processing_state: string;
  last_error_code: string | null;
  last_processed_at: string | null;
  versions: number;
}

export function orgResourceViewRoutes(app: TypedApp, deps: ViewDeps): void {
  const { db, access } = deps.ctx;
  const sites = new SiteQueries(db);

  app.get(
    '/app/o/:organizationId/sites/:siteId',
    {
      config: { public: true },
      schema: { params: Type.Object({ organizationId: Id, siteId: Id }) },
    },
    async (request, reply) => {
      const viewer = requireViewer(deps, request);
      const { organizationId, siteId } = request.params;
      access.requireOrg(viewer.userId, organizationId, 'read');
      const site = sites.get(organizationId, siteId);
      if (!site) throw notFound(`Site ${siteId}`);
      const org = deps.views.organization(organizationId)!;
      const published = `/published/${organizationId}/${siteId}/`;
      const body = markup`<h1>${site.title}</h1>
        <dl>
          <dt>Visibility</dt><dd>${site.visibility}</dd>
          <dt>Published at</dt><dd><a href="${published}">${published}</a></dd>
        </dl>`;
      const crumbs = [
        { label: org.title, href: `/app/o/${organizationId}` },
        { label: site.title },
      ];
      return reply
        .type('text/html; charset=utf-8')
        .send(renderViewPage({ title: site.title, viewer: viewer.name, crumbs, body }));
    },
  );

  app.get(
    '/app/o/:organizationId/openapi/:slug',
    {
      config: { public: true },
      schema: { params: Type.Object({ organizationId: Id, slug: Id }) },
    },
    async (request, reply) => {
      const viewer = requireViewer(deps, request);
      const { organizationId, slug } = request.params;
      access.requireOrg(viewer.userId, organizationId, 'read');
      const spec = prepareCached<[string, string], SpecRow>(
        db,
        `SELECT s.slug, s.processing_state, s.last_error_code, s.last_processed_at,
           (SELECT COUNT(*) FROM openapi_spec_versions v WHERE v.spec_id = s.id) AS versions
         FROM openapi_specs s WHERE s.organization_id = ? AND s.slug = ?`,
      ).get(organizationId, slug);
      if (!spec) throw notFound(`OpenAPI specification ${slug}`);
      const org = deps.views.organization(organizationId)!;
      const body = markup`<h1>OpenAPI specification ${spec.slug}</h1>
        <dl>
          <dt>Processing</dt><dd>${spec.processing_state}</dd>
          <dt>Versions</dt><dd>${String(spec.versions)}</dd>
          <dt>Last processed</dt><dd>${spec.last_processed_at ?? 'never'}</dd>
          ${spec.last_error_code ? markup`<dt>Last error</dt><dd>${spec.last_error_code}</dd>` : ''}
        </dl>
        <p>Its versions and their content are read through the API
          (<code>/v1/orgs/${organizationId}/openapi/${spec.slug}/versions</code>).</p>`;
      const crumbs = [{ label: org.title, href: `/app/o/${organizationId}` }, { label: slug }];
      return reply
        .type('text/html; charset=utf-8')
        .send(renderViewPage({ title: spec.slug, viewer: viewer.name, crumbs, body }));
    },
  );
}
