import type { Access } from '../../auth/access';
import type { Db } from '../../db/open-database';
import type { Urls } from '../../http/urls';
import type { ServerContext } from '../../server-context';
import { ShareLinkQueries } from './share-link-queries';
import type { SiteAccessDeps } from './site-access';
import { SiteQueries, type SiteRow } from './site-queries';
import { SiteView } from './site-view';
import { StructureQueries } from './structure-queries';
import { StructureService } from './structure-service';

/** What every site route module uses, built once when the routes are registered. */
export interface SiteDeps extends SiteAccessDeps {
  db: Db;
  urls: Urls;
  access: Access;
  structure: StructureQueries;
  service: StructureService;
  now(): string;
  /** The site's structure as `userId` (holding `shareKey`, if any) sees it. */
  view(site: SiteRow, userId: string, shareKey?: string): SiteView;
}

export function siteDeps(ctx: ServerContext): SiteDeps {
  const { db, urls, access } = ctx;
  const structure = new StructureQueries(db);
  const now = () => ctx.clock.now().toISOString();
  return {
    db,
    urls,
    access,
    sites: new SiteQueries(db),
    shareLinks: new ShareLinkQueries(db),
    structure,
    service: new StructureService(db, structure, access),
    now,
    view: (site, userId, shareKey) =>
      new SiteView({ structure, access, urls }, site, userId, shareKey),
  };
}
