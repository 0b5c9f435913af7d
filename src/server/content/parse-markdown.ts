/** The server's one Markdown parser (CommonMark + GFM, bounded first). */
import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { boundMarkdownEscapes, originalPoint } from './bound-markdown';
// micromark's event edits are quadratic in the document without it (see the module).
import './linear-micromark';

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * Parses Markdown the way the content features do (CommonMark + GFM), bounded first (see
 * boundMarkdown): pathological nesting and marker runs are read as text, so any input parses in
 * about linear time and the tree is at most MAX_CONTAINER_DEPTH containers deep. Positions are
 * those of the original Markdown.
 */
export function parseMarkdown(markdown: string): Root {
  const { text, escapes } = boundMarkdownEscapes(markdown);
  const root = parser.parse(text);
  if (escapes.length > 0) restorePositions(root, escapes);
  return root;
}

/** Moves every node position from the bounded text back to the original (iteratively). */
function restorePositions(root: Root, escapes: readonly number[]): void {
  type Point = NonNullable<Nodes['position']>['start'];
  const done = new WeakSet<Point>();
  const restore = (point: Point | undefined) => {
    if (!point || point.offset === undefined || done.has(point)) return;
    const original = originalPoint(escapes, point.offset, point.column);
    point.offset = original.offset;
    point.column = original.column;
    done.add(point);
  };
  const stack: Nodes[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    restore(node.position?.start);
    restore(node.position?.end);
    if ('children' in node) for (const child of node.children) stack.push(child as Nodes);
  }
}
