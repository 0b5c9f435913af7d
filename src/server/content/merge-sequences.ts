/**
 * Three-way merge of an ordered list of ids: the children of one parent, or a revision's files.
 *
 * `members` is the set of ids the merged list must hold (which ids survive is decided by the
 * caller); this function only decides their order, by this rule:
 * - A side "changed the order" when the ids it shares with the base are not in base order.
 * - The primary order is theirs when only theirs changed the order, otherwise ours (so when both
 *   reordered, ours wins: a reorder is never a conflict).
 * - Ids the primary side lacks (inserted or moved in by the other side) are placed after their
 *   nearest preceding neighbour in the other side's list that the primary also holds — after any
 *   primary-only ids that follow that neighbour — or at the front when no such neighbour exists.
 * - Members in neither list (cannot happen for a consistent caller) are appended in `members`
 *   order so nothing is ever lost.
 * Runs in O(n): one pass per list, no repeated splicing.
 */
export function mergeSequences(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
  members: ReadonlySet<string>,
): string[] {
  const theirsLeads = orderChanged(base, theirs) && !orderChanged(base, ours);
  const primary = unique((theirsLeads ? theirs : ours).filter((id) => members.has(id)));
  const secondary = unique((theirsLeads ? ours : theirs).filter((id) => members.has(id)));
  const inPrimary = new Set(primary);
  const inSecondary = new Set(secondary);

  const START = Symbol('start');
  const after = new Map<string | typeof START, string[]>();
  let anchor: string | typeof START = START;
  for (const id of secondary) {
    if (inPrimary.has(id)) {
      anchor = id;
      continue;
    }
    const list = after.get(anchor);
    if (list) list.push(id);
    else after.set(anchor, [id]);
  }

  const result: string[] = [];
  let pending = after.get(START) ?? [];
  for (const id of primary) {
    if (inSecondary.has(id)) {
      result.push(...pending);
      pending = after.get(id) ?? [];
    }
    result.push(id);
  }
  result.push(...pending);

  if (result.length < members.size) {
    const placed = new Set(result);
    for (const id of members) if (!placed.has(id)) result.push(id);
  }
  return result;
}

/** True when the ids `side` shares with `base` are not in base order. */
export function orderChanged(base: readonly string[], side: readonly string[]): boolean {
  const position = new Map<string, number>();
  base.forEach((id, index) => position.set(id, index));
  let last = -1;
  for (const id of side) {
    const at = position.get(id);
    if (at === undefined) continue;
    if (at < last) return true;
    last = at;
  }
  return false;
}

function unique(ids: string[]): string[] {
  return ids.length === new Set(ids).size ? ids : [...new Set(ids)];
}
