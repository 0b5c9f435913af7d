import { posix } from 'node:path';
import { parseSummary, type SummaryEntry } from '../../mirror/parse-summary';
import type { LocalProblem } from '../local-problem';
import type { CachedPage } from './cached-tree';
import type { ClassifyContext } from './classify-context';
import type { ClassifyResult } from './classify-result';
import type { FolderOwners } from './folder-owners';
import type { Key } from './page-key';

/** Where an edited SUMMARY.md places the pages it lists. */
export interface SummaryPlan {
  /** Listed pages (and matched groups and links) → their parent in SUMMARY.md. */
  parent: Map<Key, string | null>;
  /** Parent → its listed children, in SUMMARY.md order. */
  order: Map<string | null, Key[]>;
  /** Listed pages and groups → the title SUMMARY.md gives them. */
  titles: Map<Key, string>;
}

export interface SummaryPlacement {
  summary: ClassifyResult['summary'];
  /** Set when an edited SUMMARY.md was read. */
  plan: SummaryPlan | undefined;
}

/**
 * Phase 5: an edited SUMMARY.md's nesting and order, which win for the pages it lists (Git Sync's
 * rule: SUMMARY.md is the tree). One that cannot be parsed is reported and changes nothing.
 */
export function readSummaryPlacement(ctx: ClassifyContext & FolderOwners): SummaryPlacement {
  const { scan, tree } = ctx;
  const summaryFile = [...scan.changed, ...scan.added].find((file) => file.kind === 'layout');
  if (!summaryFile) return { summary: 'unchanged', plan: undefined };
  const parsed = parseSummary(summaryFile.text ?? '');
  if (parsed.problems.length > 0) {
    const lines = parsed.problems
      .slice(0, 3)
      .map((problem) => `line ${problem.line}: ${problem.message}`)
      .join('; ');
    ctx.problems.push({
      path: summaryFile.path,
      reason: 'invalid-summary',
      message: `SUMMARY.md could not be parsed (${lines}); the page order was not changed`,
    });
    return { summary: 'invalid', plan: undefined };
  }
  const plan = planFromSummary(parsed.entries, {
    localKey: ctx.localKey,
    groups: tree.pages.filter((page) => page.type === 'group'),
    links: tree.treeOrder
      .map((id) => tree.nodes.get(id)!.page)
      .filter((page) => page.type === 'link'),
    problems: ctx.problems,
  });
  return { summary: 'applied', plan };
}

interface PlanContext {
  localKey: ReadonlyMap<string, Key>;
  groups: readonly CachedPage[];
  links: readonly CachedPage[];
  problems: LocalProblem[];
}

function planFromSummary(entries: readonly SummaryEntry[], ctx: PlanContext): SummaryPlan {
  const plan: SummaryPlan = { parent: new Map(), order: new Map(), titles: new Map() };
  const used = new Set<string>();
  const place = (key: Key, parent: string | null) => {
    plan.parent.set(key, parent);
    const list = plan.order.get(parent) ?? [];
    list.push(key);
    plan.order.set(parent, list);
  };
  const line = (entry: SummaryEntry) => (entry.line === undefined ? '' : ` (line ${entry.line})`);
  const visit = (list: readonly SummaryEntry[], parent: string | null): void => {
    for (const entry of list) {
      if (entry.kind === 'computed') {
        visit(entry.children, parent);
        continue;
      }
      if (entry.kind === 'group') {
        const group =
          ctx.groups.find((g) => !used.has(g.id) && g.slug === entry.slug) ??
          ctx.groups.find((g) => !used.has(g.id) && g.title === entry.title);
        if (!group) {
          ctx.problems.push({
            path: 'SUMMARY.md',
            reason: 'unsupported',
            message: `The group "${entry.title}"${line(entry)} is new; groups are created in the editor, so its pages were placed one level up`,
          });
          visit(entry.children, parent);
          continue;
        }
        used.add(group.id);
        place(group.id, parent);
        plan.titles.set(group.id, entry.title);
        visit(entry.children, group.id);
        continue;
      }
      const target = summaryTarget(entry.destination);
      if (target !== undefined && !target.anchor && /\.md$/i.test(target.path)) {
        const key = ctx.localKey.get(target.path);
        if (key !== undefined && !plan.parent.has(key)) {
          place(key, parent);
          plan.titles.set(key, entry.title);
          visit(entry.children, key);
          continue;
        }
        if (key === undefined) {
          ctx.problems.push({
            path: 'SUMMARY.md',
            reason: 'invalid-summary',
            message: `SUMMARY.md lists ${target.path}${line(entry)}, which is not a page file here; the entry was skipped`,
          });
          visit(entry.children, parent);
          continue;
        }
      }
      // A link page (a URL, an anchor, a page listed twice): matched by its title.
      const link = ctx.links.find((l) => !used.has(l.id) && l.title === entry.title);
      if (link) {
        used.add(link.id);
        place(link.id, parent);
      }
      visit(entry.children, parent);
    }
  };
  visit(entries, null);
  return plan;
}

/** A SUMMARY.md destination as a path from the space folder; undefined for URLs and absolute paths. */
function summaryTarget(destination: string): { path: string; anchor: boolean } | undefined {
  if (destination === '' || /^[a-z][a-z0-9+.-]*:/i.test(destination) || /^[/#]/.test(destination)) {
    return undefined;
  }
  const hash = destination.indexOf('#');
  const pathPart = (hash === -1 ? destination : destination.slice(0, hash)).split('?')[0] ?? '';
  const path = posix.normalize(safeDecode(pathPart)).replace(/^\.\//, '');
  if (path === '..' || path.startsWith('../') || path.startsWith('/')) return undefined;
  return { path, anchor: hash !== -1 };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
