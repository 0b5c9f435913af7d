import { parseFrontmatterYaml } from '../../shared/gitsync/frontmatter-yaml';
import { frontmatterProblemMessage } from '../../shared/gitsync/frontmatter-problem';
import { isMapping } from '../../shared/gitsync/page-fields';

/** What a repository's `.gitbook.yaml` says about where its docs are. */
export interface GitBookConfig {
  /** Folder of the docs inside the repository, `''` or ending in `/`. */
  root: string;
  readme: string;
  summary: string;
  /** Old path → new path, kept as written. */
  redirects: Record<string, string>;
}

export const DEFAULT_GITBOOK_CONFIG: GitBookConfig = {
  root: '',
  readme: 'README.md',
  summary: 'SUMMARY.md',
  redirects: {},
};

/** `.gitbook.yaml` → its settings, or a problem naming the key (the import then refuses it). */
export function readGitBookConfig(text: string): GitBookConfig | { problem: string } {
  const parsed = parseFrontmatterYaml(text, 1);
  if ('problem' in parsed) return { problem: frontmatterProblemMessage(parsed.problem) };
  const { data } = parsed;
  const config: GitBookConfig = { ...DEFAULT_GITBOOK_CONFIG, redirects: {} };
  const root = data['root'];
  if (root !== undefined && root !== null) {
    if (typeof root !== 'string') return { problem: 'root must be a folder path' };
    const clean = cleanFolder(root);
    if (clean === undefined) return { problem: `root "${root}" leaves the repository` };
    config.root = clean;
  }
  const structure = data['structure'];
  if (structure !== undefined && structure !== null) {
    if (!isMapping(structure)) return { problem: 'structure must be a mapping' };
    for (const key of ['readme', 'summary'] as const) {
      const value = structure[key];
      if (value === undefined || value === null) continue;
      const clean = typeof value === 'string' ? cleanFolder(value)?.replace(/\/$/, '') : undefined;
      if (!clean) return { problem: `structure.${key} must be a file path inside the root` };
      config[key] = clean;
    }
  }
  const redirects = data['redirects'];
  if (redirects !== undefined && redirects !== null) {
    if (!isMapping(redirects)) {
      return { problem: 'redirects must be a mapping of old path to new path' };
    }
    for (const [from, to] of Object.entries(redirects)) {
      if (typeof to !== 'string') return { problem: `redirects.${from} must be a path` };
      config.redirects[from] = to;
    }
  }
  return config;
}

/** `./docs/` → `docs/`; `.`, `./` and `` → ``; undefined when it climbs out. */
function cleanFolder(path: string): string | undefined {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..') || path.startsWith('/')) return undefined;
  return segments.length === 0 ? '' : `${segments.join('/')}/`;
}
