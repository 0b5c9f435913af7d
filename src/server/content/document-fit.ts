/**
 * Fitting blocks into what each container may hold in the published schema: a block a container
 * may not hold is lowered (containers give up their children, leaf blocks become paragraphs).
 */
import type {
  ContentRef,
  DocumentBlock,
  DocumentBlockExpandable,
  DocumentBlockHint,
  DocumentBlockImage,
  DocumentBlockListItem,
  DocumentBlockParagraph,
  DocumentBlockQuote,
  DocumentBlockTable,
  DocumentBlockTabsItem,
  DocumentInline,
  DocumentInlineImage,
  DocumentText,
  JSONDocument,
} from '@gitbook/api';
import { type Context, type Leaf, MARK_ORDER, type MarkType, type Piece } from './document-context';
import { append, isLeaf, leaf, linkInline, paragraph } from './document-inlines';

type TopLevel = JSONDocument['nodes'][number];
export type BodyNode = Extract<
  DocumentBlockExpandable['fragments'][number],
  { fragment: 'expandable-body' }
>['nodes'][number];
type BlockType = DocumentBlock['type'];

const ESSENTIALS = [
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'divider',
] as const;

export const TOP_LEVEL = new Set<TopLevel['type']>([
  ...ESSENTIALS,
  'blockquote',
  'hint',
  'images',
  'file',
  'embed',
  'code',
  'math',
  'expandable',
  'tabs',
  'table',
  'content-ref',
]);
export const HINT_CHILDREN = new Set<DocumentBlockHint['nodes'][number]['type']>([
  ...ESSENTIALS,
  'embed',
  'table',
]);
export const QUOTE_CHILDREN = new Set<DocumentBlockQuote['nodes'][number]['type']>([
  ...ESSENTIALS,
  'blockquote',
]);
export const LIST_ITEM_CHILDREN = new Set<DocumentBlockListItem['nodes'][number]['type']>([
  ...ESSENTIALS,
  'code',
  'hint',
  'blockquote',
  'math',
  'table',
]);
export const TAB_CHILDREN = new Set<DocumentBlockTabsItem['nodes'][number]['type']>([
  ...ESSENTIALS,
  'content-ref',
  'code',
  'embed',
  'file',
  'images',
  'hint',
  'blockquote',
  'math',
]);
export const EXPANDABLE_CHILDREN = new Set<BodyNode['type']>([
  ...ESSENTIALS,
  'file',
  'images',
  'code',
  'table',
  'hint',
  'blockquote',
]);

/**
 * Keeps the blocks a container may hold (the published schema's `nodes` union for it) and lowers
 * the others into ones it may: content is flattened or turned into paragraphs, never dropped.
 * `allowed` is typed by T's `type`s, so a set naming a block T excludes fails to compile.
 */
export function fit<T extends DocumentBlock>(
  blocks: readonly DocumentBlock[],
  allowed: ReadonlySet<T['type']>,
  ctx: Context,
): T[] {
  const out: T[] = [];
  const isAllowed = (block: DocumentBlock): block is T =>
    (allowed as ReadonlySet<BlockType>).has(block.type);
  for (const block of blocks) {
    if (isAllowed(block)) out.push(block);
    else append(out, fit<T>(lower(block), allowed, ctx));
  }
  return out;
}

/** One level simpler: containers give up their children, leaf blocks become paragraphs. */
function lower(block: DocumentBlock): DocumentBlock[] {
  switch (block.type) {
    case 'images':
      return [paragraph(block.nodes.map((image): DocumentInlineImage => imageInline(image)))];
    case 'image':
      return [paragraph([imageInline(block)])];
    case 'code': {
      const text = block.nodes
        .map((line) =>
          line.nodes
            .map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : ''))
            .join(''),
        )
        .join('\n');
      return [paragraph([{ kind: 'leaf', text, marks: ['code'] }])];
    }
    case 'math':
      return [paragraph([{ kind: 'leaf', text: block.data.formula, marks: ['code'] }])];
    case 'embed':
      return [
        paragraph([linkInline({ kind: 'url', url: block.data.url }, [leaf(block.data.url)])]),
      ];
    case 'content-ref':
    case 'file':
      return [paragraph([linkInline(block.data.ref, [leaf(refLabel(block.data.ref))])])];
    case 'table':
      return tableRows(block);
    case 'expandable':
      return block.fragments.flatMap((fragment) => fragment.nodes);
    case 'list-item':
      return block.nodes;
    case 'code-line':
      return [
        paragraph(
          block.nodes
            .filter((node): node is DocumentText => node.object === 'text')
            .flatMap(textPieces),
        ),
      ];
    default:
      if ('nodes' in block && Array.isArray(block.nodes)) {
        return (block.nodes as ReadonlyArray<DocumentBlock | DocumentText | DocumentInline>).filter(
          (node): node is DocumentBlock => node.object === 'block',
        );
      }
      return [];
  }
}

function imageInline(image: DocumentBlockImage): DocumentInlineImage {
  return {
    object: 'inline',
    type: 'inline-image',
    isVoid: true,
    data: { ref: image.data.ref, ...(image.data.alt ? { alt: image.data.alt } : {}) },
  };
}

function refLabel(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return ref.page;
    case 'file':
      return ref.file;
    case 'anchor':
      return `#${ref.anchor}`;
    default:
      return ref.kind;
  }
}

function textPieces(text: DocumentText): Leaf[] {
  return text.leaves.map((item) => ({
    kind: 'leaf',
    text: item.text,
    marks: item.marks
      .map((mark) => mark.type)
      .filter((type): type is MarkType => (MARK_ORDER as readonly string[]).includes(type)),
  }));
}

/** A table where tables may not go: one paragraph per row, cells separated by " | ". */
function tableRows(block: DocumentBlockTable): DocumentBlockParagraph[] {
  const { view, definition, records } = block.data;
  const fragments = new Map(block.fragments.map((fragment) => [fragment.fragment, fragment]));
  const cellPieces = (value: unknown): Piece[] => {
    const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
    const first = fragment?.nodes[0];
    return first?.type === 'paragraph'
      ? first.nodes.flatMap((node): Piece[] => (node.object === 'text' ? textPieces(node) : [node]))
      : [];
  };
  const separated = (cells: Piece[][]): Piece[] =>
    cells.flatMap((cell, i) => (i === 0 ? cell : [leaf(' | '), ...cell]));
  const header = view.columns.map((column) => [leaf(definition[column]?.title ?? '')]);
  const rows = Object.values(records)
    .sort((a, b) => a.orderIndex.localeCompare(b.orderIndex))
    .map((record) => separated(view.columns.map((column) => cellPieces(record.values[column]))));
  return [
    paragraph(
      separated(header).map((piece) => (isLeaf(piece) ? { ...piece, marks: ['bold'] } : piece)),
    ),
    ...rows.map(paragraph),
  ];
}

/** Containers must hold at least one block in the editor model. */
export function nonEmpty<T extends DocumentBlock>(blocks: T[]): T[] {
  return blocks.length > 0 ? blocks : [paragraph([]) as DocumentBlock as T];
}
