/** Schemes handed to the OS: a web page in the browser, a mail in the mail client. Nothing else. */
const EXTERNAL_PROTOCOLS = new Set(['https:', 'mailto:']);

/**
 * The URL to give shell.openExternal, or undefined when it must not be opened: only a URL that
 * parses, with an https: or mailto: scheme (a file:, smb: or custom-scheme URL can run programs).
 */
export function safeExternalUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!EXTERNAL_PROTOCOLS.has(parsed.protocol)) return undefined;
  if (parsed.protocol === 'https:' && parsed.hostname === '') return undefined;
  if (parsed.username !== '' || parsed.password !== '') return undefined;
  return parsed.href;
}
