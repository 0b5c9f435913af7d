/**
 * Which paths of a space folder local change detection looks at. Only Markdown pages and the
 * files of `.gitbook/assets/` are content: everything else an editor, the OS or a tool leaves in
 * the folder (swap files, lock files, `.git`, `.DS_Store`) must never become a page or an upload.
 * The mirror's own atomic-write temp files are skipped too, or every pull would look like an edit.
 */
import { isAtomicWriteTempName } from '../mirror/atomic-write';
import { ASSETS_FOLDER } from '../../shared/gitsync/render-gitsync-layout';

/**
 * Whether a path (relative to the space folder, `/`- or `\`-separated) is ignored. `isDirectory`
 * is the entry's type when known; when it is unknown (a watcher asking before it has stat'ed the
 * path), rules that only apply to files are not applied, so a folder is never skipped by mistake.
 */
export type IgnoreRule = (relativePath: string, isDirectory?: boolean) => boolean;

/** Editor, OS and download leftovers, by file name. */
const TEMP_NAMES: readonly RegExp[] = [
  /\.sw[pox]$/i, // Vim swap files
  /~$/, // Emacs, gedit and Kate backups
  /^\.#/, // Emacs lock files
  /^#.*#$/, // Emacs auto-save files
  /\.tmp$/i,
  /^4913$/, // Vim's probe file when checking that a folder is writable
  /^\.DS_Store$/,
  /^Thumbs\.db$/i,
  /^desktop\.ini$/i,
  /\.crdownload$/i, // Chrome downloads in progress
  /\.part$/i, // Firefox downloads in progress
  /^\.~lock\..*#$/, // LibreOffice locks
];

const GITBOOK_FOLDER = '.gitbook';

/**
 * The ignore rule for a space folder: the built-in rules plus `patterns`, small globs relative to
 * the space folder (`*` and `?` within a name, `**` across folders; a pattern without `/` matches
 * a name at any depth; a trailing `/` matches folders only). A pattern that matches a folder
 * ignores everything inside it.
 */
export function createIgnoreRules(patterns: readonly string[] = []): IgnoreRule {
  const extra = patterns.map(compileGlob).filter((glob) => glob !== undefined);
  return (relativePath, isDirectory) => {
    const path = relativePath
      .replace(/\\/g, '/')
      .replace(/^\.\/+/, '')
      .replace(/\/+$/, '');
    if (path === '' || path === '.') return false;
    const segments = path.split('/');
    if (segments.some((segment) => segment === '..')) return true;
    const name = segments[segments.length - 1] ?? '';
    if (TEMP_NAMES.some((pattern) => pattern.test(name)) || isAtomicWriteTempName(name)) {
      return true;
    }
    const inAssets = path.startsWith(`${ASSETS_FOLDER}/`);
    for (const [i, segment] of segments.entries()) {
      if (!segment.startsWith('.')) continue;
      // `.gitbook` and `.gitbook/assets` lead to the assets; every other hidden entry is ignored.
      const allowed =
        (i === 0 && segment === GITBOOK_FOLDER) ||
        (i === 1 && segments[0] === GITBOOK_FOLDER && segment === 'assets');
      if (!allowed) return true;
    }
    // `.gitbook/` also holds includes, vars.yaml and tags.yaml: GitBook-owned, never pushed.
    if (segments[0] === GITBOOK_FOLDER && !inAssets && path !== GITBOOK_FOLDER) {
      if (path !== ASSETS_FOLDER) return true;
    }
    if (isDirectory === false && !inAssets && !/\.md$/i.test(name)) return true;
    for (const glob of extra) {
      if (glob.matches(segments, isDirectory)) return true;
    }
    return false;
  };
}

interface CompiledGlob {
  matches(segments: readonly string[], isDirectory: boolean | undefined): boolean;
}

function compileGlob(raw: string): CompiledGlob | undefined {
  let pattern = raw.trim().replace(/\\/g, '/');
  if (pattern === '' || pattern.startsWith('#')) return undefined;
  const directoryOnly = pattern.endsWith('/');
  pattern = pattern.replace(/\/+$/, '');
  // A pattern with a `/` inside is anchored at the space folder; one without matches any name.
  const anchored = pattern.includes('/');
  pattern = pattern.replace(/^\/+/, '');
  if (pattern === '') return undefined;
  const regex = new RegExp(`^${globSource(pattern)}$`, 'u');
  return {
    matches(segments, isDirectory) {
      // The path itself, then each folder it is in: ignoring a folder ignores what it holds.
      for (let length = segments.length; length >= 1; length -= 1) {
        const isFolder = length < segments.length || isDirectory === true;
        if (directoryOnly && !isFolder) continue;
        const candidate = anchored
          ? segments.slice(0, length).join('/')
          : (segments[length - 1] ?? '');
        if (regex.test(candidate)) return true;
      }
      return false;
    },
  };
}

/** `*`, `?` and `**` → a regular expression source; everything else is literal. */
function globSource(pattern: string): string {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i] ?? '';
    if (char === '*' && pattern[i + 1] === '*') {
      const slashAfter = pattern[i + 2] === '/';
      const atSegmentStart = i === 0 || pattern[i - 1] === '/';
      if (atSegmentStart && slashAfter) {
        source += '(?:.*/)?'; // `**/`: any number of folders, none included
        i += 2;
      } else if (atSegmentStart && i + 2 === pattern.length && i > 0) {
        source = source.slice(0, -1) + '(?:/.*)?'; // trailing `/**`: the folder and everything in it
        i += 1;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return source;
}
