/**
 * The server's reading of a page's frontmatter: the Git Sync page format of src/shared/gitsync
 * (which the desktop predicts the server with), refused with the first problem as a
 * FrontmatterError, whose message the API returns in a 400.
 */
import { readFrontmatter } from '../../shared/gitsync/frontmatter-block';
import {
  frontmatterProblemMessage,
  type FrontmatterProblem,
} from '../../shared/gitsync/frontmatter-problem';
import type { FrontmatterData } from '../../shared/gitsync/frontmatter-yaml';
import { readPageFields, type FrontmatterPageFields } from '../../shared/gitsync/page-fields';

/** Frontmatter or page Markdown the API must refuse; its message is fit for a 400. */
export class FrontmatterError extends Error {
  constructor(
    message: string,
    /** 1-based line in the page Markdown, when known. */
    readonly line?: number,
  ) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

/** Page fields Git Sync frontmatter sets (only keys present in the frontmatter are set). */
export type PageMarkdownFields = Omit<FrontmatterPageFields, 'title'>;

export interface PageFrontmatter {
  /** Every frontmatter key (a fresh copy, JSON-safe), so unknown keys can be preserved. */
  data: FrontmatterData;
  fields: PageMarkdownFields;
  /** Frontmatter `title`, trimmed, when it has one. */
  title?: string;
  /** The Markdown after the frontmatter block (all of it when there is none). */
  content: string;
}

/**
 * Reads the frontmatter of a page (its byte order mark already removed). Throws FrontmatterError
 * for invalid YAML, non-YAML frontmatter, a block that is not a mapping, and fields of the wrong
 * type (the first one, in the order readPageFields checks them).
 */
export function readPageFrontmatter(source: string): PageFrontmatter {
  const read = readFrontmatter(source);
  if ('problem' in read) throw frontmatterError(read.problem);
  const { fields, problems } = readPageFields(read.data);
  const [first] = problems;
  if (first) throw frontmatterError(first);
  const { title, ...pageFields } = fields;
  return {
    data: read.data,
    fields: pageFields,
    ...(title !== undefined ? { title } : {}),
    content: read.body,
  };
}

function frontmatterError(problem: FrontmatterProblem): FrontmatterError {
  const message = frontmatterProblemMessage(problem);
  switch (problem.kind) {
    case 'language':
      return new FrontmatterError(message, 1);
    case 'not-mapping':
      return new FrontmatterError(message, 2);
    case 'yaml':
      return new FrontmatterError(message, problem.line);
    default:
      return new FrontmatterError(message);
  }
}
