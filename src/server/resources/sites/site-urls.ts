import type { Urls } from '../../http/urls';

/**
 * Published addresses of a site, stable for its life (ids, not titles):
 *   site        /published/<organizationId>/<siteId>/
 *   section     /published/<organizationId>/<siteId>/<sectionPath>/
 *   site space  /published/<organizationId>/<siteId>/[<sectionPath>/]<siteSpacePath>/
 * A share link's address is the site's with `?shareKey=<secret>`; a visitor who came through
 * one keeps the key on every address handed back. The HTML view serves these paths.
 */
export class SiteUrls {
  constructor(
    private readonly urls: Urls,
    private readonly organizationId: string,
    private readonly siteId: string,
    private readonly shareKey?: string,
  ) {}

  /** `segments` are section and site-space paths (URL-safe by their schema). */
  published(...segments: string[]): string {
    const path = [this.organizationId, this.siteId, ...segments].join('/');
    const query = this.shareKey ? `?shareKey=${encodeURIComponent(this.shareKey)}` : '';
    return `${this.urls.published(`/${path}/`)}${query}`;
  }

  location(): string {
    return this.urls.api(`/orgs/${this.organizationId}/sites/${this.siteId}`);
  }

  app(): string {
    return this.urls.app(`/o/${this.organizationId}/sites/${this.siteId}`);
  }

  /** The same site's addresses as a visitor holding `shareKey` sees them. */
  withShareKey(shareKey: string): SiteUrls {
    return new SiteUrls(this.urls, this.organizationId, this.siteId, shareKey);
  }
}
