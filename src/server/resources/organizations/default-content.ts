import type { Access } from '../../auth/access';
import { badRequest } from '../../http/api-error';
import type { SiteQueries } from '../sites/site-queries';
import type { SpaceQueries } from '../spaces/space-queries';

/** What an organization opens on: a docs site (the spec's pointer) or a space. */
export type DefaultContent = { type: 'site'; site: string } | { type: 'space'; space: string };

/** The body's `defaultContent` once the schema has checked its types (see organization-schema). */
export interface DefaultContentInput {
  type: 'site' | 'space';
  site?: string;
  space?: string;
}

const FIELD = 'body.defaultContent';

/**
 * Checks that `input` points at content of `organizationId` that `userId` can read, and returns
 * the pointer to store (only the id its type names). Anything else is a 400 naming the field:
 * storing a dangling pointer would send every member to a page that does not exist.
 */
export function checkDefaultContent(
  input: DefaultContentInput,
  organizationId: string,
  userId: string,
  deps: { spaces: SpaceQueries; sites: SiteQueries; access: Access },
): DefaultContent {
  const other = input.type === 'site' ? 'space' : 'site';
  if (input[other] !== undefined) {
    throw badRequest(`${FIELD}.${other} must not be given with type "${input.type}"`);
  }
  if (input.type === 'site') {
    if (input.site === undefined) throw badRequest(`${FIELD}.site is required with type "site"`);
    // Any member with a role reads the organization's sites (see requireSite).
    const readable =
      deps.sites.get(organizationId, input.site) !== undefined &&
      deps.access.requireOrg(userId, organizationId).role !== null;
    if (!readable) {
      throw badRequest(
        `${FIELD}.site must be a site of organization ${organizationId} that you can read; ` +
          `${input.site} is not`,
      );
    }
    return { type: 'site', site: input.site };
  }
  if (input.space === undefined) throw badRequest(`${FIELD}.space is required with type "space"`);
  const space = deps.spaces.get(input.space);
  const readable =
    space !== undefined &&
    space.organization_id === organizationId &&
    space.deleted_at === null &&
    deps.access.roleOnSpace(userId, space) !== null;
  if (!readable) {
    throw badRequest(
      `${FIELD}.space must be a space of organization ${organizationId} that you can read; ` +
        `${input.space} is not`,
    );
  }
  return { type: 'space', space: input.space };
}
