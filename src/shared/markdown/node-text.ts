import type { Nodes } from 'mdast';

/** Text of a node (image alts included, raw HTML excluded), without recursion. */
export function nodeText(node: Nodes): string {
  let text = '';
  const stack: Nodes[] = [node];
  for (let current = stack.pop(); current; current = stack.pop()) {
    if (current.type === 'image' || current.type === 'imageReference') text += current.alt ?? '';
    else if ('value' in current) text += current.type === 'html' ? '' : current.value;
    else if ('children' in current) {
      for (let i = current.children.length - 1; i >= 0; i -= 1)
        stack.push(current.children[i] as Nodes);
    }
  }
  return text;
}
