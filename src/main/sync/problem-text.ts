/**
 * A problem's one line: its message, led by the file it concerns unless the message already
 * starts with it. Messages are composed in several layers (the scan, the classifier, the push,
 * the CLI), and each used to prefix the path again ("a.md: a.md: a.md: invalid YAML…").
 */
export function problemText(path: string | null | undefined, message: string): string {
  if (!path || message.startsWith(path)) return message;
  return `${path}: ${message}`;
}
