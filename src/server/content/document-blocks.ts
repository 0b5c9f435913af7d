/** Markdown blocks → document blocks (paragraphs, headings, lists, code, quotes, images, tables). */
import type {
  DocumentBlock,
  DocumentBlockImage,
  DocumentBlockListItem,
  DocumentBlockQuote,
  DocumentBlockTable,
  DocumentFragment,
} from '@gitbook/api';
import type { PhrasingContent, RootContent, TableCell } from 'mdast';
import { MAX_TABLE_COLUMNS } from './bound-markdown';
import { type Context, imageRefOf, MAX_NESTING, type Piece } from './document-context';
import { fit, LIST_ITEM_CHILDREN, nonEmpty, QUOTE_CHILDREN } from './document-fit';
import { headingId, htmlBlocks } from './document-html';
import {
  append,
  leaf,
  normalize,
  paragraph,
  phrasing,
  textNode,
  trimPieces,
} from './document-inlines';
import {
  detailsClosings,
  expandable,
  liquidBlock,
  liquidClosings,
  liquidTagOf,
} from './document-liquid';
import { nodeText } from '../../shared/markdown/node-text';

export function blocksOf(children: readonly RootContent[], ctx: Context): DocumentBlock[] {
  if (ctx.depth >= MAX_NESTING) {
    const text = children
      .map((child) => nodeText(child))
      .join(' ')
      .trim();
    return text ? [paragraph([leaf(text)])] : [];
  }
  ctx.depth += 1;
  try {
    return blocksAt(children, ctx);
  } finally {
    ctx.depth -= 1;
  }
}

function blocksAt(children: readonly RootContent[], ctx: Context): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  const tagClosings = liquidClosings(children, ctx);
  let detailClosings: Map<number, number> | undefined;
  for (let i = 0; i < children.length; i += 1) {
    const node = children[i];
    if (!node) continue;
    const tag = liquidTagOf(node, ctx);
    if (tag) {
      if (tag.name.startsWith('end')) continue; // a stray closing tag
      const end = tagClosings.get(i) ?? -1;
      const inner = end >= 0 ? children.slice(i + 1, end) : [];
      append(blocks, liquidBlock(tag, inner, ctx));
      if (end >= 0) i = end;
      continue;
    }
    if (node.type === 'html' && /^\s*<details[\s>]/i.test(node.value)) {
      detailClosings ??= detailsClosings(children);
      const end = detailClosings.get(i) ?? -1;
      if (end >= 0) {
        blocks.push(expandable(node, children.slice(i + 1, end), ctx));
        i = end;
        continue;
      }
    }
    append(blocks, blockOf(node, ctx));
  }
  return blocks;
}

function blockOf(node: RootContent, ctx: Context): DocumentBlock[] {
  switch (node.type) {
    case 'paragraph':
      return paragraphBlocks(node.children, ctx);
    case 'heading': {
      if (node.depth >= 5) return [paragraph(phrasing(node.children, ['bold'], ctx))];
      const type = node.depth <= 2 ? 'heading-1' : node.depth === 3 ? 'heading-2' : 'heading-3';
      const id = headingId(node.children);
      return [
        {
          object: 'block',
          type,
          data: id ? { id } : {},
          // Trimmed: the dropped `<a id>` anchor leaves the space that preceded it.
          nodes: normalize(trimPieces(phrasing(node.children, [], ctx))),
        },
      ];
    }
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
    case 'blockquote': {
      const quote: DocumentBlockQuote = {
        object: 'block',
        type: 'blockquote',
        data: {},
        nodes: nonEmpty(
          fit<DocumentBlockQuote['nodes'][number]>(
            blocksOf(node.children, ctx),
            QUOTE_CHILDREN,
            ctx,
          ),
        ),
      };
      return [quote];
    }
    case 'code':
      return [
        {
          object: 'block',
          type: 'code',
          data: node.lang ? { syntax: node.lang } : {},
          nodes: node.value.split('\n').map((line) => ({
            object: 'block' as const,
            type: 'code-line' as const,
            data: {},
            nodes: [textNode([{ kind: 'leaf', text: line, marks: [] }])],
          })),
        },
      ];
    case 'list': {
      const tasks =
        !node.ordered && node.children.some((item) => typeof item.checked === 'boolean');
      const items: DocumentBlockListItem[] = node.children.map((item) => ({
        object: 'block',
        type: 'list-item',
        data: tasks ? { checked: item.checked === true } : {},
        nodes: nonEmpty(
          fit<DocumentBlockListItem['nodes'][number]>(
            blocksOf(item.children, ctx),
            LIST_ITEM_CHILDREN,
            ctx,
          ),
        ),
      }));
      if (node.ordered) {
        return [
          {
            object: 'block',
            type: 'list-ordered',
            data: typeof node.start === 'number' && node.start !== 1 ? { start: node.start } : {},
            nodes: items,
          },
        ];
      }
      return [
        { object: 'block', type: tasks ? 'list-tasks' : 'list-unordered', data: {}, nodes: items },
      ];
    }
    case 'table':
      return [
        table(
          node.children.map((row) => row.children),
          node.align ?? [],
          ctx,
        ),
      ];
    case 'html':
      return htmlBlocks(node.value, ctx);
    case 'footnoteDefinition':
      return blocksOf(node.children, ctx);
    case 'definition':
      return [];
    default:
      // Phrasing content at block level does not occur in remark output; keep its text if it does.
      return 'children' in node || 'value' in node ? [paragraph([leaf(nodeText(node))])] : [];
  }
}

