import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { DocumentBlock, JSONDocument } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { corpusAvailable, SHARED_CORPUS } from '../../../test/support/shared-corpus';
import { FrontmatterError, readPageMarkdown } from './markdown-document';
import { markdownToDocument } from './markdown-to-document';

// --- a minimal validator for the JSON-Schema subset the published OpenAPI document uses -------

type Schema = Record<string, unknown>;
const spec = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as {
  components: { schemas: Record<string, Schema> };
};

/**
 * Errors of `value` against `schema`. With `quick`, stops at the first error and checks the
 * discriminating (`enum`) properties first — oneOf options are tried that way, which keeps the
 * check linear instead of exponential in the document depth.
 */
function schemaErrors(value: unknown, schema: Schema, path = '$', quick = false): string[] {
  if (typeof schema.$ref === 'string') {
    const target = spec.components.schemas[schema.$ref.split('/').pop() ?? ''];
    return target ? schemaErrors(value, target, path, quick) : [`${path}: unknown ${schema.$ref}`];
  }
  const errors: string[] = [];
  const failed = () => quick && errors.length > 0;
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    const ok = types.some(
      (type) => type === actual || (type === 'integer' && Number.isInteger(value)),
    );
    if (!ok) return [`${path}: expected ${types.join('|')}, got ${actual}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return [`${path}: not in enum`];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!(key in object)) errors.push(`${path}: missing ${key}`);
      if (failed()) return errors;
    }
    const keys = Object.keys(object).sort(
      (a, b) => Number(!properties[a]?.enum) - Number(!properties[b]?.enum),
    );
    for (const key of keys) {
      const property = properties[key];
      if (property) errors.push(...schemaErrors(object[key], property, `${path}.${key}`, quick));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected ${key}`);
      else if (typeof schema.additionalProperties === 'object') {
        errors.push(
          ...schemaErrors(
            object[key],
            schema.additionalProperties as Schema,
            `${path}.${key}`,
            quick,
          ),
        );
      }
      if (failed()) return errors;
    }
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf as Schema[]) {
      errors.push(...schemaErrors(value, part, path, quick));
      if (failed()) return errors;
    }
  }
  if (Array.isArray(schema.oneOf)) {
    const options = schema.oneOf as Schema[];
    const matching = options.filter(
      (option) => schemaErrors(value, option, path, true).length === 0,
    );
    if (matching.length === 0 && !quick) {
      // Report why the closest option failed, for a readable test failure.
      const reasons = options.map((option) => schemaErrors(value, option, path));
      errors.push(
        reasons.sort((a, b) => a.length - b.length)[0]?.join('; ') ?? `${path}: no oneOf`,
      );
    } else if (matching.length !== 1) errors.push(`${path}: matches ${matching.length} of oneOf`);
    if (failed()) return errors;
  }
  if (Array.isArray(schema.anyOf)) {
    if (
      !(schema.anyOf as Schema[]).some(
        (option) => schemaErrors(value, option, path, true).length === 0,
      )
    ) {
      errors.push(`${path}: matches none of anyOf`);
    }
  }
  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
      errors.push(`${path}: does not match ${schema.pattern}`);
    }
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
      errors.push(`${path}: too long`);
    }
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      errors.push(`${path}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      errors.push(`${path}: above maximum`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
      errors.push(`${path}: too few items`);
    }
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
      errors.push(`${path}: too many items`);
    }
    if (schema.items) {
      for (const [i, item] of value.entries()) {
        errors.push(...schemaErrors(item, schema.items as Schema, `${path}[${i}]`, quick));
        if (failed()) return errors;
      }
    }
  }
  return errors;
}

function expectPublishedShape(document: JSONDocument) {
  expect(schemaErrors(document, { $ref: '#/components/schemas/JSONDocument' })).toEqual([]);
}

/** Plain text of a block, for compact assertions. */
function textOf(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const record = node as { object?: string; leaves?: Array<{ text: string }>; nodes?: unknown[] };
  if (record.object === 'text') return (record.leaves ?? []).map((leaf) => leaf.text).join('');
  return (record.nodes ?? []).map(textOf).join('');
}

// The corpus lives in shared/ beside the checkout; a fresh clone without it skips that test.
const CORPUS = SHARED_CORPUS;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === '.gitbook' ? [] : markdownFiles(full);
    return name.endsWith('.md') ? [full] : [];
  });
}

describe('markdownToDocument', () => {
  const sample = `## Intro <a href="#intro" id="intro"></a>

Some **bold _both_** and \`code\` and ~~gone~~, [a link](https://example.com "t"), [a page](/pages/pg1#setup),
[an anchor](#intro) and a [file](/files/f1).\\
After a hard break.

### Second level

#### Third level

##### Too deep

{% hint style="warning" icon="bell" %}
Careful **here**
\`\`\`js
danger()
\`\`\`
{% endhint %}

* [ ] todo
* [x] done

3. three
4. four

- plain
  - nested

> quoted
>
> \`\`\`sh
> echo hi
> \`\`\`

| Name | Value |
|:----:|------:|
| one  | **1** |
| two  | [2](https://two.example) |

![Alt text](.gitbook/assets/a.png)

<figure><img src="../.gitbook/assets/b (1).png" alt="B"><figcaption><p>A caption</p></figcaption></figure>

{% code title="index.js" overflow="wrap" lineNumbers="true" %}
\`\`\`javascript
const a = 1;
console.log(a);
\`\`\`
{% endcode %}

***

<details>

<summary>More</summary>

Hidden text

</details>

{% tabs %}
{% tab title="Windows" %}
Win
{% endtab %}

{% tab title="macOS" %}
Mac
{% endtab %}
{% endtabs %}

{% embed url="https://www.youtube.com/watch?v=x" %}

{% content-ref url="/pages/pg2" %}
[pg2](/pages/pg2)
{% endcontent-ref %}

$$
x^2
$$
`;
  const document = markdownToDocument(sample);
  const types = document.nodes.map((node) => node.type);

  it('checks documents against the published schema (the check is not vacuous)', () => {
    const bad = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', data: { bogus: 1 }, nodes: [] }],
    };
    expect(schemaErrors(bad, { $ref: '#/components/schemas/JSONDocument' })).not.toEqual([]);
    const badMark = markdownToDocument('**x**') as unknown as {
      nodes: Array<{ nodes: unknown[] }>;
    };
    const paragraph = badMark.nodes[0];
    if (!paragraph) throw new Error('expected a paragraph');
    paragraph.nodes[0] = {
      object: 'text',
      leaves: [{ object: 'leaf', text: 'x', marks: [{ type: 'bold' }] }],
    };
    expect(schemaErrors(badMark, { $ref: '#/components/schemas/JSONDocument' })).not.toEqual([]);
  });

  it('produces the published JSONDocument shape', () => {
    expect(document.object).toBe('document');
    expect(document.data).toEqual({});
    expectPublishedShape(document);
  });

  it('maps block types in order', () => {
    expect(types).toEqual([
      'heading-1',
      'paragraph',
      'heading-2',
      'heading-3',
      'paragraph',
      'hint',
      'list-tasks',
      'list-ordered',
      'list-unordered',
      'blockquote',
      'table',
      'images',
      'images',
      'code',
      'divider',
      'expandable',
      'tabs',
      'embed',
      'content-ref',
      'math',
    ]);
  });

  it('maps headings the Git Sync way and keeps custom anchors as ids', () => {
    expect(document.nodes[0]).toMatchObject({ type: 'heading-1', data: { id: 'intro' } });
    expect(textOf(document.nodes[0])).toBe('Intro');
    // ##### cannot be a heading in the editor model; Git Sync turns it into a bold paragraph.
    expect(document.nodes[4]).toMatchObject({
      type: 'paragraph',
      nodes: [
        {
          object: 'text',
          leaves: [{ text: 'Too deep', marks: [{ object: 'mark', type: 'bold' }] }],
        },
      ],
    });
  });

  it('maps marks, links and hard breaks', () => {
    const paragraph = document.nodes[1] as Extract<DocumentBlock, { type: 'paragraph' }>;
    const first = paragraph.nodes[0];
    expect(first).toMatchObject({ object: 'text' });
    const leaves = first?.object === 'text' ? first.leaves : [];
    expect(leaves.map((leaf) => [leaf.text, leaf.marks.map((mark) => mark.type)])).toEqual([
      ['Some ', []],
      ['bold ', ['bold']],
      ['both', ['bold', 'italic']],
      [' and ', []],
      ['code', ['code']],
      [' and ', []],
      ['gone', ['strikethrough']],
      [', ', []],
    ]);
    const refs = paragraph.nodes
      .filter((node) => node.object === 'inline')
      .map((node) => (node.type === 'link' ? node.data.ref : null));
    expect(refs).toEqual([
      { kind: 'url', url: 'https://example.com' },
      { kind: 'anchor', anchor: 'setup', page: 'pg1' },
      { kind: 'anchor', anchor: 'intro' },
      { kind: 'file', file: 'f1' },
    ]);
    // Inlines are surrounded by text nodes, as the editor model expects.
    expect(paragraph.nodes.map((node) => node.object)).toEqual([
      'text',
      'inline',
      'text',
      'inline',
      'text',
      'inline',
      'text',
      'inline',
      'text',
    ]);
    expect(textOf(paragraph)).toContain('.\nAfter a hard break.');
    // A soft line break is whitespace.
    expect(textOf(paragraph)).toContain('a page, an anchor');
  });

  it('maps hints and lowers blocks a hint may not hold', () => {
    const hint = document.nodes[5];
    expect(hint).toMatchObject({ type: 'hint', data: { style: 'warning', icon: 'bell' } });
    const nodes = hint?.type === 'hint' ? hint.nodes : [];
    expect(nodes.map((node) => node.type)).toEqual(['paragraph', 'paragraph']);
    expect(textOf(nodes[1])).toBe('danger()');
  });

  it('maps task, ordered and nested lists', () => {
    expect(document.nodes[6]).toMatchObject({
      type: 'list-tasks',
      nodes: [
        { type: 'list-item', data: { checked: false } },
        { type: 'list-item', data: { checked: true } },
      ],
    });
    expect(document.nodes[7]).toMatchObject({ type: 'list-ordered', data: { start: 3 } });
    expect(document.nodes[8]).toMatchObject({
      type: 'list-unordered',
      nodes: [{ type: 'list-item', nodes: [{ type: 'paragraph' }, { type: 'list-unordered' }] }],
    });
  });

  it('maps blockquotes, lowering code into a code-marked paragraph', () => {
    const quote = document.nodes[9];
    expect(quote).toMatchObject({
      type: 'blockquote',
      nodes: [{ type: 'paragraph' }, { type: 'paragraph' }],
    });
    expect(JSON.stringify(quote)).toContain(
      '"text":"echo hi","marks":[{"object":"mark","type":"code"}]',
    );
  });

  it('maps GFM tables to a grid of text columns whose cells are fragments', () => {
    const table = document.nodes[10];
    if (table?.type !== 'table') throw new Error('expected a table');
    const { view, definition, records } = table.data;
    expect(view).toMatchObject({ type: 'grid', hideHeader: false });
    const columns = view.columns;
    expect(columns.map((id) => definition[id])).toMatchObject([
      { title: 'Name', type: 'text', textAlignment: 'center' },
      { title: 'Value', type: 'text', textAlignment: 'right' },
    ]);
    const rows = Object.values(records).sort((a, b) => a.orderIndex.localeCompare(b.orderIndex));
    const cell = (row: number, column: number) => {
      const name = rows[row]?.values[columns[column] ?? ''];
      return table.fragments.find((fragment) => fragment.fragment === name);
    };
    expect(textOf(cell(0, 0))).toBe('one');
    expect(textOf(cell(1, 1))).toBe('2');
    expect(JSON.stringify(cell(1, 1))).toContain('"url":"https://two.example"');
  });

  it('maps Markdown and HTML images to images blocks with captions', () => {
    expect(document.nodes[11]).toMatchObject({
      type: 'images',
      nodes: [
        {
          type: 'image',
          data: { ref: { kind: 'url', url: '.gitbook/assets/a.png' }, alt: 'Alt text' },
          fragments: [],
        },
      ],
    });
    const figure = document.nodes[12];
    expect(figure).toMatchObject({
      type: 'images',
      nodes: [
        {
          type: 'image',
          data: { ref: { kind: 'url', url: '../.gitbook/assets/b (1).png' }, alt: 'B' },
        },
      ],
    });
    expect(textOf(figure?.type === 'images' ? figure.nodes[0]?.fragments[0] : undefined)).toBe(
      'A caption',
    );
  });

  it('maps code blocks with syntax and {% code %} options, one code-line per line', () => {
    expect(document.nodes[13]).toMatchObject({
      type: 'code',
      data: { syntax: 'javascript', title: 'index.js', overflow: 'wrap', lineNumbers: true },
      nodes: [{ type: 'code-line' }, { type: 'code-line' }],
    });
    expect(textOf((document.nodes[13] as { nodes: unknown[] }).nodes[1])).toBe('console.log(a);');
  });

  it('maps expandables, tabs, embeds, content refs and math', () => {
    const details = document.nodes[15];
    if (details?.type !== 'expandable') throw new Error('expected an expandable');
    expect(textOf(details.fragments[0])).toBe('More');
    expect(textOf(details.fragments[1])).toBe('Hidden text');
    expect(document.nodes[16]).toMatchObject({
      type: 'tabs',
      nodes: [
        { type: 'tabs-item', data: { title: 'Windows' } },
        { type: 'tabs-item', data: { title: 'macOS' } },
      ],
    });
    expect(document.nodes[17]).toEqual({
      object: 'block',
      type: 'embed',
      data: { url: 'https://www.youtube.com/watch?v=x' },
      isVoid: true,
    });
    expect(document.nodes[18]).toMatchObject({
      type: 'content-ref',
      data: { ref: { kind: 'page', page: 'pg2' } },
    });
    expect(document.nodes[19]).toMatchObject({ type: 'math', data: { formula: 'x^2' } });
  });

  it('lets the caller resolve Git paths to page and file refs', () => {
    const resolved = markdownToDocument(
      '[Setup](../guide/setup.md)\n\n![](<../.gitbook/assets/a b.png>)\n\n{% file src="../.gitbook/assets/doc.pdf" %}\nCaption\n{% endfile %}\n',
      {
        resolveRef: (href) =>
          href.endsWith('.md')
            ? { kind: 'page', page: 'p-setup' }
            : href.includes('.gitbook/assets/')
              ? { kind: 'file', file: `f:${href.split('/').pop()}` }
              : undefined,
      },
    );
    expectPublishedShape(resolved);
    expect(JSON.stringify(resolved.nodes[0])).toContain('{"kind":"page","page":"p-setup"}');
    expect(resolved.nodes[1]).toMatchObject({
      type: 'images',
      nodes: [{ data: { ref: { kind: 'file', file: 'f:a b.png' } } }],
    });
    expect(resolved.nodes[2]).toMatchObject({
      type: 'file',
      data: { ref: { kind: 'file', file: 'f:doc.pdf' } },
    });
  });

  it('keeps Liquid-looking lines inside code fences as code', () => {
    const doc = markdownToDocument('```liquid\n{% hint style="info" %}\nx\n{% endhint %}\n```\n');
    expect(doc.nodes).toHaveLength(1);
    expect(doc.nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'liquid' } });
    expect((doc.nodes[0] as { nodes: unknown[] }).nodes).toHaveLength(3);
  });

  it('handles empty and odd input without throwing', () => {
    expect(markdownToDocument('')).toEqual({ object: 'document', data: {}, nodes: [] });
    for (const odd of [
      '{% endhint %}',
      '{% hint %}',
      '<details>',
      '* ',
      '|a|\n|-|',
      '<table><tr><td>x</td></tr></table>',
      '[x][missing]',
      '\u0000',
    ]) {
      expectPublishedShape(markdownToDocument(odd));
    }
  });

  it('caps block and inline nesting instead of overflowing the stack', () => {
    const quotes = markdownToDocument(`${'>'.repeat(100)} deep **text**`);
    expectPublishedShape(quotes);
    let depth = 0;
    for (
      let node: unknown = quotes.nodes[0];
      (node as DocumentBlock | undefined)?.type === 'blockquote';
      depth += 1
    ) {
      node = (node as { nodes: unknown[] }).nodes[0];
    }
    expect(depth).toBeGreaterThan(10);
    expect(depth).toBeLessThanOrEqual(48);
    expect(textOf(quotes)).toContain('deep text');

    // 120 levels of alternating strong/emphasis: remark nests them all; the converter stops at 48.
    let emphasis = 'core';
    for (let i = 0; i < 120; i += 1) emphasis = i % 2 ? `*a ${emphasis} b*` : `**c ${emphasis} d**`;
    const inline = markdownToDocument(emphasis);
    expectPublishedShape(inline);
    expect(textOf(inline)).toContain(' core ');
    expect(textOf(inline).replace(/\s+/g, ' ')).toBe(
      emphasis.replace(/\*/g, '').replace(/\s+/g, ' '),
    );
  });

  it.skipIf(!corpusAvailable)('converts the real GitBook corpus into the published shape', () => {
    // Small pages only: remark needs seconds for the 100 KB+ changelogs on a busy machine.
    const files = markdownFiles(join(CORPUS, 'documentation'))
      .filter((file) => statSync(file).size < 4000)
      .slice(0, 15);
    expect(files.length).toBe(15);
    for (const file of files) {
      const page = readPageMarkdown(readFileSync(file, 'utf8'));
      const doc = markdownToDocument(page.body);
      const errors = schemaErrors(doc, { $ref: '#/components/schemas/JSONDocument' });
      expect(errors, file).toEqual([]);
    }
  });
});

