import { posix } from 'node:path';
import { parseSummary, type SummaryEntry } from '../../mirror/parse-summary';
import type { LocalProblem } from '../local-problem';
import type { CachedPage } from './cached-tree';
import type { ClassifyContext } from './classify-context';
import type { ClassifyResult } from './classify-result';
import type { FolderOwners } from './folder-owners';
import type { Key } from './page-key';
import { safeDecode } from '../../../shared/safe-decode';

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
  const planner = new SummaryPlanner(ctx);
  planner.visit(entries, null);
  return planner.plan;
}

/** Walks SUMMARY.md's entries, placing each page, group and link it can match. */
class SummaryPlanner {
  readonly plan: SummaryPlan = { parent: new Map(), order: new Map(), titles: new Map() };
  private readonly ctx: PlanContext;
  /** Groups and links already matched to an entry. */
  private readonly used = new Set<string>();

  constructor(ctx: PlanContext) {
    this.ctx = ctx;
  }

  visit(list: readonly SummaryEntry[], parent: string | null): void {
    for (const entry of list) {
      if (entry.kind === 'computed') this.visit(entry.children, parent);
      else if (entry.kind === 'group') this.visitGroup(entry, parent);
      else if (!this.visitPageFile(entry, parent)) this.visitLink(entry, parent);
    }
  }

  private visitGroup(entry: GroupEntry, parent: string | null): void {
    const { groups } = this.ctx;
    const group =
      groups.find((g) => !this.used.has(g.id) && g.slug === entry.slug) ??
      groups.find((g) => !this.used.has(g.id) && g.title === entry.title);
    if (!group) {
      this.ctx.problems.push({
        path: 'SUMMARY.md',
        reason: 'unsupported',
        message: `The group "${entry.title}"${lineOf(entry)} is new; groups are created in the editor, so its pages were placed one level up`,
      });
      this.visit(entry.children, parent);
      return;
    }
    this.used.add(group.id);
    this.place(group.id, parent);
    this.plan.titles.set(group.id, entry.title);
    this.visit(entry.children, group.id);
  }

  /** An entry naming a page file (no anchor); false when it is to be read as a link. */
  private visitPageFile(entry: LinkEntry, parent: string | null): boolean {
    const target = summaryTarget(entry.destination);
    if (target === undefined || target.anchor || !/\.md$/i.test(target.path)) return false;
    const key = this.ctx.localKey.get(target.path);
    if (key === undefined) {
      this.ctx.problems.push({
        path: 'SUMMARY.md',
        reason: 'invalid-summary',
        message: `SUMMARY.md lists ${target.path}${lineOf(entry)}, which is not a page file here; the entry was skipped`,
      });
      this.visit(entry.children, parent);
      return true;
    }
    // A page listed a second time is a link to it.
    if (this.plan.parent.has(key)) return false;
    this.place(key, parent);
    this.plan.titles.set(key, entry.title);
    this.visit(entry.children, key);
    return true;
  }

  /** A link page (a URL, an anchor, a page listed twice): matched by its title. */
  private visitLink(entry: LinkEntry, parent: string | null): void {
    const link = this.ctx.links.find((l) => !this.used.has(l.id) && l.title === entry.title);
    if (link) {
      this.used.add(link.id);
      this.place(link.id, parent);
    }
    this.visit(entry.children, parent);
  }

  private place(key: Key, parent: string | null): void {
    this.plan.parent.set(key, parent);
    const list = this.plan.order.get(parent) ?? [];
    list.push(key);
    this.plan.order.set(parent, list);
  }
}

type GroupEntry = Extract<SummaryEntry, { kind: 'group' }>;
type LinkEntry = Extract<SummaryEntry, { kind: 'link' }>;

const lineOf = (entry: SummaryEntry) => (entry.line === undefined ? '' : ` (line ${entry.line})`);

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
