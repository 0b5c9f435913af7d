import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { sectionGroupRoutes } from './section-group-routes';
import { sectionRoutes } from './section-routes';
import { shareLinkRoutes } from './share-link-routes';
import { siteDeps } from './site-deps';
import { siteProfileRoutes } from './site-profile-routes';
import { siteRoutes } from './site-routes';
import { siteSpaceRoutes } from './site-space-routes';

/** Every docs-site operation: sites, their profile, sections, groups, site spaces, share links. */
export function docsSiteRoutes(app: TypedApp, ctx: ServerContext): void {
  const deps = siteDeps(ctx);
  siteRoutes(app, deps);
  siteProfileRoutes(app, deps);
  sectionRoutes(app, deps);
  sectionGroupRoutes(app, deps);
  siteSpaceRoutes(app, deps);
  shareLinkRoutes(app, deps);
}
