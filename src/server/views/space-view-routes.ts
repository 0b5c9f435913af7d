/**
 * The content views: a space (`/app/s/<space>`, its pages under it), one of its revisions
 * (`…/~/revisions/<id>`) and a change request (`…/~/changes/<number>`: the change request and
 * its diff; its pages under it). Access is the API's: the content reader's sources answer 404 for
 * what the user cannot see.
 */
import { Type } from '@sinclair/typebox';
import { fileDownloadUrl } from '../content/page-serializer';
import type { RevisionTree, StoredPage } from '../content/revision-tree';
import { notFound } from '../http/api-error';
import type { TypedApp } from '../http/typed-app';
import type { ContentSource } from '../resources/content/content-reader';
import { changeRequestDiff } from './change-request-diff';
import { changeRequestTitle, renderChangeRequest } from './change-request-view';
import { findDocumentPage, renderContentView } from './content-view';
import { markup, type SafeHtml } from './safe-html';
import { viewHrefs } from './view-links';
import { requireViewer, type ViewDeps, type Viewer } from './view-deps';
import { renderViewPage, type Crumb } from './view-layout';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const SpaceParams = Type.Object({ spaceId: Id, '*': Type.Optional(Type.String()) });
const RevisionParams = Type.Object({
  spaceId: Id,
  revisionId: Id,
  '*': Type.Optional(Type.String()),
});
const ChangeParams = Type.Object({
  spaceId: Id,
  number: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }),
  '*': Type.Optional(Type.String()),
});

interface ContentPageInput {
  viewer: Viewer;
  source: ContentSource;
  linkBase: string;
  path: string;
  crumbs: Crumb[];
  banner?: SafeHtml;
}

/** Org › space crumbs of a space the viewer can read (the source was resolved already). */
function spaceCrumbs(deps: ViewDeps, spaceId: string): Crumb[] {
  const space = deps.views.space(spaceId);
  if (!space) throw notFound(`Space ${spaceId}`);
  const org = deps.views.organization(space.organization_id);
  return [
    { label: org?.title ?? space.organization_id, href: `/app/o/${space.organization_id}` },
    { label: `${space.emoji ? `${space.emoji} ` : ''}${space.title}`, href: `/app/s/${space.id}` },
  ];
}

/** A page's body as sanitised HTML, its links and images pointed into the views. */
export async function pageBodyHtml(
  deps: ViewDeps,
  tree: RevisionTree,
  page: StoredPage,
  input: { linkBase: string; source: Pick<ContentSource, 'spaceId'> },
): Promise<string> {
  if (!page.body) return '';
  const markdown = deps.content.body(page.body) ?? '';
  const item = { key: page.body, markdown, label: `page ${page.id}` };
  const links = (await deps.ctx.markdown.links([item])).get(page.body) ?? [];
  const hrefs = viewHrefs(links, {
    tree,
    pageId: page.id,
    linkBase: input.linkBase,
    fileHref: (file) => fileDownloadUrl(file, deps.ctx.urls, input.source.spaceId, deps.signer),
  });
  return deps.pageHtml.render({ body: page.body, markdown, hrefs });
}

async function contentPage(deps: ViewDeps, input: ContentPageInput): Promise<string> {
  const tree = deps.content.tree(input.source.revision.id);
  if (!tree) throw notFound(`Revision ${input.source.revision.id}`);
  const page = findDocumentPage(tree.pages, input.path);
  if (!page && input.path.replace(/^\/+|\/+$/g, '') !== '') {
    throw notFound(`Page at path "${input.path}"`);
  }
  const bodyHtml = page ? await pageBodyHtml(deps, tree, page, input) : '';
  const view = { pages: tree.pages, linkBase: input.linkBase, page, bodyHtml };
  const crumbs = page ? [...input.crumbs, { label: page.title }] : input.crumbs;
  return renderViewPage({
    title: page?.title ?? crumbs.at(-1)?.label ?? 'Space',
    viewer: input.viewer.name,
    crumbs,
    wide: true,
    body: renderContentView(
      input.banner ? { ...view, banner: input.banner } : view,
      'Pages of this space',
    ),
  });
}

