/**
 * The workspace views: `/app` (the signed-in user's organizations), an organization
 * (`/app/o/<org>`: its collections and the spaces the user can read) and a collection
 * (`/app/c/<collection>`). Access is the API's: 404 outside the user's organizations; guests see
 * only the spaces granted to them and no collection.
 */
import { Type } from '@sinclair/typebox';
import type { TypedApp } from '../http/typed-app';
import { CollectionQueries } from '../resources/collections/collection-queries';
import { collectionRole, requireCollection } from '../resources/collections/collection-access';
import { markup, type SafeHtml } from './safe-html';
import { requireViewer, type ViewDeps } from './view-deps';
import type { NamedRow, ViewSpaceRow } from './view-queries';
import { renderViewPage } from './view-layout';

const Id = Type.String({ minLength: 1, maxLength: 200 });

function linkList(items: readonly SafeHtml[], empty: string): SafeHtml {
  return items.length === 0
    ? markup`<p class="meta">${empty}</p>`
    : markup`<ul>
        ${items}
      </ul>`;
}

function spaceLinks(spaces: readonly ViewSpaceRow[]): SafeHtml {
  const items = spaces.map(
    (space) =>
      markup`<li>
        <a href="/app/s/${space.id}">${space.emoji ? `${space.emoji} ` : ''}${space.title}</a>
      </li>`,
  );
  return linkList(items, 'No space you can read.');
}

function collectionLinks(collections: readonly NamedRow[]): SafeHtml {
  const items = collections.map((c) => markup`<li><a href="/app/c/${c.id}">${c.title}</a></li>`);
  return linkList(items, 'No collection.');
}

export function orgViewRoutes(app: TypedApp, deps: ViewDeps): void {
  const { access } = deps.ctx;
  const collections = new CollectionQueries(deps.ctx.db);
  const readable = (userId: string, spaces: ViewSpaceRow[]) =>
    spaces.filter((space) => access.roleOnSpace(userId, space) !== null);

  app.get('/app', { config: { public: true } }, async (request, reply) => {
    const viewer = requireViewer(deps, request);
    const orgs = deps.views.organizationsOf(viewer.userId);
    const items = orgs.map((org) => markup`<li><a href="/app/o/${org.id}">${org.title}</a></li>`);
    const body = markup`<h1>Your organizations</h1>
      ${linkList(items, 'You belong to no organization.')}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(renderViewPage({ title: 'Organizations', viewer: viewer.name, body }));
  });

  app.get(
    '/app/o/:organizationId',
    { config: { public: true }, schema: { params: Type.Object({ organizationId: Id }) } },
    async (request, reply) => {
      const viewer = requireViewer(deps, request);
      const { organizationId } = request.params;
      const membership = access.requireOrg(viewer.userId, organizationId);
      const org = deps.views.organization(organizationId)!;
      const spaces = readable(viewer.userId, deps.views.organizationSpaces(organizationId));
      const shownCollections =
        collectionRole(membership.role) === null
          ? []
          : deps.views.collections(organizationId).filter((c) => c.parent_id === null);
      const body = markup`<h1>${org.title}</h1>
        <h2>Collections</h2>
        ${collectionLinks(shownCollections)}
        <h2>Spaces</h2>
        ${spaceLinks(spaces)}`;
      const crumbs = [{ label: 'Organizations', href: '/app' }, { label: org.title }];
      return reply
        .type('text/html; charset=utf-8')
        .send(renderViewPage({ title: org.title, viewer: viewer.name, crumbs, body }));
    },
  );

  app.get(
    '/app/c/:collectionId',
    { config: { public: true }, schema: { params: Type.Object({ collectionId: Id }) } },
    async (request, reply) => {
      const viewer = requireViewer(deps, request);
      const { row } = requireCollection(
        access,
        collections,
        viewer.userId,
        request.params.collectionId,
      );
      const org = deps.views.organization(row.organization_id)!;
      const children = deps.views
        .collections(row.organization_id)
        .filter((c) => c.parent_id === row.id);
      const spaces = readable(viewer.userId, deps.views.collectionSpaces(row.id));
      const body = markup`<h1>${row.title}</h1>
        ${row.description ? markup`<p>${row.description}</p>` : ''}
        <h2>Collections</h2>
        ${collectionLinks(children)}
        <h2>Spaces</h2>
        ${spaceLinks(spaces)}`;
      const crumbs = [{ label: org.title, href: `/app/o/${org.id}` }, { label: row.title }];
      return reply
        .type('text/html; charset=utf-8')
        .send(renderViewPage({ title: row.title, viewer: viewer.name, crumbs, body }));
    },
  );
}
