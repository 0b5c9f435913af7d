import type { FrontmatterProblem } from './frontmatter-problem';
import { parseFrontmatterYaml, type FrontmatterData } from './frontmatter-yaml';

/** Where a page's frontmatter block is, before any YAML is parsed. */
export interface FrontmatterBlock {
  /** The block exactly as written, delimiters and final line break included. */
  raw: string;
  /** The text between the delimiters, its last line break included. */
  yaml: string;
  /** What follows the opening `---` (`yaml`, or `js` which must be refused), lower-cased. */
  language: string;
  /** The Markdown after the block. */
  body: string;
}

const OPENING = /^---([^\r\n]*)\r?\n/;
const CLOSING = /^---[ \t]*(?:\r?\n|$)/m;

/**
 * Finds the frontmatter block: only a closed block at the very start is one (otherwise `---` is
 * a thematic break). A byte order mark is the caller's to remove.
 */
export function findFrontmatterBlock(markdown: string): FrontmatterBlock | undefined {
  const opening = OPENING.exec(markdown);
  if (!opening || opening[1]?.startsWith('-')) return undefined;
  const rest = markdown.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return undefined;
  const end = opening[0].length + closing.index + closing[0].length;
  return {
    raw: markdown.slice(0, end),
    yaml: rest.slice(0, closing.index),
    language: (opening[1] ?? '').trim().toLowerCase(),
    body: markdown.slice(end),
  };
}

/** A page's frontmatter read: its block (none: `data` is `{}`) and the Markdown after it. */
export type ReadFrontmatter =
  | { block?: FrontmatterBlock; data: FrontmatterData; body: string }
  | { problem: FrontmatterProblem };

/** Finds and parses a page's frontmatter; YAML only (see parseFrontmatterYaml). */
export function readFrontmatter(markdown: string): ReadFrontmatter {
  const block = findFrontmatterBlock(markdown);
  if (!block) return { data: {}, body: markdown };
  if (block.language !== '' && block.language !== 'yaml' && block.language !== 'yml') {
    return { problem: { kind: 'language', language: block.language } };
  }
  const parsed = parseFrontmatterYaml(block.yaml);
  if ('problem' in parsed) return parsed;
  return { block, data: parsed.data, body: block.body };
}
