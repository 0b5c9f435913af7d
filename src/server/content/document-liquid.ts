/** Git Sync's liquid tags (`{% hint %}`, `{% tabs %}` …) and `<details>` → document blocks. */
import type {
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockExpandable,
  DocumentBlockHint,
  DocumentBlockTabsItem,
} from '@gitbook/api';
import type { Html, RootContent } from 'mdast';
import { blocksOf } from './document-blocks';
import { type Context, refOf } from './document-context';
import {
  type BodyNode,
  EXPANDABLE_CHILDREN,
  fit,
  HINT_CHILDREN,
  nonEmpty,
  TAB_CHILDREN,
} from './document-fit';
import { htmlText } from './document-html';
import { decodeURIComponentSafe, leaf, linkInline, paragraph } from './document-inlines';
import { elementContent, someTag } from './html-scan';

/**
 * Git Sync writes `{% hint %}` and friends on their own lines with no blank line around them, so
 * CommonMark would fold them into the neighbouring paragraph. Surrounding each tag line (outside
 * fenced code) with blank lines makes every tag its own paragraph.
 */
export function isolateLiquidTags(markdown: string): string {
  const out: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of markdown.split('\n')) {
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (
        fenceMatch?.[1]?.[0] === fence.char &&
        fenceMatch[1].length >= fence.length &&
        /^\s*[`~]+\s*$/.test(line)
      ) {
        fence = null;
      }
      out.push(line);
    } else if (fenceMatch?.[1]) {
      fence = { char: fenceMatch[1][0] ?? '`', length: fenceMatch[1].length };
      out.push(line);
    } else if (/^\s*\{%.*%\}\s*$/.test(line)) {
      out.push('', line, '');
    } else {
      out.push(line);
    }
  }
  return out.join('\n');
}

export interface LiquidTag {
  name: string;
  attributes: Record<string, string>;
  /** The first bare quoted argument (`{% include "x.md" %}`). */
  argument?: string;
}

export function liquidTagOf(node: RootContent, ctx: Context): LiquidTag | undefined {
  const cached = ctx.tags.get(node);
  if (cached !== undefined) return cached ?? undefined;
  const tag = readLiquidTag(node, ctx);
  ctx.tags.set(node, tag ?? null);
  return tag;
}

function readLiquidTag(node: RootContent, ctx: Context): LiquidTag | undefined {
  if (node.type !== 'paragraph') return undefined;
  const from = node.position?.start.offset;
  const to = node.position?.end.offset;
  if (from === undefined || to === undefined) return undefined;
  // The tag's name, then its arguments up to `%}` (sliced, not matched: a lazy `[\s\S]*?\s*%\}`
  // retries the whitespace run at each of its characters).
  const source = ctx.source.slice(from, to).trim();
  const head = /^\{%\s*([a-z@][\w@/-]*)/i.exec(source);
  if (!head?.[1] || !source.endsWith('%}') || source.length < head[0].length + 2) return undefined;
  const attributes: Record<string, string> = {};
  const rest = source.slice(head[0].length, -2).trim();
  // The lookbehind starts each name at a word start: otherwise every suffix of a long word is tried.
  for (const attribute of rest.matchAll(/(?<![\w-])([\w-]+)\s*=\s*"([^"]*)"/g)) {
    if (attribute[1]) attributes[attribute[1]] = attribute[2] ?? '';
  }
  const argument = /^"([^"]*)"/.exec(rest)?.[1];
  return {
    name: head[1].toLowerCase(),
    attributes,
    ...(argument !== undefined ? { argument } : {}),
  };
}

/**
 * For each liquid tag in `children`, the index of the tag closing it (`{% endname %}`), honouring
 * nesting of the same name. One pass with a stack per tag name: scanning ahead from every opening
 * tag would be quadratic in a page of unclosed tags.
 */
export function liquidClosings(
  children: readonly RootContent[],
  ctx: Context,
): Map<number, number> {
  const closings = new Map<number, number>();
  const opened = new Map<string, number[]>();
  children.forEach((child, i) => {
    const tag = liquidTagOf(child, ctx);
    if (!tag) return;
    if (tag.name.startsWith('end')) {
      const open = opened.get(tag.name.slice(3))?.pop();
      if (open !== undefined) closings.set(open, i);
    } else {
      const stack = opened.get(tag.name);
      if (stack) stack.push(i);
      else opened.set(tag.name, [i]);
    }
  });
  return closings;
}

/**
 * For each `<details>` HTML child, the index of the child holding its `</details>`: the first
 * later child where the `<details>`/`</details>` balance counted from it drops below zero, i.e.
 * the next child whose running balance is lower — found for all at once with a monotonic stack.
 */
