import type { Access } from '../../auth/access';
import type { Db } from '../../db/open-database';
import { badRequest } from '../../http/api-error';
import { newId } from '../../ids';
import { SpaceQueries } from '../spaces/space-queries';
import type { SpaceRow } from '../spaces/space-serializer';
import type { SiteRow } from './site-queries';
import { pathFromTitle, uniquePath } from './site-paths';
import type { StructureQueries } from './structure-queries';

/** The fewest characters a section title has (the spec's limit). */
const MIN_SECTION_TITLE = 2;

/**
 * Changes to a site's structure that several operations share: adding a space (site creation,
 * new sections, new site spaces) and giving a site its first section. Callers run these in a
 * transaction.
 */
export class StructureService {
  private readonly spaces: SpaceQueries;

  constructor(
    db: Db,
    private readonly structure: StructureQueries,
    private readonly access: Access,
  ) {
    this.spaces = new SpaceQueries(db);
  }

  /** The space `spaceId`, when it is a live space of the organization the caller can read. */
  readableSpace(field: string, spaceId: string, organizationId: string, userId: string): SpaceRow {
    const space = this.spaces.get(spaceId);
    const readable =
      space !== undefined &&
      space.organization_id === organizationId &&
      space.deleted_at === null &&
      this.access.roleOnSpace(userId, space) !== null;
    if (!readable) {
      throw badRequest(
        `${field} must be a space of organization ${organizationId} that you can read; ${spaceId} is not`,
      );
    }
    return space;
  }

  /** Publishes `space` at the end of a container, at a free path from its title. */
  addSiteSpace(siteId: string, sectionId: string | null, space: SpaceRow, at: string): string {
    const id = newId();
    const taken = this.structure.siteSpacePaths(siteId, sectionId);
    this.structure.insertSiteSpace({
      id,
      site_id: siteId,
      section_id: sectionId,
      space_id: space.id,
      path: uniquePath(pathFromTitle(space.title, 'space'), taken),
      position: this.structure.siteSpaceEndPosition(siteId, sectionId),
      created_at: at,
    });
    return id;
  }

  /**
   * A new section holding `space`. A site's first section first takes in the site spaces already
   * at its root (as a section of its own, titled after the site), so nothing published is lost
   * when a site gains sections.
   */
  addSection(site: SiteRow, title: string | undefined, space: SpaceRow, at: string): string {
    if (this.structure.sections(site.id).length === 0) {
      if (this.structure.siteSpaceIdsIn(site.id, null).length > 0) {
        const first = this.insertSection(site.id, site.title, at);
        this.structure.moveRootSiteSpaces(site.id, first);
      }
    }
    const sectionTitle =
      title ?? (space.title.length >= MIN_SECTION_TITLE ? space.title : `${space.title} section`);
    const id = this.insertSection(site.id, sectionTitle, at);
    this.addSiteSpace(site.id, id, space, at);
    return id;
  }

  private insertSection(siteId: string, title: string, at: string): string {
    const id = newId();
    const taken = new Set(this.structure.sections(siteId).map((section) => section.path));
    this.structure.insertSection({
      id,
      site_id: siteId,
      section_group_id: null,
      title,
      description: null,
      path: uniquePath(pathFromTitle(title, 'section'), taken),
      condition: null,
      icon: null,
      default_site_space_id: null,
      position: this.structure.endPosition(siteId),
      created_at: at,
    });
    return id;
  }
}
