/**
 * The three-way merge of a text file on pull: base (what was last synced), local (the file as the
 * user left it) and remote (what the server has now).
 *
 * Line-based (diff3); a page's YAML frontmatter is merged key by key instead (nested mappings key
 * by key too), since its keys are independent fields and a line merge would mangle YAML. Line
 * endings are compared without regard to CRLF vs LF (an editor that rewrites them all is not a
 * conflict), and the result takes the local file's: CRLF if it has any, and its BOM.
 *
 * Pure: every case is a unit test.
 */
import { diff3Merge } from 'node-diff3';
import type { YamlValue } from '../../shared/gitsync/frontmatter-yaml';
import {
  FrontmatterError,
  formatFrontmatter,
  sameFrontmatter,
  splitFrontmatter,
  type FrontmatterData,
  type SplitFrontmatter,
} from '../../shared/gitsync/page-frontmatter';

export type TextMergeResult =
  | { kind: 'merged'; text: string }
  /** Overlapping edits; `reason` says where, fit to show the user. */
  | { kind: 'conflict'; reason: string };

export interface MergeTextOptions {
  /** Merge a leading YAML frontmatter block key by key (page files). */
  frontmatter?: boolean;
}

const BOM = '\uFEFF';

export function mergePageText(
  base: string,
  local: string,
  remote: string,
  options: MergeTextOptions = {},
): TextMergeResult {
  if (local === remote || remote === base) return { kind: 'merged', text: local };
  const bom = local.startsWith(BOM);
  const crlf = local.includes('\r\n');
  const [b, l, r] = [base, local, remote].map(normalize) as [string, string, string];
  const merged = options.frontmatter ? mergeWithFrontmatter(b, l, r) : mergeLines(b, l, r);
  if (merged.kind === 'conflict') return merged;
  let text = merged.text;
  if (crlf) text = text.replace(/\n/g, '\r\n');
  return { kind: 'merged', text: bom ? `${BOM}${text}` : text };
}

function normalize(text: string): string {
  return (text.startsWith(BOM) ? text.slice(1) : text).replace(/\r\n/g, '\n');
}

/** diff3 over lines; the line numbers in a conflict are the base's. */
function mergeLines(base: string, local: string, remote: string, what = ''): TextMergeResult {
  if (local === remote || remote === base) return { kind: 'merged', text: local };
  if (local === base) return { kind: 'merged', text: remote };
  // The final newline is merged on its own: dropping it is not an edit of the last line.
  const [eofBase, eofLocal, eofRemote] = [base, local, remote].map((text) => text.endsWith('\n'));
  const eof = eofLocal !== eofBase ? eofLocal : eofRemote;
  const lines = (text: string) => (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const regions = diff3Merge<string>(lines(local), lines(base), lines(remote), {
    excludeFalseConflicts: true,
  });
  const merged: string[] = [];
  for (const region of regions) {
    if (region.conflict) {
      const { oIndex, o } = region.conflict;
      const span =
        o.length > 1
          ? `lines ${oIndex + 1}–${oIndex + o.length}`
          : o.length === 1
            ? `line ${oIndex + 1}`
            : `the same place (after line ${oIndex})`;
      return { kind: 'conflict', reason: `both sides edited ${span}${what}` };
    }
    if (region.ok) merged.push(...region.ok);
  }
  const text = merged.join('\n');
  return { kind: 'merged', text: eof ? `${text}\n` : text };
}

function mergeWithFrontmatter(base: string, local: string, remote: string): TextMergeResult {
  let parts: [SplitFrontmatter, SplitFrontmatter, SplitFrontmatter];
  try {
    parts = [splitFrontmatter(base), splitFrontmatter(local), splitFrontmatter(remote)];
  } catch (error) {
    // Unreadable YAML on some side: the lines are all there is to merge.
    if (error instanceof FrontmatterError) return mergeLines(base, local, remote);
    throw error;
  }
  const [b, l, r] = parts;
  const data = mergeMapping(b.data ?? {}, l.data ?? {}, r.data ?? {}, '');
  if (typeof data === 'string') {
    return { kind: 'conflict', reason: `both sides changed the frontmatter key ${data}` };
  }
  // Unchanged bytes where possible: a side whose keys won keeps its own formatting.
  const block = sameFrontmatter(data, l.data ?? {})
    ? l.raw
    : sameFrontmatter(data, r.data ?? {})
      ? r.raw
      : formatFrontmatter(data);
  const body = mergeLines(b.body, l.body, r.body, l.raw === '' ? '' : ' after the frontmatter');
  if (body.kind === 'conflict') return body;
  return { kind: 'merged', text: `${block}${body.text}` };
}

type Mapping = Readonly<Record<string, YamlValue | undefined>>;

function isMapping(value: YamlValue | undefined): value is Mapping {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

/**
 * Key by key: a key keeps the value of the side that changed it (a removal is a change); both
 * changing it to different values is a conflict, unless both values are mappings, which merge
 * recursively. Key order: the local side's, then keys only the remote side added. Returns the
 * dotted name of the first conflicting key instead of a mapping.
 */
function mergeMapping(
  base: Mapping,
  local: Mapping,
  remote: Mapping,
  prefix: string,
): FrontmatterData | string {
  const result: Record<string, YamlValue> = {};
  const keys = [...Object.keys(local), ...Object.keys(remote).filter((key) => !(key in local))];
  for (const key of keys) {
    const [b, l, r] = [base[key], local[key], remote[key]];
    let value: YamlValue | undefined;
    if (sameFrontmatter(l, r) || sameFrontmatter(b, r)) value = l;
    else if (sameFrontmatter(b, l)) value = r;
    else if (isMapping(l) && isMapping(r) && (b === undefined || isMapping(b))) {
      const nested = mergeMapping(b ?? {}, l, r, `${prefix}${key}.`);
      if (typeof nested === 'string') return nested;
      value = nested;
    } else {
      return `${prefix}${key}`;
    }
    if (value !== undefined) result[key] = value;
  }
  return result;
}
