/**
 * Git Sync's liquid tags (`{% hint %}`, `{% tabs %}`, `{% embed %}` …) for the views: each tag
 * stands on its own paragraph once isolateLiquidTags has run. A hint becomes a blockquote around
 * its content, a tab's title a bold line, an embed a link to its URL; every other tag line is
 * dropped and its content kept. One pass over the root's children, never a parse.
 */
import type { Blockquote, Paragraph, Root, RootContent } from 'mdast';
import { nodeText } from '../../shared/markdown/node-text';

interface Tag {
  name: string;
  attributes: Map<string, string>;
}

const TAG = /^\{%\s*([a-z][a-z-]*)\b([^%]*)%\}$/;
const ATTRIBUTE = /([a-zA-Z-]+)="([^"]*)"/g;

/** The liquid tag a paragraph consists of, if that is all it holds. */
function tagOf(node: RootContent): Tag | undefined {
  if (node.type !== 'paragraph') return undefined;
  // GFM may have turned a URL inside the tag into a link: the tag is the paragraph's text.
  const match = TAG.exec(nodeText(node).trim());
  if (!match) return undefined;
  const attributes = new Map<string, string>();
  for (const [, name, value] of (match[2] ?? '').matchAll(ATTRIBUTE)) {
    attributes.set(name!, value!);
  }
  return { name: match[1]!, attributes };
}

function paragraphOf(content: Paragraph['children']): Paragraph {
  return { type: 'paragraph', children: content };
}

/** What a tag line shows in place of itself, if anything. */
function replacement(tag: Tag): Paragraph | undefined {
  const title = tag.attributes.get('title');
  if (tag.name === 'tab' && title) {
    return paragraphOf([{ type: 'strong', children: [{ type: 'text', value: title }] }]);
  }
  const url = tag.attributes.get('url');
  if (tag.name === 'embed' && url) {
    return paragraphOf([{ type: 'link', url, children: [{ type: 'text', value: url }] }]);
  }
  return undefined;
}

export function liquidBlocks(root: Root): void {
  const out: RootContent[] = [];
  const hints: Blockquote[] = [];
  const target = () => (hints.at(-1)?.children as RootContent[] | undefined) ?? out;
  for (const node of root.children) {
    const tag = tagOf(node);
    if (!tag) {
      target().push(node);
    } else if (tag.name === 'hint') {
      const hint: Blockquote = { type: 'blockquote', children: [] };
      target().push(hint);
      hints.push(hint);
    } else if (tag.name === 'endhint') {
      hints.pop();
    } else {
      const shown = replacement(tag);
      if (shown) target().push(shown);
    }
  }
  root.children = out;
}
