import type { SummaryEntry } from './parse-summary';
import { encodePath, README_PATH } from '../../shared/gitsync/render-gitsync-layout';
import { isPagePath } from './space-file-paths';

/**
 * The tree GitBook infers without SUMMARY.md, as SUMMARY.md entries: README.md first, then by
 * name (code-point order); folders nest, a folder's README.md being the folder's page.
 */
export function inferSummaryEntries(listed: ReadonlySet<string>): SummaryEntry[] {
  const entries: SummaryEntry[] = [];
  if (listed.has(README_PATH)) entries.push(inferredPage(README_PATH, []));
  entries.push(...inferFolder('', listed));
  return entries;
}

function inferFolder(folder: string, listed: ReadonlySet<string>): SummaryEntry[] {
  const prefix = folder === '' ? '' : `${folder}/`;
  const names = new Set<string>();
  for (const path of listed) {
    if (!path.startsWith(prefix) || !isPagePath(path)) continue;
    names.add(path.slice(prefix.length).split('/')[0] ?? '');
  }
  const entries: SummaryEntry[] = [];
  for (const name of [...names].sort()) {
    const path = prefix + name;
    if (listed.has(path)) {
      if (name !== README_PATH) entries.push(inferredPage(path, []));
      continue;
    }
    const children = inferFolder(path, listed);
    const readme = `${path}/${README_PATH}`;
    // A folder without a README.md has no page of its own: its pages join this level.
    if (listed.has(readme)) entries.push(inferredPage(readme, children));
    else entries.push(...children);
  }
  return entries;
}

function inferredPage(path: string, children: SummaryEntry[]): SummaryEntry {
  return { kind: 'link', title: '', destination: encodePath(path), children };
}