export function detailsClosings(children: readonly RootContent[]): Map<number, number> {
  const closings = new Map<number, number>();
  const waiting: Array<{ index: number; balance: number }> = [];
  let balance = 0;
  children.forEach((child, i) => {
    if (child.type === 'html') {
      balance += (child.value.match(/<details[\s>]/gi) ?? []).length;
      balance -= (child.value.match(/<\/details\s*>/gi) ?? []).length;
      while (waiting.length > 0 && waiting[waiting.length - 1]!.balance > balance)
        closings.set(waiting.pop()!.index, i);
    }
    waiting.push({ index: i, balance });
  });
  return closings;
}

export function liquidBlock(
  tag: LiquidTag,
  inner: readonly RootContent[],
  ctx: Context,
): DocumentBlock[] {
  const { attributes } = tag;
  switch (tag.name) {
    case 'hint': {
      const style = attributes.style;
      const hint: DocumentBlockHint = {
        object: 'block',
        type: 'hint',
        data: {
          style: style === 'warning' || style === 'danger' || style === 'success' ? style : 'info',
          ...(attributes.icon ? { icon: attributes.icon } : {}),
        },
        nodes: nonEmpty(
          fit<DocumentBlockHint['nodes'][number]>(blocksOf(inner, ctx), HINT_CHILDREN, ctx),
        ),
      };
      return [hint];
    }
    case 'code': {
      const blocks = blocksOf(inner, ctx);
      const code = blocks.find((block): block is DocumentBlockCode => block.type === 'code');
      if (code) {
        if (attributes.title) code.data.title = attributes.title;
        if (attributes.overflow === 'wrap' || attributes.overflow === 'scroll')
          code.data.overflow = attributes.overflow;
        if (attributes.lineNumbers !== undefined)
          code.data.lineNumbers = attributes.lineNumbers === 'true';
        if (attributes.expandable !== undefined)
          code.data.expandable = attributes.expandable === 'true';
        if (attributes.fullWidth !== undefined)
          code.data.fullWidth = attributes.fullWidth === 'true';
      }
      return blocks;
    }
    case 'tabs': {
      const items = blocksOf(inner, ctx).filter(
        (block): block is DocumentBlockTabsItem => block.type === 'tabs-item',
      );
      return items.length > 0 ? [{ object: 'block', type: 'tabs', data: {}, nodes: items }] : [];
    }
    case 'tab': {
      const item: DocumentBlockTabsItem = {
        object: 'block',
        type: 'tabs-item',
        data: {
          ...(attributes.title !== undefined ? { title: attributes.title } : {}),
          ...(attributes.icon ? { icon: attributes.icon } : {}),
        },
        nodes: nonEmpty(
          fit<DocumentBlockTabsItem['nodes'][number]>(blocksOf(inner, ctx), TAB_CHILDREN, ctx),
        ),
      };
      return [item];
    }
    case 'embed': {
      const url = attributes.url;
      const caption = blocksOf(inner, ctx);
      return url
        ? [{ object: 'block', type: 'embed', data: { url }, isVoid: true }, ...caption]
        : caption;
    }
    case 'content-ref': {
      const url = attributes.url;
      return url
        ? [
            {
              object: 'block',
              type: 'content-ref',
              data: { ref: refOf(url, 'content-ref', ctx) },
              isVoid: true,
            },
          ]
        : [];
    }
    case 'file': {
      const src = attributes.src;
      const caption = blocksOf(inner, ctx);
      if (!src) return caption;
      const ref = refOf(src, 'file', ctx);
      if (ref.kind === 'file')
        return [{ object: 'block', type: 'file', data: { ref }, isVoid: true }, ...caption];
      const name = decodeURIComponentSafe(src.split('/').pop() ?? src);
      return [paragraph([linkInline(ref, [leaf(name)])]), ...caption];
    }
    default:
      // Unknown or unmapped tags (stepper, columns, include, …): keep what they contain.
      return blocksOf(inner, ctx);
  }
}

export function expandable(
  open: Html,
  inner: readonly RootContent[],
  ctx: Context,
): DocumentBlockExpandable {
  const children = [...inner];
  let title = '';
  const inOpen = elementContent(open.value, 'summary');
  if (inOpen !== undefined) title = htmlText(inOpen);
  else {
    const at = children.findIndex(
      (child) => child.type === 'html' && /<summary/i.test(child.value),
    );
    const summary = children[at];
    if (summary?.type === 'html') {
      title = htmlText(elementContent(summary.value, 'summary') ?? '');
      children.splice(at, 1);
    }
  }

  return {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: someTag(open.value, 'details', /\sopen[\s>=]/i) ? { defaultExpanded: true } : {},
    fragments: [
      {
        object: 'fragment',
        fragment: 'expandable-title',
        type: 'expandable-title',
        nodes: [paragraph([leaf(title)])],
      },
      {
        object: 'fragment',
        fragment: 'expandable-body',
        type: 'expandable-body',
        nodes: nonEmpty(fit<BodyNode>(blocksOf(children, ctx), EXPANDABLE_CHILDREN, ctx)),
      },
    ],
  };
}
