import type { Access } from '../../auth/access';
import type { Role } from '../../auth/roles';
import type { Urls } from '../../http/urls';
import { countsOf, serializeSpace } from '../spaces/space-serializer';
import type { SiteRow } from './site-queries';
import { SiteUrls } from './site-urls';
import type { GroupRow, SectionRow, SiteSpaceRow, StructureQueries } from './structure-queries';

export interface SiteViewDeps {
  structure: StructureQueries;
  access: Access;
  urls: Urls;
}

/**
 * A site's structure as one caller sees it: which section and site spaces are the defaults,
 * and each item serialized with its published address. Rows are loaded once per view (a view
 * lives for one request), so a list serializes without a query per item for the defaults.
 */
export class SiteView {
  private sectionRows: SectionRow[] | undefined;
  private siteSpaceRows: SiteSpaceRow[] | undefined;
  private siteSpaceKeys: { ss_id: string; ss_section_id: string | null }[] | undefined;
  private readonly defaults = new Map<string | null, string | undefined>();
  /** The caller's role per space: a site often publishes one space several times. */
  private readonly spaceRoles = new Map<string, Role | null>();
  readonly urls: SiteUrls;

  constructor(
    private readonly deps: SiteViewDeps,
    readonly site: SiteRow,
    private readonly userId: string,
    shareKey?: string,
  ) {
    this.urls = new SiteUrls(deps.urls, site.organization_id, site.id, shareKey);
  }

  sections(): SectionRow[] {
    return (this.sectionRows ??= this.deps.structure.sections(this.site.id));
  }

  allSiteSpaces(): SiteSpaceRow[] {
    return (this.siteSpaceRows ??= this.deps.structure.siteSpaces(this.site.id));
  }

  /** The site spaces of one container (a section, or the root: null), in order. */
  siteSpacesIn(sectionId: string | null): SiteSpaceRow[] {
    return this.allSiteSpaces().filter((row) => row.ss_section_id === sectionId);
  }

  /** The chosen default section while it exists, else the first one. */
  defaultSectionId(): string | undefined {
    const sections = this.sections();
    const chosen = sections.find((section) => section.id === this.site.default_section_id);
    return (chosen ?? sections[0])?.id;
  }

  /** Ids of the site spaces of one container, in order (without loading their spaces). */
  siteSpaceIdsIn(sectionId: string | null): string[] {
    this.siteSpaceKeys ??= this.deps.structure.siteSpaceKeys(this.site.id);
    return this.siteSpaceKeys
      .filter((key) => key.ss_section_id === sectionId)
      .map((key) => key.ss_id);
  }

  /** A container's chosen default site space while it is there, else its first. */
  defaultSiteSpaceIdIn(sectionId: string | null): string | undefined {
    if (this.defaults.has(sectionId)) return this.defaults.get(sectionId);
    const ids = this.siteSpaceIdsIn(sectionId);
    const pointer =
      sectionId === null
        ? this.site.default_site_space_id
        : this.sections().find((section) => section.id === sectionId)?.default_site_space_id;
    const chosen = ids.find((id) => id === pointer) ?? ids[0];
    this.defaults.set(sectionId, chosen);
    return chosen;
  }

  /** Every container's default site space: the root's, and each section's. */
  defaultSiteSpaceIds(): string[] {
    const containers = [null, ...this.sections().map((section) => section.id)];
    return containers
      .map((id) => this.defaultSiteSpaceIdIn(id))
      .filter((id): id is string => id !== undefined);
  }

  siteSpace(row: SiteSpaceRow) {
    const section = this.sections().find((candidate) => candidate.id === row.ss_section_id);
    let role = this.spaceRoles.get(row.id);
    if (role === undefined) {
      role = this.deps.access.roleOnSpace(this.userId, row);
      this.spaceRoles.set(row.id, role);
    }
    return {
      object: 'site-space' as const,
      id: row.ss_id,
      path: row.ss_path,
      ...(row.ss_section_id !== null ? { section: row.ss_section_id } : {}),
      space: serializeSpace(row, role, countsOf(row), this.deps.urls),
      title: row.title,
      default: this.defaultSiteSpaceIdIn(row.ss_section_id) === row.ss_id,
      ...(row.ss_condition !== null ? { condition: row.ss_condition } : {}),
      hasAdvancedCustomizationFeature: false,
      urls: {
        published: section
          ? this.urls.published(section.path, row.ss_path)
          : this.urls.published(row.ss_path),
      },
    };
  }

  section(row: SectionRow) {
    return {
      object: 'site-section' as const,
      id: row.id,
      title: row.title,
      ...(row.description !== null ? { description: row.description } : {}),
      default: this.defaultSectionId() === row.id,
      path: row.path,
      ...(row.condition !== null ? { condition: row.condition } : {}),
      ...(row.section_group_id !== null ? { sectionGroup: row.section_group_id } : {}),
      ...(row.icon !== null ? { icon: row.icon } : {}),
      siteSpaces: this.siteSpacesIn(row.id).map((siteSpace) => this.siteSpace(siteSpace)),
      urls: { published: this.urls.published(row.path) },
    };
  }

  group(row: GroupRow) {
    return {
      object: 'site-section-group' as const,
      id: row.id,
      title: row.title,
      ...(row.icon !== null ? { icon: row.icon } : {}),
      sections: this.sections()
        .filter((section) => section.section_group_id === row.id)
        .map((section) => this.section(section)),
    };
  }

  /**
   * The published structure: sections and groups in their shared order when the site has
   * sections, else its root site spaces (the published API's two forms).
   */
  structure() {
    const sections = this.sections();
    if (sections.length === 0) {
      return {
        type: 'siteSpaces' as const,
        structure: this.siteSpacesIn(null).map((row) => this.siteSpace(row)),
      };
    }
    const groups = this.deps.structure.groups(this.site.id);
    const top = [
      ...sections
        .filter((section) => section.section_group_id === null)
        .map((section) => ({ position: section.position, item: this.section(section) })),
      ...groups.map((group) => ({ position: group.position, item: this.group(group) })),
    ].sort((a, b) => a.position - b.position);
    return { type: 'sections' as const, structure: top.map((entry) => entry.item) };
  }
}
