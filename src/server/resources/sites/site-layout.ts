import type { SiteDeps } from './site-deps';

export interface LayoutItem {
  kind: 'section' | 'group';
  id: string;
  position: number;
}

/** Sections and groups of one container: a group's sections, or the site's top level. */
export function siblingsIn(deps: SiteDeps, siteId: string, groupId: string | null): LayoutItem[] {
  const sections = deps.structure
    .sections(siteId)
    .filter((section) => section.section_group_id === groupId)
    .map((section) => ({ kind: 'section' as const, id: section.id, position: section.position }));
  const groups =
    groupId === null
      ? deps.structure
          .groups(siteId)
          .map((group) => ({ kind: 'group' as const, id: group.id, position: group.position }))
      : [];
  return [...sections, ...groups].sort((a, b) => a.position - b.position);
}

/**
 * Renumbers a site's sections and groups in reading order: each top-level item, a group
 * followed by its sections. One sequence for the whole site keeps every list (sections by
 * position) in the order a visitor sees, with no ties. `orders` gives the new order of some
 * containers (null: the top level; a group id: its sections); the others keep theirs.
 */
export function layOutSite(
  deps: SiteDeps,
  siteId: string,
  orders: ReadonlyMap<string | null, readonly string[]> = new Map(),
): void {
  const groupIds = new Set(deps.structure.groups(siteId).map((group) => group.id));
  const orderOf = (container: string | null) =>
    orders.get(container) ?? siblingsIn(deps, siteId, container).map((item) => item.id);
  const flat: { kind: 'section' | 'group'; id: string }[] = [];
  for (const id of orderOf(null)) {
    if (!groupIds.has(id)) {
      flat.push({ kind: 'section', id });
      continue;
    }
    flat.push({ kind: 'group', id });
    for (const child of orderOf(id)) flat.push({ kind: 'section', id: child });
  }
  deps.structure.renumber(flat);
}