export function spaceViewRoutes(app: TypedApp, deps: ViewDeps): void {
  const { reader } = deps;
  const spacePage = { config: { public: true }, schema: { params: SpaceParams } };
  for (const path of ['/app/s/:spaceId', '/app/s/:spaceId/*']) {
    app.get(path, spacePage, async (request, reply) => {
      const viewer = requireViewer(deps, request);
      const { spaceId } = request.params;
      const source = reader.spaceSource(viewer.userId, spaceId);
      const body = await contentPage(deps, {
        viewer,
        source,
        linkBase: `/app/s/${spaceId}`,
        path: request.params['*'] ?? '',
        crumbs: spaceCrumbs(deps, spaceId),
      });
      return reply.type('text/html; charset=utf-8').send(body);
    });
  }

  const revisionPage = { config: { public: true }, schema: { params: RevisionParams } };
  for (const path of [
    '/app/s/:spaceId/~/revisions/:revisionId',
    '/app/s/:spaceId/~/revisions/:revisionId/*',
  ]) {
    app.get(path, revisionPage, async (request, reply) => {
      const viewer = requireViewer(deps, request);
      const { spaceId, revisionId } = request.params;
      const source = reader.revisionSource(viewer.userId, spaceId, revisionId);
      const linkBase = `/app/s/${spaceId}/~/revisions/${revisionId}`;
      const body = await contentPage(deps, {
        viewer,
        source,
        linkBase,
        path: request.params['*'] ?? '',
        crumbs: [
          ...spaceCrumbs(deps, spaceId),
          { label: `Revision ${revisionId}`, href: linkBase },
        ],
        banner: markup`<p class="meta">
          Revision ${revisionId} of ${source.revision.created_at}.
          <a href="/app/s/${spaceId}">See the current content</a>.
        </p>`,
      });
      return reply.type('text/html; charset=utf-8').send(body);
    });
  }

  const changePage = { config: { public: true }, schema: { params: ChangeParams } };
  app.get('/app/s/:spaceId/~/changes/:number', changePage, async (request, reply) => {
    const viewer = requireViewer(deps, request);
    const { spaceId, number } = request.params;
    reader.changeRequestSource(viewer.userId, spaceId, number);
    const row = deps.changeRequests.find(spaceId, number)!;
    const baseId = row.revision_merged_ancestor ?? row.revision_initial;
    const empty = { pages: [], files: [] };
    const diff = await changeRequestDiff(
      deps.content.tree(baseId) ?? empty,
      deps.content.tree(row.revision_id) ?? empty,
      deps.content,
      deps.ctx.cpu,
    );
    const linkBase = `/app/s/${spaceId}/~/changes/${row.number}`;
    const title = changeRequestTitle(row);
    const page = renderViewPage({
      title,
      viewer: viewer.name,
      crumbs: [...spaceCrumbs(deps, spaceId), { label: title }],
      body: renderChangeRequest({
        row,
        diff,
        linkBase,
        authorName: deps.views.userName(row.created_by),
      }),
    });
    return reply.type('text/html; charset=utf-8').send(page);
  });

  app.get('/app/s/:spaceId/~/changes/:number/*', changePage, async (request, reply) => {
    const viewer = requireViewer(deps, request);
    const { spaceId, number } = request.params;
    const source = reader.changeRequestSource(viewer.userId, spaceId, number);
    const row = deps.changeRequests.find(spaceId, number)!;
    const linkBase = `/app/s/${spaceId}/~/changes/${row.number}`;
    const title = changeRequestTitle(row);
    const body = await contentPage(deps, {
      viewer,
      source,
      linkBase,
      path: request.params['*'] ?? '',
      crumbs: [...spaceCrumbs(deps, spaceId), { label: title, href: linkBase }],
      banner: markup`<p class="meta">
        The content of change request <a href="${linkBase}">${title}</a> (${row.status}).
      </p>`,
    });
    return reply.type('text/html; charset=utf-8').send(body);
  });
}
