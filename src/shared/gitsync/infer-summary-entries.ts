import type { SummaryEntry } from './parse-summary-lines';

/**
 * The tree Git Sync infers without a SUMMARY.md, as SUMMARY.md entries (titles left empty: the
 * reader takes each page's from its first heading, else its file name): the first page
 * (`readme`, README.md by default) first, then names in code-point order; folders nest, a
 * folder's README.md being the folder's page, and a folder without one lends its pages to its
 * parent. Paths are relative to the docs' root; `summary` and `.gitbook/` hold no pages.
 */
export function inferSummaryEntries<Computed = never>(
  listed: ReadonlySet<string>,
  names: { readme?: string; summary?: string } = {},
): SummaryEntry<Computed>[] {
  const readme = names.readme ?? README;
  const isPage = (path: string) =>
    /\.md$/i.test(path) &&
    path !== (names.summary ?? 'SUMMARY.md') &&
    !path.startsWith('.gitbook/');
  const entries: SummaryEntry<Computed>[] = [];
  if (listed.has(readme)) entries.push(inferredPage(readme, []));
  entries.push(...inferFolder<Computed>('', listed, isPage, readme));
  return entries;
}

const README = 'README.md';

function inferFolder<Computed>(
  folder: string,
  listed: ReadonlySet<string>,
  isPage: (path: string) => boolean,
  rootReadme: string,
): SummaryEntry<Computed>[] {
  const prefix = folder === '' ? '' : `${folder}/`;
  const names = new Set<string>();
  for (const path of listed) {
    if (!path.startsWith(prefix) || !isPage(path)) continue;
    names.add(path.slice(prefix.length).split('/')[0] ?? '');
  }
  const entries: SummaryEntry<Computed>[] = [];
  for (const name of [...names].sort()) {
    const path = prefix + name;
    if (listed.has(path)) {
      if (path !== rootReadme && (folder === '' || name !== README)) {
        entries.push(inferredPage(path, []));
      }
      continue;
    }
    const children = inferFolder<Computed>(path, listed, isPage, rootReadme);
    const readme = `${path}/${README}`;
    if (listed.has(readme)) entries.push(inferredPage(readme, children));
    else entries.push(...children);
  }
  return entries;
}

function inferredPage<Computed>(
  path: string,
  children: SummaryEntry<Computed>[],
): SummaryEntry<Computed> {
  return { kind: 'link', title: '', destination: encodePath(path), children };
}

/** `%`, `#` and `?` escaped, so the destination reads back as the path. */
function encodePath(path: string): string {
  return path.replace(/[%#?]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
