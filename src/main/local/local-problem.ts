/**
 * Something local change detection could not push, with the path and the reason, fit to show the
 * user. The file it names is left exactly as it is; everything else keeps syncing.
 */
export interface LocalProblem {
  /** Relative to the space folder, '/'-separated ('' for the folder itself). */
  path: string;
  reason: LocalProblemReason;
  message: string;
  /** The page the file belongs to, when known. */
  pageId?: string;
}

export type LocalProblemReason =
  /** A symbolic link: never followed, never pushed. */
  | 'symlink'
  /** Not a regular file or folder (a FIFO, a socket, a device), or a folder where a page was. */
  | 'not-a-file'
  /** A Markdown file that is not valid UTF-8. */
  | 'not-utf8'
  /** Over the size limit. */
  | 'too-large'
  /** A file or folder that could not be read (permissions, a disk error). */
  | 'unreadable'
  /** Frontmatter that is not valid YAML, or page fields of the wrong type. */
  | 'invalid-frontmatter'
  /** SUMMARY.md could not be parsed (or names something that does not exist). */
  | 'invalid-summary'
  /** A change the API cannot express (a new group, an edited or deleted upload). */
  | 'unsupported'
  /** Valid, but waiting for something else first (a parent page that does not exist yet). */
  | 'deferred';
