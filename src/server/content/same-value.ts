/**
 * Structural equality of JSON-like values, as they round-trip through a stored revision tree:
 * a key holding `undefined` counts as absent, because JSON.stringify drops it and the stored
 * tree would not tell the two apart.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameValue(item, b[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of Object.keys(left)) {
    if (!sameValue(left[key], right[key])) return false;
  }
  // Keys only on the right are equal only when they hold undefined, checked above for the left.
  for (const key of Object.keys(right)) {
    if (!(key in left) && right[key] !== undefined) return false;
  }
  return true;
}
