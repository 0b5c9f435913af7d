import type { GitBookAPI } from '@gitbook/api';
import type { TestServer } from './start-test-server';
import { TOKENS } from './test-fixture';

/**
 * Typed calls to the docs-site operations through the published client. @gitbook/api 0.202.0
 * types some bodies more narrowly than the spec (`spaces: "empty"`, a section's title of
 * 64 characters), so bodies and answers are cast at this one boundary; what goes on the wire
 * is the client's own request.
 */
export const ORG = 'o-acme';
export const SITES = `/v1/orgs/${ORG}/sites`;

export interface SiteJson {
  object: 'site';
  id: string;
  type: string;
  title: string;
  visibility: string;
  published: boolean;
  siteSpaces: number;
  createdAt: string;
  basename?: string;
  proxy?: { origin: string; target: string };
  adaptiveContent: { enabled: boolean };
  permissions: Record<string, boolean>;
  urls: { location: string; app: string; published?: string };
}
export interface SiteSpaceJson {
  object: 'site-space';
  id: string;
  path: string;
  section?: string;
  space: { object: 'space'; id: string; title: string };
  title: string;
  default: boolean;
  condition?: string;
  urls: { published?: string };
}
export interface SectionJson {
  object: 'site-section';
  id: string;
  title: string;
  description?: string;
  default: boolean;
  path: string;
  condition?: string;
  sectionGroup?: string;
  icon?: string;
  siteSpaces: SiteSpaceJson[];
  urls: { published?: string };
}
export interface GroupJson {
  object: 'site-section-group';
  id: string;
  title: string;
  icon?: string;
  sections: SectionJson[];
}
export interface ShareLinkJson {
  object: 'share-link';
  id: string;
  createdAt: string;
  name: string;
  active: boolean;
  urls: { published: string };
}
export interface ListJson<T> {
  items: T[];
  next?: { page: string };
  count: number;
}

type Orgs = GitBookAPI['orgs'];
type Arg<K extends keyof Orgs, N extends number> = Parameters<Orgs[K]>[N];
const cast = <T>(value: unknown) => value as T;

/** The operations, bound to one test server. */
export function siteCalls(t: TestServer) {
  const orgs = (token: string): Orgs => t.client(token).orgs;
  return {
    orgs,
    async createSite(body: Record<string, unknown> = {}, token: string = TOKENS.ada) {
      const response = await orgs(token).createSite(ORG, cast<Arg<'createSite', 1>>(body));
      return {
        status: response.status,
        location: response.headers.get('location'),
        data: cast<SiteJson>(response.data),
      };
    },
    async getSite(id: string, token: string = TOKENS.ada) {
      return cast<SiteJson>((await orgs(token).getSiteById(ORG, id)).data);
    },
    async updateSite(id: string, body: Record<string, unknown>, token: string = TOKENS.ada) {
      return cast<SiteJson>(
        (await orgs(token).updateSiteById(ORG, id, cast<Arg<'updateSiteById', 2>>(body))).data,
      );
    },
    async listSites(query: Record<string, unknown> = {}, token: string = TOKENS.ada) {
      return cast<ListJson<SiteJson>>(
        (await orgs(token).listSites(ORG, cast<Arg<'listSites', 1>>(query))).data,
      );
    },
    async addSection(siteId: string, body: Record<string, unknown>, token: string = TOKENS.ada) {
      const response = await orgs(token).addSectionToSite(
        ORG,
        siteId,
        cast<Arg<'addSectionToSite', 2>>(body),
      );
      return cast<SectionJson>(response.data);
    },
    async addSiteSpace(siteId: string, body: Record<string, unknown>, token: string = TOKENS.ada) {
      const response = await orgs(token).addSpaceToSite(
        ORG,
        siteId,
        cast<Arg<'addSpaceToSite', 2>>(body),
      );
      return cast<SiteSpaceJson>(response.data);
    },
    async listSiteSpaces(
      siteId: string,
      query: Record<string, unknown> = {},
      token: string = TOKENS.ada,
    ) {
      const response = await orgs(token).listSiteSpaces(
        ORG,
        siteId,
        cast<Arg<'listSiteSpaces', 2>>(query),
      );
      return cast<ListJson<SiteSpaceJson>>(response.data);
    },
    async listSections(
      siteId: string,
      query: Record<string, unknown> = {},
      token: string = TOKENS.ada,
    ) {
      const response = await orgs(token).listSiteSections(
        ORG,
        siteId,
        cast<Arg<'listSiteSections', 2>>(query),
      );
      return cast<ListJson<SectionJson>>(response.data);
    },
    async createShareLink(siteId: string, name: string, token: string = TOKENS.ada) {
      const response = await orgs(token).createSiteShareLink(ORG, siteId, { name });
      return cast<ShareLinkJson>(response.data);
    },
  };
}
