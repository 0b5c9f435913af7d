/**
 * A Git Sync page's title as its file gives it: `title:` in the frontmatter wins, else the
 * leading `# Heading`. Shared by the engine (which predicts what the server will store) and the
 * server (which reads it from the Markdown it is sent), so the two never disagree.
 */

/**
 * Resolves CommonMark backslash escapes (a backslash before ASCII punctuation), and the numeric
 * references the mirror writes for control characters in titles (`&#x7;`), so they read back as
 * the title they came from.
 */
export function unescapeMarkdown(text: string): string {
  return text
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&#x([0-9A-F]{1,2});/g, (reference, hex: string) => {
      const code = parseInt(hex, 16);
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) ? String.fromCharCode(code) : reference;
    });
}

/** The text of a leading ATX `# Heading` line, escapes resolved and closing hashes removed. */
export function leadingHeading(markdown: string): string | undefined {
  const line = /^ {0,3}#(?:[ \t]+([^\r\n]*?))?(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!line) return undefined;
  const text = unescapeMarkdown(line[1] ?? '').trim();
  return text === '' ? undefined : text;
}
