/** What a page field's frontmatter value must be. */
export type FrontmatterFieldType = 'string' | 'boolean' | 'number' | 'mapping' | 'path or URL';

/**
 * Why a page's frontmatter, or one of its page fields, cannot be read. Plain data: each side
 * words it (the server's 400 messages and the desktop's problem list say it differently).
 */
export type FrontmatterProblem =
  /** `---js` and the like: only YAML is read (gray-matter would have evaluated JavaScript). */
  | { kind: 'language'; language: string }
  /** Invalid YAML; `line` and `column` are 1-based and the page's own when known. */
  | { kind: 'yaml'; reason: string; line?: number; column?: number }
  | { kind: 'not-mapping' }
  /** More values than the budget (an alias bomb) or nested too deep. */
  | { kind: 'too-large' }
  | { kind: 'field'; field: string; expected: FrontmatterFieldType };

/** The problem in the words the API uses for a 400 (the server's FrontmatterError messages). */
export function frontmatterProblemMessage(problem: FrontmatterProblem): string {
  switch (problem.kind) {
    case 'language':
      return `frontmatter language "${problem.language}" is not supported; use YAML`;
    case 'yaml': {
      const where =
        problem.line === undefined ? '' : ` at line ${problem.line}, column ${problem.column ?? 1}`;
      return `invalid YAML frontmatter: ${problem.reason}${where}`;
    }
    case 'not-mapping':
      return 'frontmatter must be a YAML mapping of keys to values';
    case 'too-large':
      return 'frontmatter is too large or too deeply nested';
    case 'field':
      return `frontmatter field "${problem.field}" must be ${fieldTypeText(problem.expected)}`;
  }
}

/** The expected value as a message says it: `a string`, `true or false`, … */
export function fieldTypeText(expected: FrontmatterFieldType): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'number':
      return 'a number';
    case 'mapping':
      return 'a mapping';
    case 'path or URL':
      return 'a path or URL';
  }
}
