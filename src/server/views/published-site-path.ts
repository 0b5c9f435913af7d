/**
 * Which part of a published site an address names. Published addresses are
 * `/published/<org>/<site>/[<sectionPath>/][<siteSpacePath>/][<page path>]` (see
 * resources/sites/site-urls.ts): a section and a site space are picked by their path when the
 * next segment is one, else the defaults, and what is left is the page's path in that space.
 */
export interface PublishedStructure {
  sections: readonly { id: string; path: string; defaultSiteSpaceId: string | null }[];
  siteSpaces: readonly { id: string; sectionId: string | null; path: string; spaceId: string }[];
  defaultSectionId: string | null;
  defaultSiteSpaceId: string | null;
}

export interface PublishedTarget {
  sectionId: string | null;
  siteSpace: PublishedStructure['siteSpaces'][number];
  /** The site-space's own address segments (section path, site-space path), as handed out. */
  baseSegments: string[];
  pagePath: string;
}

export function resolvePublishedPath(
  structure: PublishedStructure,
  segments: readonly string[],
): PublishedTarget | undefined {
  let rest = [...segments];
  let sectionId: string | null = null;
  const base: string[] = [];
  if (structure.sections.length > 0) {
    const named = structure.sections.find((section) => section.path === rest[0]);
    const section =
      named ??
      structure.sections.find((s) => s.id === structure.defaultSectionId) ??
      structure.sections[0]!;
    if (named) {
      rest = rest.slice(1);
      base.push(section.path);
    }
    sectionId = section.id;
  }
  const inSection = structure.siteSpaces.filter((ss) => ss.sectionId === sectionId);
  if (inSection.length === 0) return undefined;
  const named = inSection.find((ss) => ss.path === rest[0]);
  const defaultId =
    structure.sections.find((s) => s.id === sectionId)?.defaultSiteSpaceId ??
    structure.defaultSiteSpaceId;
  const siteSpace = named ?? inSection.find((ss) => ss.id === defaultId) ?? inSection[0]!;
  if (named) {
    rest = rest.slice(1);
    base.push(siteSpace.path);
  }
  return { sectionId, siteSpace, baseSegments: base, pagePath: rest.join('/') };
}
