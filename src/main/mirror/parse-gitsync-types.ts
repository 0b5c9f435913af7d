/** The options and results of parseGitSyncLayout. */
import type { PageFields } from '../../shared/gitsync/page-fields';
import type { FrontmatterData } from '../../shared/gitsync/page-frontmatter';
import type {
  MirrorComputedSource,
  MirrorLayout,
  MirrorPageType,
} from '../../shared/gitsync/gitsync-types';

type MaybePromise<T> = T | Promise<T>;

/** Reads a file of the space folder by relative POSIX path; undefined when it does not exist. */
export type ReadSpaceFile = (path: string) => MaybePromise<string | undefined>;
/** Every file of the space folder, as relative POSIX paths. */
export type ListSpaceFiles = () => MaybePromise<readonly string[]>;

export interface ParseGitSyncOptions {
  /**
   * The id of the uploaded file an asset name belongs to. When given, relative
   * `.gitbook/assets/<name>` references in page Markdown are rewritten to `/files/<id>` (the
   * inverse of what rendering does), and covers get their file id.
   */
  fileIdForAsset?: (name: string) => string | undefined;
  /**
   * `.gitbook.yaml`'s `structure`: the table of contents' and the first page's file names
   * (SUMMARY.md and README.md by default; `quire import` passes a repository's own).
   */
  structure?: { summary: string; readme: string };
}

export interface ParsedCover {
  /** The `cover:` value as written. */
  src: string;
  /** The `.gitbook/assets/` file it names, when it names one. */
  assetName?: string;
  fileId?: string;
  yPos?: number;
  height?: number;
}

export interface ParsedPage extends PageFields {
  type: MirrorPageType;
  /** SUMMARY.md link text or group heading (frontmatter title or heading for inferred trees). */
  title: string;
  slug: string;
  /** Document pages: the file. */
  path?: string;
  linkTitle?: string;
  /** The text of the page's leading `# Heading`, when it has one. */
  headingTitle?: string;
  /** Link pages: the target as written in SUMMARY.md. */
  href?: string;
  /** Link pages pointing at a page file of this space (`page.md#anchor`). */
  target?: { path: string; anchor?: string };
  computed?: MirrorComputedSource;
  layout?: MirrorLayout;
  cover?: ParsedCover;
  /** Every key of the page's frontmatter, unknown ones included. */
  frontmatter?: FrontmatterData;
  /**
   * Document pages: the Markdown after the frontmatter, `# Title` first. When the frontmatter
   * cannot be read, the whole file (so nothing the user wrote is dropped) and a problem.
   */
  markdown?: string;
  /** Listed in SUMMARY.md but the file does not exist (or could not be read). */
  missing?: true;
  pages: ParsedPage[];
}

export interface ParsedAsset {
  path: string;
  name: string;
  fileId?: string;
}

export interface GitSyncProblem {
  path: string;
  message: string;
  line?: number;
}

export interface ParsedGitSyncLayout {
  pages: ParsedPage[];
  files: ParsedAsset[];
  problems: GitSyncProblem[];
  /** Markdown files SUMMARY.md does not list (outside `.gitbook/`). */
  unlisted: string[];
  /** `inferred` when there is no SUMMARY.md and the tree comes from the folders. */
  summary: 'found' | 'inferred';
}
