/**
 * Markdown (as Git Sync writes it) → the published GitBook JSON document (`JSONDocument`). The
 * pieces: document-context (options, refs), document-blocks, document-liquid (`{% tags %}`,
 * `<details>`), document-html, document-inlines and document-fit (what each container may hold).
 *
 * Mapped (published shape in @gitbook/api `components.schemas.Document*`):
 * - paragraph; headings `#`/`##` → heading-1, `###` → heading-2, `####` → heading-3 (Git Sync writes
 *   editor H1–H3 one level down; `#####`+ become bold paragraphs, as Git Sync does), the custom
 *   anchor `<a … id="x"></a>` → `data.id`;
 * - marks bold, italic, code, strikethrough; links (`data.ref`: `/pages/<id>` → page ref, `/files/<id>`
 *   → file ref, `#x` → anchor ref, anything else → url ref, or what `resolveRef` says); hard breaks;
 *   inline images (`![]()` inside text, inline `<img>`);
 * - list-unordered / list-ordered (`data.start`) / list-tasks (`data.checked` on items), blockquote,
 *   divider, code (`data.syntax`, and `{% code title overflow lineNumbers expandable fullWidth %}`),
 *   GFM table (grid view, one text column per Markdown column, each cell a fragment), images/image
 *   (paragraphs of only images, `<figure>`/`<img>`/`<picture>` HTML with caption, dark variant,
 *   align/frame/full-width wrappers), `{% hint %}`, `{% tabs %}/{% tab %}`, `{% embed %}`,
 *   `{% content-ref %}`, `{% file %}` (only when `resolveRef` yields a file ref), `<details>` →
 *   expandable, `$$…$$` paragraphs → math.
 *
 * Not mapped (content kept as plain blocks where it has text): stepper, columns, updates, `if`,
 * prompt, OpenAPI and integration blocks, `{% include %}` / reusable content, drawings, HTML/cards
 * tables (their text becomes a paragraph), inline HTML formatting (`<mark>`, icons, expressions,
 * emoji spans, `<a href>` in text), inline math, footnotes (kept as text), keyboard/super/subscript
 * marks, colours. Blocks a container may not hold in the published schema (e.g. an image in a list
 * item, code in a hint) are lowered to paragraphs rather than dropped. No `key`s are generated.
 */
import type { JSONDocument } from '@gitbook/api';
import type { Nodes } from 'mdast';
import { blocksOf } from './document-blocks';
import type { Context, MarkdownToDocumentOptions } from './document-context';
import { fit, TOP_LEVEL } from './document-fit';
import { append } from './document-inlines';
import { isolateLiquidTags } from './document-liquid';
import { parseMarkdown } from './parse-markdown';

export {
  defaultContentRef,
  MAX_DOCUMENT_NESTING,
  type MarkdownToDocumentOptions,
  type RefUsage,
} from './document-context';

/**
 * Builds the published JSON document of a Markdown body (pass `readPageMarkdown(md).body`: the
 * frontmatter and title heading are not part of the document). Never throws on malformed Markdown.
 */
export function markdownToDocument(
  markdown: string,
  options: MarkdownToDocumentOptions = {},
): JSONDocument {
  const source = isolateLiquidTags(markdown.replace(/^\uFEFF/, ''));
  const root = parseMarkdown(source);
  const ctx: Context = {
    options,
    source,
    definitions: new Map(),
    tables: 0,
    depth: 0,
    inlineDepth: 0,
    tags: new WeakMap(),
  };
  collectDefinitions(root, ctx);
  const nodes = fit<JSONDocument['nodes'][number]>(blocksOf(root.children, ctx), TOP_LEVEL, ctx);
  return { object: 'document', data: {}, nodes };
}

function collectDefinitions(root: Nodes, ctx: Context): void {
  const stack: Nodes[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'definition' && !ctx.definitions.has(node.identifier)) {
      ctx.definitions.set(node.identifier, { url: node.url, title: node.title });
    }
    if ('children' in node) append(stack, node.children as Nodes[]);
  }
}
