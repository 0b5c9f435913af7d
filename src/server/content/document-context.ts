/** What every step of markdownToDocument shares: its options, the conversion context, refs. */
import type { ContentRef, ContentRefFile, ContentRefURL, DocumentInline } from '@gitbook/api';
import type { RootContent } from 'mdast';
import type { LiquidTag } from './document-liquid';
import { classifyHref } from './markdown-links';

/** Where a reference occurs, for resolvers that map Git paths to page/file ids. */
export type RefUsage = 'link' | 'image' | 'content-ref' | 'file';

export interface MarkdownToDocumentOptions {
  /**
   * Maps a link/image target to a content ref (e.g. `../setup.md` → `{kind:'page', page}` using
   * the page tree). Return undefined to fall back to the default mapping.
   */
  resolveRef?: (href: string, usage: RefUsage) => ContentRef | undefined;
}

export type MarkType = 'bold' | 'italic' | 'strikethrough' | 'code';
export const MARK_ORDER: readonly MarkType[] = ['bold', 'italic', 'strikethrough', 'code'];

export interface Leaf {
  kind: 'leaf';
  text: string;
  marks: readonly MarkType[];
}
export type Piece = Leaf | DocumentInline;

export interface Context {
  options: MarkdownToDocumentOptions;
  /** The (tag-isolated) Markdown that was parsed, to read liquid tags from their source. */
  source: string;
  definitions: Map<string, { url: string; title?: string | null }>;
  tables: number;
  /** Current container / inline nesting, bounded so hostile input cannot overflow the stack. */
  depth: number;
  inlineDepth: number;
  /** liquidTagOf results by node: closing-tag scans would otherwise re-read the same nodes. */
  tags: WeakMap<RootContent, LiquidTag | null>;
}

/** Deeper containers (or inline formatting) than this keep only their text. */
export const MAX_DOCUMENT_NESTING = 48;
export const MAX_NESTING = MAX_DOCUMENT_NESTING;

/** Default mapping of a link target to a ContentRef (see the module comment). */
export function defaultContentRef(href: string): ContentRef {
  const target = classifyHref(href);
  if (target.kind === 'anchor' && target.anchor !== undefined)
    return { kind: 'anchor', anchor: target.anchor };
  if (target.kind === 'page' && target.pageId) {
    return target.anchor
      ? { kind: 'anchor', anchor: target.anchor, page: target.pageId }
      : { kind: 'page', page: target.pageId };
  }
  if (target.kind === 'file' && target.fileId) return { kind: 'file', file: target.fileId };
  return { kind: 'url', url: href };
}

export function refOf(href: string, usage: RefUsage, ctx: Context): ContentRef {
  return ctx.options.resolveRef?.(href, usage) ?? defaultContentRef(href);
}

export function imageRefOf(href: string, ctx: Context): ContentRefURL | ContentRefFile {
  const ref = refOf(href, 'image', ctx);
  return ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url: href };
}
