/**
 * Published sites (`urls.published` of sites, sections, site spaces and share links): the
 * site-space's live content with the site's sections and spaces as navigation, read-only. Who
 * may read is the API's rule for published content (resources/sites/site-access.ts): members,
 * anyone for a public or unlisted site, anyone holding an active share link's key. A visitor who
 * came through a share link keeps its key in a cookie scoped to the site, so the site's own
 * links (which carry no query) keep working.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../http/api-error';
import type { TypedApp } from '../http/typed-app';
import { readSite, type SiteAccessDeps } from '../resources/sites/site-access';
import { SiteQueries, type SiteRow } from '../resources/sites/site-queries';
import { ShareLinkQueries } from '../resources/sites/share-link-queries';
import { StructureQueries } from '../resources/sites/structure-queries';
import { findDocumentPage, renderContentView } from './content-view';
import { resolvePublishedPath, type PublishedStructure } from './published-site-path';
import { markup, type SafeHtml } from './safe-html';
import { pageBodyHtml } from './space-view-routes';
import type { ViewDeps } from './view-deps';
import { SESSION_COOKIE } from './view-sessions';
import { renderViewPage } from './view-layout';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Params = Type.Object({ orgId: Id, siteId: Id, '*': Type.Optional(Type.String()) });
const Query = Type.Object({ shareKey: Type.Optional(Type.String({ maxLength: 200 })) });
const SHARE_COOKIE = 'quire_share';

function structureOf(structure: StructureQueries, site: SiteRow): PublishedStructure {
  return {
    sections: structure.sections(site.id).map((s) => ({
      id: s.id,
      path: s.path,
      defaultSiteSpaceId: s.default_site_space_id,
    })),
    siteSpaces: structure.siteSpaces(site.id).map((ss) => ({
      id: ss.ss_id,
      sectionId: ss.ss_section_id,
      path: ss.ss_path,
      spaceId: ss.id,
    })),
    defaultSectionId: site.default_section_id,
    defaultSiteSpaceId: site.default_site_space_id,
  };
}

/** Links to every section and site space of the site, the current ones marked. */
function siteNav(base: string, structure: PublishedStructure, current: string): SafeHtml {
  const sectionPath = (id: string | null) =>
    structure.sections.find((section) => section.id === id)?.path;
  const items = structure.siteSpaces.map((ss) => {
    const segments = [sectionPath(ss.sectionId), ss.path].filter((s) => s !== undefined);
    const href = `${base}/${segments.join('/')}/`;
    const mark = ss.id === current ? markup` aria-current="page"` : markup``;
    return markup`<li><a href="${href}" ${mark}>${segments.join(' / ')}</a></li>`;
  });
  return items.length < 2
    ? markup``
    : markup`<nav class="crumbs" aria-label="Spaces of this site"><ol>${items}</ol></nav>`;
}

interface ShownContent {
  title: string;
  /** The published address of the site (or space) shown. */
  base: string;
  linkBase: string;
  spaceId: string;
  pagePath: string;
  nav?: SafeHtml;
}

/** A space published on its own: public or unlisted, or readable by the signed-in member. */
function publishedSpace(deps: ViewDeps, userId: string, orgId: string, spaceId: string) {
  const space = deps.views.space(spaceId);
  const row = deps.content.space(spaceId);
  if (!space || !row || row.organization_id !== orgId || row.deleted_at !== null) {
    throw notFound(`Site or space ${spaceId}`);
  }
  if (row.visibility === 'public' || row.visibility === 'unlisted') return space;
  if (userId === '') throw notFound(`Site or space ${spaceId}`);
  deps.ctx.access.requireSpace(userId, spaceId, 'read');
  return space;
}

export function publishedViewRoutes(app: TypedApp, deps: ViewDeps): void {
  const { db } = deps.ctx;
  const access: SiteAccessDeps = {
    access: deps.ctx.access,
    sites: new SiteQueries(db),
    shareLinks: new ShareLinkQueries(db),
  };
  const structure = new StructureQueries(db);
  const route = { config: { public: true }, schema: { params: Params, querystring: Query } };
  const serve = async (
    request: FastifyRequest<{ Params: typeof Params.static; Querystring: typeof Query.static }>,
    reply: FastifyReply,
  ) => {
    const { orgId, siteId } = request.params;
    const base = `/published/${orgId}/${siteId}`;
    const shareKey = request.query.shareKey ?? request.cookies[SHARE_COOKIE];
    const userId = deps.sessions.userOf(request.cookies[SESSION_COOKIE]) ?? '';
    const segments = (request.params['*'] ?? '').split('/').filter((s) => s !== '');
    if (!access.sites.get(orgId, siteId)) {
      // A public or unlisted space's own `urls.published` (no site around it).
      const space = publishedSpace(deps, userId, orgId, siteId);
      return sendContent(reply, {
        title: space.title,
        base,
        linkBase: base,
        spaceId: space.id,
        pagePath: segments.join('/'),
      });
    }
    const { site } = readSite(access, userId, orgId, siteId, shareKey);
    const shape = structureOf(structure, site);
    const target = resolvePublishedPath(shape, segments);
    if (!target) throw notFound(`Content of site ${siteId}`);
    if (request.query.shareKey !== undefined) {
      void reply.setCookie(SHARE_COOKIE, request.query.shareKey, {
        path: `${base}/`,
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
      });
    }
    return sendContent(reply, {
      title: site.title,
      base,
      linkBase: [base, ...target.baseSegments].join('/'),
      spaceId: target.siteSpace.spaceId,
      pagePath: target.pagePath,
      nav: siteNav(base, shape, target.siteSpace.id),
    });
  };

  /** One space's live content as a published page: its tree, the page at `pagePath`. */
  const sendContent = async (reply: FastifyReply, shown: ShownContent) => {
    const source = deps.content.space(shown.spaceId);
    const revision = source ? deps.content.tree(source.revision_id) : undefined;
    if (!source || source.deleted_at !== null || !revision) {
      throw notFound(`Content at ${shown.base}`);
    }
    const { linkBase } = shown;
    const page = findDocumentPage(revision.pages, shown.pagePath);
    if (!page && shown.pagePath !== '') throw notFound(`Page at path "${shown.pagePath}"`);
    const bodyHtml = page
      ? await pageBodyHtml(deps, revision, page, { linkBase, source: { spaceId: source.id } })
      : '';
    const view = { pages: revision.pages, linkBase, page, bodyHtml, banner: shown.nav ?? markup`` };
    return reply.type('text/html; charset=utf-8').send(
      renderViewPage({
        title: page ? `${page.title} · ${shown.title}` : shown.title,
        crumbs: [
          { label: shown.title, href: `${shown.base}/` },
          ...(page ? [{ label: page.title }] : []),
        ],
        wide: true,
        body: renderContentView(view, `Pages of ${shown.title}`),
      }),
    );
  };
  app.get('/published/:orgId/:siteId', route, serve);
  app.get('/published/:orgId/:siteId/*', route, serve);
}
