const TITLE_MAX = 50;
const COPY_SUFFIX = ' (copy)';

/** "<title> (copy)" within the title limit, cutting the title (by code point), never the suffix. */
export function copyTitle(title: string): string {
  const room = TITLE_MAX - COPY_SUFFIX.length;
  return `${Array.from(title).slice(0, room).join('')}${COPY_SUFFIX}`;
}
