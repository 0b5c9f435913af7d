import { Type, type StringOptions } from '@sinclair/typebox';

/**
 * Text the server never accepts in names and titles: C0 controls, DEL and C1 controls (they end
 * up in file names, Markdown and terminals), and unpaired UTF-16 surrogates (they cannot be
 * encoded as UTF-8, so they cannot be stored or put in a URL as sent). Each pattern is
 * "allowed characters, or a surrogate pair", which means the same with and without the `u` flag
 * (Ajv compiles with it; TypeBox's Value, used for fixtures, without), and runs in linear time.
 */
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
const CONTROLS_BUT_TAB_AND_LINE_BREAKS =
  '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
const SURROGATES = '\\ud800-\\udfff';
const PAIR = '[\\ud800-\\udbff][\\udc00-\\udfff]';
const textOf = (forbidden: string) => `(?:[^${forbidden}${SURROGATES}]|${PAIR})*`;

export const SINGLE_LINE_PATTERN = `^${textOf(CONTROLS)}$`;
export const MULTILINE_PATTERN = `^${textOf(CONTROLS_BUT_TAB_AND_LINE_BREAKS)}$`;
export const NO_NUL_PATTERN = '^[^\\u0000]*$';
/** Not `.` or `..` (URL and path segments that mean "here" and "up"), no separator of any OS. */
export const FILE_NAME_PATTERN = `^(?!\\.\\.?$)${textOf(`/\\\\${CONTROLS}`)}$`;
/** What a page path segment may be: reachable by path, never a dot segment (as checkSlug). */
export const SLUG_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';
/** An absolute http(s) address (with `format: 'uri'`): where a browser is sent. */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';

/** The rule each pattern enforces, in words, for 400 messages (see validationMessage). */
const PATTERN_RULES: Readonly<Record<string, string>> = {
  [SINGLE_LINE_PATTERN]:
    'must not contain control characters (U+0000–U+001F, U+007F–U+009F) or unpaired surrogates',
  [MULTILINE_PATTERN]:
    'must not contain control characters other than tab and line breaks, or unpaired surrogates',
  [NO_NUL_PATTERN]: 'must not contain NUL characters (U+0000)',
  [FILE_NAME_PATTERN]:
    'must be a file name: not "." or "..", without "/", "\\", control characters or unpaired surrogates',
  [SLUG_PATTERN]:
    'must start with a letter or digit and hold only letters, digits, ".", "_" and "-"',
  [HTTP_URL_PATTERN]: 'must be an absolute http or https URL',
};

/** The words for a schema pattern's rule, when it is one of these. */
export function patternRule(pattern: unknown): string | undefined {
  return typeof pattern === 'string' ? PATTERN_RULES[pattern] : undefined;
}

/** The longest page title (characters). The spec sets none; other titles go up to 255–256. */
export const MAX_PAGE_TITLE_LENGTH = 256;

/** A name or title: one line, no control characters. */
export const SingleLineText = (options: StringOptions = {}) =>
  Type.String({ ...options, pattern: SINGLE_LINE_PATTERN });

/** Text that may span lines (descriptions): tabs and line breaks allowed, other controls not. */
export const MultilineText = (options: StringOptions = {}) =>
  Type.String({ ...options, pattern: MULTILINE_PATTERN });

/** A file (asset) name, wherever one is set. */
export const FileName = (options: StringOptions = {}) =>
  Type.String({ minLength: 1, ...options, pattern: FILE_NAME_PATTERN });

/** The longest page description (characters), as fixtures already had it. */
export const MAX_PAGE_DESCRIPTION_LENGTH = 1000;

export const PageTitle = SingleLineText({ minLength: 1, maxLength: MAX_PAGE_TITLE_LENGTH });
export const Slug = Type.String({ minLength: 1, maxLength: 100, pattern: SLUG_PATTERN });

const singleLine = new RegExp(SINGLE_LINE_PATTERN);

/** Whether `text` holds no control character and no unpaired surrogate (SingleLineText's rule). */
export function isSingleLineText(text: string): boolean {
  return singleLine.test(text);
}

/**
 * Why a page title that no schema saw (from frontmatter, a leading `# Heading`, an import) is
 * refused, in the words of the schema's messages, or undefined when it is fine.
 */
export function pageTitleProblem(title: string): string | undefined {
  // Characters as JSON Schema counts them: code points. Counting stops past the limit.
  let length = 0;
  for (const _char of title) {
    if (++length > MAX_PAGE_TITLE_LENGTH) {
      return `must NOT have more than ${MAX_PAGE_TITLE_LENGTH} characters`;
    }
  }
  if (length === 0) return 'must NOT have fewer than 1 characters';
  if (!isSingleLineText(title)) return PATTERN_RULES[SINGLE_LINE_PATTERN];
  return undefined;
}
