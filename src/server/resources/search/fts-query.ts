/**
 * Characters the `unicode61` tokenizer keeps inside tokens (letters, numbers, marks, private use);
 * everything else separates words, as it does in the index.
 */
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** More words than this add nothing to ranking and only make the query slower. */
export const MAX_QUERY_TERMS = 32;

/**
 * Turns what a user typed into an FTS5 MATCH expression that cannot be a syntax error: only the
 * words are kept, each one quoted (so `AND`, `NEAR(`, `*`, `"` and column names are plain words),
 * and all must match. The last word also matches as a prefix, so a search typed halfway still
 * finds the page. Null when the query has no word at all.
 */
export function ftsMatchExpression(query: string): string | null {
  const words = [...new Set(query.normalize('NFKC').match(WORD) ?? [])].slice(0, MAX_QUERY_TERMS);
  if (words.length === 0) return null;
  return words
    .map((word, i) => {
      const quoted = `"${word.replace(/"/g, '""')}"`;
      return i === words.length - 1 ? `${quoted}*` : quoted;
    })
    .join(' ');
}
