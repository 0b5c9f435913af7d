import { gitInfoRoutes } from '../gitsync-import/git-info-routes';
import { importArchiveRoutes } from '../gitsync-import/import-archive-routes';
import type { TypedApp } from '../http/typed-app';
import type { ServerContext } from '../server-context';
import { changeRequestRoutes } from './change-requests/change-request-routes';
import { collectionRoutes } from './collections/collection-routes';
import { commentRoutes } from './comments/comment-routes';
import { changeRequestContentRoutes } from './content/change-request-content-routes';
import { spaceContentRoutes } from './content/space-content-routes';
import { customFieldRoutes } from './custom-fields/custom-field-routes';
import { homeRoutes } from './home/home-routes';
import { linkRoutes } from './links/link-routes';
import { memberRoutes } from './members/member-routes';
import { organizationRoutes } from './organizations/organization-routes';
import { samlRoutes } from './saml/saml-routes';
import { searchRoutes } from './search/search-routes';
import { spaceRoutes } from './spaces/space-routes';
import { teamRoutes } from './teams/team-routes';
import { translationRoutes } from './translations/translation-routes';
import { userRoutes } from './users/user-routes';
import { jwksRoutes } from './well-known/jwks-routes';

/** Every resource's routes, in one place so the API surface is easy to review. */
export function registerResourceRoutes(app: TypedApp, ctx: ServerContext): void {
  userRoutes(app, ctx);
  organizationRoutes(app, ctx);
  memberRoutes(app, ctx);
  teamRoutes(app, ctx);
  samlRoutes(app, ctx);
  translationRoutes(app, ctx);
  collectionRoutes(app, ctx);
  spaceRoutes(app, ctx);
  customFieldRoutes(app, ctx);
  spaceContentRoutes(app, ctx);
  changeRequestRoutes(app, ctx);
  changeRequestContentRoutes(app, ctx);
  importArchiveRoutes(app, ctx);
  gitInfoRoutes(app, ctx);
  commentRoutes(app, ctx);
  linkRoutes(app, ctx);
  searchRoutes(app, ctx);
  jwksRoutes(app, ctx);
  homeRoutes(app, ctx);
}
