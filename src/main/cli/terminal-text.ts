/**
 * Makes server-supplied text (space titles, user names, error messages) safe to print on a
 * terminal: control characters, escape sequences included, could otherwise move the cursor,
 * rewrite earlier lines or change the window title. Each one becomes U+FFFD.
 */
export function terminalText(text: string): string {
  let result = '';
  for (const char of text) result += isUnsafe(char.codePointAt(0) ?? 0) ? '\uFFFD' : char;
  return result;
}

/** C0, DEL, C1, and the bidi overrides and isolates that can reorder what the reader sees. */
function isUnsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** Cuts `text` to at most `width` code points, ending with an ellipsis when it was cut. */
export function truncateText(text: string, width: number): string {
  const chars = Array.from(text);
  if (chars.length <= width) return text;
  if (width <= 0) return '';
  return `${chars.slice(0, width - 1).join('')}…`;
}
