/**
 * `.gitbook.yaml`, the Git Sync configuration of a repository (root, structure, redirects), read
 * the same way by the server's import and configuration endpoint and by the desktop's mirror and
 * `quire import`. Bounded: it is read from uploads and from users' folders.
 */
import { parseFrontmatterYaml, type YamlValue } from './frontmatter-yaml';
import { frontmatterProblemMessage } from './frontmatter-problem';
import { isMapping } from './page-fields';

/** What a repository's `.gitbook.yaml` says about where its docs are. */
export interface GitBookConfig {
  /** Folder of the docs inside the repository, `''` or ending in `/`. */
  root: string;
  readme: string;
  summary: string;
  /** Old path → new path, kept as written. */
  redirects: Record<string, string>;
}

export const GITBOOK_CONFIG_PATH = '.gitbook.yaml';

export const DEFAULT_GITBOOK_CONFIG: GitBookConfig = {
  root: '',
  readme: 'README.md',
  summary: 'SUMMARY.md',
  redirects: {},
};

/** Limits on a `.gitbook.yaml`: real ones hold a few hundred redirects. */
export const GITBOOK_CONFIG_LIMITS = {
  maxBytes: 256 * 1024,
  maxRedirects: 5000,
  maxPathLength: 1024,
} as const;

/** `.gitbook.yaml` → its settings, or a problem naming the key (the import then refuses it). */
export function readGitBookConfig(text: string): GitBookConfig | { problem: string } {
  const limits = GITBOOK_CONFIG_LIMITS;
  if (utf8Length(text) > limits.maxBytes) {
    return { problem: `is larger than ${limits.maxBytes / 1024} KB` };
  }
  const parsed = parseFrontmatterYaml(text, 1);
  if ('problem' in parsed) return { problem: frontmatterProblemMessage(parsed.problem) };
  const { data } = parsed;
  const config: GitBookConfig = { ...DEFAULT_GITBOOK_CONFIG, redirects: {} };
  const root = data['root'];
  if (root !== undefined && root !== null) {
    if (typeof root !== 'string') return { problem: 'root must be a folder path' };
    const clean = cleanFolder(root);
    if (clean === undefined) return { problem: `root "${clip(root)}" leaves the repository` };
    config.root = clean;
  }
  const structure = data['structure'];
  if (structure !== undefined && structure !== null) {
    if (!isMapping(structure)) return { problem: 'structure must be a mapping' };
    for (const key of ['readme', 'summary'] as const) {
      const value = structure[key];
      if (value === undefined || value === null) continue;
      const clean = typeof value === 'string' ? cleanFolder(value)?.replace(/\/$/, '') : undefined;
      if (!clean || !/\.md$/i.test(clean)) {
        return { problem: `structure.${key} must be a Markdown file path inside the root` };
      }
      config[key] = clean;
    }
  }
  const redirects = readRedirects(data['redirects']);
  if ('problem' in redirects) return redirects;
  config.redirects = redirects.redirects;
  return config;
}

function readRedirects(
  value: YamlValue | undefined,
): { redirects: Record<string, string> } | { problem: string } {
  const redirects: Record<string, string> = {};
  if (value === undefined || value === null) return { redirects };
  if (!isMapping(value)) return { problem: 'redirects must be a mapping of old path to new path' };
  const entries = Object.entries(value);
  if (entries.length > GITBOOK_CONFIG_LIMITS.maxRedirects) {
    return { problem: `has more than ${GITBOOK_CONFIG_LIMITS.maxRedirects} redirects` };
  }
  for (const [from, to] of entries) {
    const name = `redirects.${clip(from)}`;
    if (typeof to !== 'string') return { problem: `${name} must be a path` };
    const longest = Math.max(from.length, to.length);
    if (from === '' || longest > GITBOOK_CONFIG_LIMITS.maxPathLength) {
      return { problem: `${name} must be a path of 1 to 1024 characters` };
    }
    if (to.startsWith('/') || to.split('/').includes('..')) {
      return { problem: `${name} must name a file inside the root` };
    }
    Object.defineProperty(redirects, from, { value: to, enumerable: true, writable: true });
  }
  return { redirects };
}

/** `./docs/` → `docs/`; `.`, `./` and `` → ``; undefined when it climbs out or is absolute. */
function cleanFolder(path: string): string | undefined {
  if (path.length > GITBOOK_CONFIG_LIMITS.maxPathLength) return undefined;
  if (path.startsWith('/') || path.includes('\\') || /^[a-z]:/i.test(path)) return undefined;
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return undefined;
  return segments.length === 0 ? '' : `${segments.join('/')}/`;
}

/** UTF-8 byte length (shared code has no Buffer or TextEncoder types); a long text stops early. */
function utf8Length(text: string): number {
  if (text.length > GITBOOK_CONFIG_LIMITS.maxBytes) return text.length;
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
