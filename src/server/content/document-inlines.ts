/** Markdown inline content → document text with marks, links and inline images. */
import type {
  ContentRef,
  DocumentBlockParagraph,
  DocumentInline,
  DocumentInlineImage,
  DocumentText,
  DocumentTextMark,
} from '@gitbook/api';
import type { PhrasingContent } from 'mdast';
import {
  type Context,
  imageRefOf,
  type Leaf,
  MARK_ORDER,
  type MarkType,
  MAX_NESTING,
  type Piece,
  refOf,
} from './document-context';
import { attribute } from './document-html';
import { nodeText } from '../../shared/markdown/node-text';

export function phrasing(
  nodes: readonly PhrasingContent[],
  marks: readonly MarkType[],
  ctx: Context,
): Piece[] {
  if (ctx.inlineDepth >= MAX_NESTING) {
    return [{ kind: 'leaf', text: nodes.map((node) => nodeText(node)).join(''), marks }];
  }
  ctx.inlineDepth += 1;
  try {
    return phrasingAt(nodes, marks, ctx);
  } finally {
    ctx.inlineDepth -= 1;
  }
}

function phrasingAt(
  nodes: readonly PhrasingContent[],
  marks: readonly MarkType[],
  ctx: Context,
): Piece[] {
  const pieces: Piece[] = [];
  const withMark = (mark: MarkType) => (marks.includes(mark) ? marks : [...marks, mark]);
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        // A soft line break renders as whitespace; hard breaks are `break` nodes.
        pieces.push({ kind: 'leaf', text: softBreaksAsSpaces(node.value), marks });
        break;
      case 'strong':
        append(pieces, phrasing(node.children, withMark('bold'), ctx));
        break;
      case 'emphasis':
        append(pieces, phrasing(node.children, withMark('italic'), ctx));
        break;
      case 'delete':
        append(pieces, phrasing(node.children, withMark('strikethrough'), ctx));
        break;
      case 'inlineCode':
        pieces.push({ kind: 'leaf', text: node.value, marks: withMark('code') });
        break;
      case 'break':
        pieces.push({ kind: 'leaf', text: '\n', marks });
        break;
      case 'link':
        pieces.push(linkInline(refOf(node.url, 'link', ctx), phrasing(node.children, marks, ctx)));
        break;
      case 'linkReference': {
        const definition = ctx.definitions.get(node.identifier);
        const inner = phrasing(node.children, marks, ctx);
        if (definition) pieces.push(linkInline(refOf(definition.url, 'link', ctx), inner));
        else append(pieces, inner);
        break;
      }
      case 'image':
        pieces.push(inlineImage(node.url, node.alt ?? undefined, ctx));
        break;
      case 'imageReference': {
        const definition = ctx.definitions.get(node.identifier);
        if (definition) pieces.push(inlineImage(definition.url, node.alt ?? undefined, ctx));
        break;
      }
      case 'html': {
        // Inline HTML tags are dropped (their inner text is separate nodes); images and <br> survive.
        if (/^<br\s*\/?>$/i.test(node.value.trim()))
          pieces.push({ kind: 'leaf', text: '\n', marks });
        const img = /<img\b[^>]*>/i.exec(node.value)?.[0];
        const src = img ? attribute(img, 'src') : undefined;
        if (img && src) {
          const size = attribute(img, 'data-size');
          const inline = inlineImage(src, attribute(img, 'alt') || undefined, ctx);
          if (size === 'line' || size === 'original') inline.data.size = size;
          pieces.push(inline);
        }
        break;
      }
      case 'footnoteReference':
        pieces.push({ kind: 'leaf', text: `[^${node.label ?? node.identifier}]`, marks });
        break;
      default:
        break;
    }
  }
  return pieces;
}

/**
 * Each line break with the spaces and tabs around it becomes one space. Not a regex: `[ \t]*\n`
 * retried at every space of a long run without a newline is quadratic.
 */
function softBreaksAsSpaces(text: string): string {
  if (!text.includes('\n')) return text;
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      let from = 0;
      let to = line.length;
      if (i > 0) while (from < to && isSpaceOrTab(line.charCodeAt(from))) from++;
      if (i < lines.length - 1) {
        if (line.charCodeAt(to - 1) === 0x0d) to--;
        while (to > from && isSpaceOrTab(line.charCodeAt(to - 1))) to--;
      }
      return line.slice(from, to);
    })
    .join(' ');
}

function isSpaceOrTab(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

export function linkInline(ref: ContentRef, inner: Piece[]): DocumentInline {
  // A link holds text and inline images only; other inlines nested in it keep their place as text.
  const allowed = inner.filter(
    (piece): piece is Leaf | DocumentInlineImage => isLeaf(piece) || piece.type === 'inline-image',
  );
  return { object: 'inline', type: 'link', data: { ref }, nodes: normalize(allowed) };
}

function inlineImage(src: string, alt: string | undefined, ctx: Context): DocumentInlineImage {
  return {
    object: 'inline',
    type: 'inline-image',
    isVoid: true,
    data: { ref: imageRefOf(src, ctx), ...(alt ? { alt } : {}) },
  };
}

export function leaf(text: string): Leaf {
  return { kind: 'leaf', text, marks: [] };
}

function sameMarks(a: readonly MarkType[], b: readonly MarkType[]): boolean {
  return a.length === b.length && a.every((mark) => b.includes(mark));
}

export function textNode(leaves: readonly Leaf[]): DocumentText {
  return {
    object: 'text',
    leaves: (leaves.length > 0 ? leaves : [leaf('')]).map((piece) => ({
      object: 'leaf',
      text: piece.text,
      marks: MARK_ORDER.filter((mark) => piece.marks.includes(mark)).map(
        (type): DocumentTextMark => ({ object: 'mark', type }),
      ),
    })),
  };
}

/**
 * Groups leaves into text nodes (merging neighbours with equal marks) and, as the Slate-based
 * editor expects, puts a text node before, between and after inlines.
 */
export function normalize<I extends DocumentInline>(
  pieces: ReadonlyArray<Leaf | I>,
): Array<DocumentText | I> {
  const out: Array<DocumentText | I> = [];
  let run: Leaf[] = [];
  const flush = () => {
    const merged: Leaf[] = [];
    for (const piece of run) {
      const last = merged[merged.length - 1];
      if (piece.text === '') continue;
      if (last && sameMarks(last.marks, piece.marks))
        merged[merged.length - 1] = { ...last, text: last.text + piece.text };
      else merged.push(piece);
    }
    out.push(textNode(merged));
    run = [];
  };
  for (const piece of pieces) {
    if ('kind' in piece) run.push(piece);
    else {
      flush();
      out.push(piece);
    }
  }
  flush();
  return out;
}

export function paragraph(pieces: ReadonlyArray<Piece>): DocumentBlockParagraph {
  return { object: 'block', type: 'paragraph', data: {}, nodes: normalize(pieces) };
}

export function trimPieces(pieces: Piece[]): Piece[] {
  const out = [...pieces];
  const first = out[0];
  if (first && isLeaf(first)) out[0] = { ...first, text: first.text.trimStart() };
  const last = out[out.length - 1];
  if (last && isLeaf(last)) out[out.length - 1] = { ...last, text: last.text.trimEnd() };
  return out;
}

/**
 * `target.push(...items)` without spreading: spread arguments live on the stack, and a page with
 * a few hundred thousand blocks would overflow it.
 */
export function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

export function isLeaf(piece: Piece): piece is Leaf {
  return 'kind' in piece;
}

export function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