/** A paragraph; one of only images becomes an `images` block; `$$…$$` becomes math. */
function paragraphBlocks(children: PhrasingContent[], ctx: Context): DocumentBlock[] {
  const meaningful = children.filter(
    (child) => !(child.type === 'text' && child.value.trim() === '') && child.type !== 'break',
  );
  const images = meaningful.filter(
    (child) => child.type === 'image' || child.type === 'imageReference',
  );
  if (meaningful.length > 0 && images.length === meaningful.length) {
    const nodes: DocumentBlockImage[] = [];
    for (const child of images) {
      const target =
        child.type === 'image' ? child.url : ctx.definitions.get(child.identifier)?.url;
      if (target !== undefined)
        nodes.push(imageBlock(target, child.alt ?? undefined, undefined, undefined, ctx));
    }
    if (nodes.length > 0)
      return [{ object: 'block', type: 'images', data: {}, nodes, isVoid: false }];
  }
  const only = children.length === 1 ? children[0] : undefined;
  if (only?.type === 'text') {
    const math = /^\$\$([\s\S]+)\$\$$/.exec(only.value.trim());
    if (math?.[1]?.trim())
      return [{ object: 'block', type: 'math', data: { formula: math[1].trim() }, isVoid: true }];
  }
  return [paragraph(phrasing(children, [], ctx))];
}

export function imageBlock(
  src: string,
  alt: string | undefined,
  caption: string | undefined,
  darkSrc: string | undefined,
  ctx: Context,
): DocumentBlockImage {
  return {
    object: 'block',
    type: 'image',
    isVoid: true,
    data: {
      ref: imageRefOf(src, ctx),
      ...(darkSrc ? { refDark: imageRefOf(darkSrc, ctx) } : {}),
      ...(alt ? { alt } : {}),
    },
    fragments: caption
      ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([leaf(caption)])] }]
      : [],
  };
}

/** GFM table → grid table: one text column per Markdown column; each cell is a fragment. */
function table(
  rows: TableCell[][],
  align: ReadonlyArray<string | null>,
  ctx: Context,
): DocumentBlockTable {
  ctx.tables += 1;
  const prefix = `t${ctx.tables}`;
  const [header = [], ...body] = rows;
  let widest = header.length;
  for (const row of body) widest = Math.max(widest, row.length);
  const width = Math.min(widest, MAX_TABLE_COLUMNS);
  const columns = Array.from({ length: width }, (_, i) => `${prefix}c${i + 1}`);
  const definition: DocumentBlockTable['data']['definition'] = {};
  columns.forEach((id, i) => {
    const alignment = align[i];
    const cell = header[i];
    definition[id] = {
      id,
      title: cell ? nodeText(cell).trim() : '',
      type: 'text',
      textAlignment: alignment === 'center' || alignment === 'right' ? alignment : 'left',
    };
  });
  const records: DocumentBlockTable['data']['records'] = {};
  const fragments: DocumentFragment[] = [];
  // Short rows are padded with empty cells while that at most doubles the cell count: a wide
  // header over thousands of one-cell rows must not multiply the document.
  let padding = width;
  for (const row of body) padding += Math.min(row.length, width);
  body.forEach((row, r) => {
    const values: Record<string, string> = {};
    columns.forEach((column, c) => {
      if (c >= row.length && padding-- <= 0) return;
      const fragment = `${prefix}r${r + 1}c${c + 1}`;
      fragments.push({
        object: 'fragment',
        fragment,
        nodes: [paragraph(cellPieces(row, c, c === width - 1, ctx))],
      });
      values[column] = fragment;
    });
    // Zero-padded so the renderer's string sort keeps Markdown row order past 9 rows.
    records[`${prefix}r${r + 1}`] = { orderIndex: String(r).padStart(6, '0'), values };
  });
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: { view: { type: 'grid', columns, hideHeader: false }, records, definition },
    fragments,
  };
}

/** A cell's inline content; the last column also keeps, as text, the cells beyond the table's width. */
function cellPieces(row: readonly TableCell[], c: number, last: boolean, ctx: Context): Piece[] {
  const cell = row[c];
  const pieces = cell ? phrasing(cell.children, [], ctx) : [];
  if (last) {
    for (let extra = c + 1; extra < row.length; extra++) {
      pieces.push(leaf(' | '));
      append(pieces, phrasing(row[extra]!.children, [], ctx));
    }
  }
  return pieces;
}
