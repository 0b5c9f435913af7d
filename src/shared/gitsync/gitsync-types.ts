/**
 * The desktop's model of a space's content, as the mirror lays it out on disk. It follows the
 * published API's revision page and file shapes (the desktop talks to servers over HTTP and never
 * imports server code), trimmed to what the Git Sync layout needs.
 */
import type { PageFields, PageLayout } from './page-fields';

/**
 * `computed` pages are generated from a source, e.g. an OpenAPI reference (`builtin:openapi`).
 * Git Sync writes them into SUMMARY.md as a fenced YAML block and they have no file; GitBook's
 * own docs have one. Other servers may never send them, but a mirror that reads SUMMARY.md must
 * not lose them.
 */
export type MirrorPageType = 'document' | 'group' | 'link' | 'computed';

export interface MirrorFileRef {
  kind: 'file';
  file: string;
}

export interface MirrorUrlRef {
  kind: 'url';
  url: string;
}

/** The API's page cover (`RevisionPageDocumentCover`). */
export interface MirrorCover {
  ref?: MirrorFileRef | MirrorUrlRef;
  /** Not written by Git Sync (no frontmatter key is known for it). */
  refDark?: MirrorFileRef | MirrorUrlRef;
  /** Vertical position; Git Sync's `coverY`. */
  yPos?: number;
  /** Height in pixels; Git Sync's `coverHeight`. */
  height?: number;
}

/** The API's flat layout options (`RevisionPageLayoutOptions`); every key optional here. */
export type MirrorLayout = PageLayout;

/** The source of a computed page (`ComputedContentSourceRevision`). */
export interface MirrorComputedSource {
  type: string;
  props?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A page; its Git Sync frontmatter fields (`PageFields`) are declared once in src/shared. */
export interface MirrorPage extends PageFields {
  id: string;
  type: MirrorPageType;
  title: string;
  slug: string;
  /** The ToC label when it differs from the title; Git Sync's quoted SUMMARY.md link title. */
  linkTitle?: string;
  layout?: MirrorLayout;
  cover?: MirrorCover;
  /**
   * Link pages: the target. `/pages/<id>` and `/pages/<id>#anchor` (a page of this space) and
   * `/files/<id>` are written as paths in the mirror; anything else (URLs) as is.
   */
  href?: string;
  /** Computed pages: what they are generated from. */
  computed?: MirrorComputedSource;
  /**
   * Document pages: the Markdown as the server returns it, `# Title` first. It may begin with a
   * frontmatter block (the server keeps Markdown exactly as it was sent), whose keys the page
   * fields do not cover (`tags`, `vars`, …) are kept in the mirror.
   */
  markdown?: string;
  pages: MirrorPage[];
}

export interface MirrorFile {
  id: string;
  /** The uploaded file's name; its mirror file is `.gitbook/assets/<name>` (suffixed on clashes). */
  name: string;
  contentType: string;
  size: number;
  downloadURL?: string;
  dimensions?: { width: number; height: number };
}

export interface MirrorSpace {
  pages: MirrorPage[];
  files: MirrorFile[];
}
