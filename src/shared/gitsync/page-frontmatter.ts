/**
 * The desktop's side of the Git Sync page format (src/shared/gitsync, which the server reads
 * with too): the same reading and writing, with problems worded for the desktop's problem list
 * and thrown as FrontmatterError where a page cannot be read at all.
 */
import { fieldTypeText, type FrontmatterProblem } from './frontmatter-problem';
import { findFrontmatterBlock } from './frontmatter-block';
import { parseFrontmatterYaml as parseYaml, type FrontmatterData } from './frontmatter-yaml';
import { layoutFromFrontmatter } from './compose-frontmatter';
import { readPageFields, type FrontmatterPageFields } from './page-fields';
import type { MirrorLayout } from './gitsync-types';

export {
  composeFrontmatter,
  formatFrontmatter,
  GIT_SYNC_KEY_ORDER,
  layoutFromFrontmatter,
  layoutToFrontmatter,
  sameFrontmatter,
  type ComposeFrontmatterOptions,
} from './compose-frontmatter';
export { findFrontmatterBlock, type FrontmatterBlock } from './frontmatter-block';
export type { FrontmatterData } from './frontmatter-yaml';

/** Invalid, non-YAML or oversized frontmatter; the message is fit to show the user. */
export class FrontmatterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

export interface SplitFrontmatter {
  /** The YAML mapping; undefined when the Markdown has no frontmatter block. */
  data?: FrontmatterData;
  /** The block exactly as written, delimiters and final line break included ('' when none). */
  raw: string;
  /** The Markdown after the block. */
  body: string;
}

/**
 * Splits a page into its frontmatter and the Markdown after it. Throws FrontmatterError for
 * invalid YAML, a non-YAML block (`---js`) or a block that is not a mapping.
 */
export function splitFrontmatter(markdown: string): SplitFrontmatter {
  const block = findFrontmatterBlock(markdown);
  if (!block) return { raw: '', body: markdown };
  if (block.language !== '' && block.language !== 'yaml' && block.language !== 'yml') {
    throw problemError({ kind: 'language', language: block.language });
  }
  return { data: parseFrontmatterYaml(block.yaml), raw: block.raw, body: block.body };
}

/** Parses the YAML between the delimiters into plain values; throws FrontmatterError. */
export function parseFrontmatterYaml(yaml: string): FrontmatterData {
  const parsed = parseYaml(yaml);
  if ('problem' in parsed) throw problemError(parsed.problem);
  return parsed.data;
}

/** Page fields read from frontmatter, and what was wrong with the ones that could not be read. */
export interface FrontmatterFields extends Omit<FrontmatterPageFields, 'layout'> {
  layout?: MirrorLayout;
  problems: string[];
}

export function readFrontmatterFields(data: FrontmatterData): FrontmatterFields {
  const { fields, problems } = readPageFields(data);
  const { layout, ...rest } = fields;
  return {
    ...rest,
    ...(layout !== undefined ? { layout: layoutFromFrontmatter(layout) } : {}),
    problems: problems.map(problemMessage),
  };
}

function problemError(problem: FrontmatterProblem): FrontmatterError {
  return new FrontmatterError(problemMessage(problem));
}

/** The desktop's wording (the server's, for its 400s, is frontmatterProblemMessage). */
function problemMessage(problem: FrontmatterProblem): string {
  switch (problem.kind) {
    case 'language':
      return `frontmatter language "${problem.language}" is not supported; use YAML`;
    case 'yaml':
      return `invalid YAML frontmatter: ${problem.reason}${
        problem.line === undefined ? '' : ` at line ${problem.line}`
      }`;
    case 'not-mapping':
      return 'frontmatter must be a YAML mapping of keys to values';
    case 'too-large':
      return 'frontmatter is too large or too deeply nested';
    case 'field':
      return `frontmatter "${problem.field}" must be ${
        problem.expected === 'path or URL' ? 'a path or a URL' : fieldTypeText(problem.expected)
      }`;
  }
}
