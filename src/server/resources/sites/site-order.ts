import { badRequest } from '../../http/api-error';

export interface PlaceInput {
  before?: string | undefined;
  after?: string | undefined;
}

/**
 * The order of `ids` once `moved` is placed before/after a sibling (neither: at the end, as
 * the published API does). A pointer must name another item of the same list, and with both
 * pointers the two items must be adjacent; else a 400 naming `body.position.<field>`.
 * `where` words the list for those messages ("section abc", "the site root").
 */
export function placeAmong(
  ids: readonly string[],
  moved: string,
  position: PlaceInput | undefined,
  where: string,
): string[] {
  const list = ids.filter((id) => id !== moved);
  const indexOf = (id: string, field: 'before' | 'after'): number => {
    if (id === moved)
      throw badRequest(`body.position.${field} cannot point at the item being moved`);
    const index = list.indexOf(id);
    if (index < 0) throw badRequest(`body.position.${field} names ${id}, which is not in ${where}`);
    return index;
  };
  const before = position?.before !== undefined ? indexOf(position.before, 'before') : undefined;
  const after = position?.after !== undefined ? indexOf(position.after, 'after') : undefined;
  if (before !== undefined && after !== undefined && after + 1 !== before) {
    throw badRequest('body.position.after and body.position.before must be adjacent items');
  }
  const at = before ?? (after !== undefined ? after + 1 : list.length);
  return [...list.slice(0, at), moved, ...list.slice(at)];
}
