import type { ApiPage } from '../../content/page-serializer';
import type { StoredPage } from '../../content/revision-tree';
import type { JsonBytes } from './json-response-cache';

/** Collects JSON text and ready JSON bytes, then joins them into one Buffer. */
class JsonWriter {
  private readonly parts: Buffer[] = [];
  private text = '';

  str(text: string): void {
    this.text += text;
  }

  bytes(bytes: Buffer): void {
    this.flush();
    this.parts.push(bytes);
  }

  finish(): JsonBytes {
    this.flush();
    return Buffer.concat(this.parts) as JsonBytes;
  }

  private flush(): void {
    if (this.text) this.parts.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }
}

const EMPTY_STRING = Buffer.from('""');

/**
 * The JSON of `value` (an object serialised field by field) with `"pages": <page tree>` added
 * last, where every document page carries `"markdown"` from `quoted`: each body already quoted as
 * a JSON string, in UTF-8, by SQLite (json_quote). Whole-space reads are megabytes of Markdown;
 * escaping them in JavaScript costs several times more than reading them, this costs about as much.
 *
 * `pages` are the serialised pages and `stored` the stored pages they were made from, in the same
 * order (serializePages maps one to one).
 */
export function revisionJsonWithMarkdown(
  value: Record<string, unknown>,
  pages: readonly ApiPage[],
  stored: readonly StoredPage[],
  quoted: ReadonlyMap<string, Buffer>,
): JsonBytes {
  const out = new JsonWriter();
  out.str(JSON.stringify(value).slice(0, -1));
  out.str(Object.keys(value).length > 0 ? ',"pages":' : '"pages":');
  writePages(out, pages, stored, quoted);
  out.str('}');
  return out.finish();
}

function writePages(
  out: JsonWriter,
  pages: readonly ApiPage[],
  stored: readonly StoredPage[],
  quoted: ReadonlyMap<string, Buffer>,
): void {
  out.str('[');
  for (let i = 0; i < pages.length; i++) {
    if (i > 0) out.str(',');
    const { pages: children, ...fields } = pages[i]!;
    const source = stored[i]!;
    // A page always has an id and a title, so the object is never empty.
    out.str(JSON.stringify(fields).slice(0, -1));
    if (source.type === 'document') {
      out.str(',"markdown":');
      out.bytes((source.body && quoted.get(source.body)) || EMPTY_STRING);
    }
    if (children) {
      out.str(',"pages":');
      writePages(out, children, source.pages, quoted);
    }
    out.str('}');
  }
  out.str(']');
}