describe('readPageMarkdown', () => {
  it('reads frontmatter fields, the leading heading as title, and the body after it', () => {
    const page = readPageMarkdown(
      '---\ndescription: >-\n  Long text\n  folded\nicon: rocket\nemoji: 2728\nhidden: true\nnoIndex: false\nlayout:\n  width: wide\n  title:\n    visible: false\ncover: .gitbook/assets/hero (1).png\ncoverY: 0\nname: kept\n---\n\n# Getting **started** <a href="#x" id="x"></a>\n\nBody text.\n',
    );
    expect(page.title).toBe('Getting started');
    expect(page.body).toBe('Body text.\n');
    expect(page.fields).toEqual({
      description: 'Long text folded',
      icon: 'rocket',
      emoji: '2728',
      hidden: true,
      noIndex: false,
      layout: { width: 'wide', title: { visible: false } },
      cover: '.gitbook/assets/hero (1).png',
      coverY: 0,
    });
    expect(page.frontmatter.name).toBe('kept');
  });

  it('reads a setext title and keeps a non-title first heading in the body', () => {
    expect(readPageMarkdown('My title\n========\n\nBody\n')).toMatchObject({
      title: 'My title',
      body: 'Body\n',
    });
    expect(readPageMarkdown('\n\n# Spaced\nBody right after\n')).toMatchObject({
      title: 'Spaced',
      body: 'Body right after\n',
    });
  });

  it('prefers the frontmatter title over the leading heading', () => {
    const page = readPageMarkdown('---\ntitle: From frontmatter\n---\n# From heading\n\nText\n');
    expect(page.title).toBe('From frontmatter');
    expect(page.body).toBe('Text\n');
  });

  it('has no title when there is neither, and leaves later headings in the body', () => {
    const page = readPageMarkdown('Intro\n\n# Not leading\n');
    expect(page.title).toBeUndefined();
    expect(page.body).toBe('Intro\n\n# Not leading\n');
    expect(page.fields).toEqual({});
    expect(readPageMarkdown('## Sub heading\n').title).toBeUndefined();
  });

  it('sets only the fields present (no undefined values to clobber explicit ones)', () => {
    const { fields } = readPageMarkdown('---\nhidden: false\n---\n# T\n');
    expect(Object.keys(fields)).toEqual(['hidden']);
  });

  it('throws a FrontmatterError naming the line for invalid YAML', () => {
    let error: unknown;
    try {
      readPageMarkdown('---\ntitle: ok\ndescription: a: b\n---\n# T\n');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FrontmatterError);
    expect((error as FrontmatterError).message).toMatch(
      /^invalid YAML frontmatter: .+ at line 3, column \d+$/,
    );
    expect((error as FrontmatterError).line).toBe(3);
  });

  it('refuses fields of the wrong type and non-mapping frontmatter', () => {
    expect(() => readPageMarkdown('---\nhidden: yes please\n---\n')).toThrow(
      'frontmatter field "hidden" must be true or false',
    );
    expect(() => readPageMarkdown('---\ndescription: [a, b]\n---\n')).toThrow(
      'frontmatter field "description" must be a string',
    );
    expect(() => readPageMarkdown('---\nlayout: wide\n---\n')).toThrow(
      'frontmatter field "layout" must be a mapping',
    );
    expect(() => readPageMarkdown('---\ntitle: {a: 1}\n---\n')).toThrow(
      'frontmatter field "title" must be a string',
    );
    expect(() => readPageMarkdown('---\n- a\n- b\n---\n')).toThrow(FrontmatterError);
  });

  it('never evaluates JavaScript frontmatter', () => {
    const probe = globalThis as { quirePwned?: boolean };
    for (const language of ['js', 'javascript', 'JavaScript', 'coffee', 'json']) {
      expect(() =>
        readPageMarkdown(`---${language}\n{ title: (globalThis.quirePwned = true) && 'x' }\n---\n`),
      ).toThrow(FrontmatterError);
    }
    expect(probe.quirePwned).toBeUndefined();
  });

  it('refuses YAML alias bombs instead of expanding them', () => {
    const bomb = ['---', 'a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 8; level += 1) {
      const name = String.fromCharCode(97 + level);
      const prev = String.fromCharCode(96 + level);
      bomb.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    bomb.push('---', '');
    expect(() => readPageMarkdown(bomb.join('\n'))).toThrow(
      'frontmatter is too large or too deeply nested',
    );
  });

  it('returns fresh objects for the same input (nothing cached and shared)', () => {
    const source = '---\nlayout:\n  width: wide\n---\n# Cached\n';
    const first = readPageMarkdown(source);
    expect(first.fields.layout).toEqual({ width: 'wide' });
    (first.fields.layout as { width: string }).width = 'mutated';
    (first.frontmatter.layout as { width: string }).width = 'mutated';
    expect(readPageMarkdown(source).fields.layout).toEqual({ width: 'wide' });
  });

  it('treats an unclosed leading --- as a thematic break, not frontmatter', () => {
    const page = readPageMarkdown('---\n\nJust text\n');
    expect(page.fields).toEqual({});
    expect(page.body).toBe('---\n\nJust text\n');
  });

  it('accepts an empty frontmatter block, a BOM and CRLF line endings', () => {
    expect(readPageMarkdown('---\n---\n# T\n').title).toBe('T');
    const crlf = readPageMarkdown('\uFEFF---\r\ndescription: d\r\n---\r\n# Title\r\n\r\nBody\r\n');
    expect(crlf).toMatchObject({ title: 'Title', fields: { description: 'd' }, body: 'Body\r\n' });
  });
});
