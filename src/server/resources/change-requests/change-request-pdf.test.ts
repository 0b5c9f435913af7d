import { inflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PDF_DOCUMENT_MAX_LINES,
  PDF_PAGE_MAX_CHARS,
  PDF_PAGE_MAX_LINES,
  PDF_TITLE_MAX_CHARS,
  cutPoint,
  cutTitle,
  renderPdf,
  type PdfPage,
} from './change-request-pdf';

const page = (title: string, markdown: string, depth = 0): PdfPage => ({
  title,
  markdown,
  depth,
  group: false,
});

/** The number of pages the PDF declares (its page tree's `/Count`). */
function pageCount(pdf: Buffer): number {
  const match = /\/Type \/Pages\n\/Count (\d+)/.exec(pdf.toString('latin1'));
  if (!match) throw new Error('no page tree');
  return Number(match[1]);
}

/** The printed lines: every content stream inflated, each `TJ` array's strings joined. */
function printedLines(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  for (const stream of raw.matchAll(/stream\n([\s\S]*?)\nendstream/g)) {
    const content = inflateSync(Buffer.from(stream[1]!, 'latin1')).toString('latin1');
    for (const shown of content.matchAll(/\[([^\]]*)\] TJ/g)) {
      const hex = [...shown[1]!.matchAll(/<([0-9a-f]*)>/g)].map((m) => m[1]).join('');
      lines.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return lines;
}

/** Characters pdfkit measured while rendering: quadratic line breaking shows here first. */
function countMeasuredCharacters() {
  const measured = { chars: 0 };
  const original = PDFDocument.prototype.widthOfString;
  vi.spyOn(PDFDocument.prototype, 'widthOfString').mockImplementation(function (
    this: PDFKit.PDFDocument,
    ...args: unknown[]
  ) {
    const [text, options] = args as [string, PDFKit.Mixins.TextOptions | undefined];
    measured.chars += text.length;
    return original.call(this, text, options);
  });
  return measured;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('renderPdf with hostile sizes', () => {
  it('hard-wraps a 50,000-character word in a title, measuring each character a bounded number of times', async () => {
    const word = 'x'.repeat(50_000);
    const measured = countMeasuredCharacters();
    const pdf = await renderPdf({
      title: 'CR',
      subtitle: 'one long word',
      pages: [page(word, 'After the title.\n')],
    });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pageCount(pdf)).toBe(2);
    // Before the fix pdfkit measured the rest of the word for every line: ~14 million characters.
    expect(measured.chars).toBeLessThan(20 * word.length);
    const lines = printedLines(pdf);
    // The title is cut to its maximum: 255 characters, then an ellipsis (0x85 in WinAnsi).
    const title = lines.filter((line) => /^x+\x85?$/.test(line)).join('');
    expect(title).toBe(`${'x'.repeat(PDF_TITLE_MAX_CHARS - 1)}\x85`);
    expect(lines).toContain('After the title.');
  });

  it('prints a 100,000-character word of a page in full, wrapped to the line', async () => {
    const word = 'y'.repeat(100_000);
    const measured = countMeasuredCharacters();
    const pdf = await renderPdf({
      title: 'CR',
      subtitle: '',
      pages: [page('Long word', `Before ${word} after.`)],
    });
    expect(measured.chars).toBeLessThan(20 * word.length);
    const lines = printedLines(pdf);
    const printed = lines.filter((line) => /^(Before|y|after)/.test(line)).join('');
    expect(printed.replaceAll(' ', '') === `Before${word}after.`).toBe(true);
    // Every line is a part of the page's width: none is the whole word.
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(200);
    expect(pageCount(pdf)).toBeGreaterThan(10);
  });

  it('wraps words made of characters no line may break between', async () => {
    const closers = `x${' )'.repeat(30_000)}`;
    const measured = countMeasuredCharacters();
    const pdf = await renderPdf({ title: 'CR', subtitle: '', pages: [page('Closers', closers)] });
    expect(measured.chars).toBeLessThan(20 * closers.length);
    expect(printedLines(pdf).join('').replaceAll(' ', '')).toContain(')'.repeat(1000));
  });

  it('bounds a 1 MB title and a 9 MB page, saying what is omitted', async () => {
    const title = 'T'.repeat(1_000_000);
    const line = '- lorem ipsum dolor sit amet consectetur adipiscing elit\n';
    const markdown = line.repeat(Math.ceil(9_000_000 / line.length));
    const pdf = await renderPdf({ title, subtitle: '', pages: [page(title, markdown)] });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const lines = printedLines(pdf);
    expect(
      lines.filter((l) => l.endsWith('lorem ipsum dolor sit amet consectetur adipiscing elit'))
        .length,
    ).toBe(PDF_PAGE_MAX_LINES);
    const omitted = markdown.length - PDF_PAGE_MAX_LINES * line.length + 1;
    expect(lines.join(' ')).toContain(
      `[The rest of this page (${omitted.toLocaleString('en-US')} characters) is omitted from the PDF.]`,
    );
    expect(pageCount(pdf)).toBeLessThan(100);
  });

  it('bounds the whole document across pages', async () => {
    const markdown = '- line\n'.repeat(PDF_PAGE_MAX_LINES);
    const pages = Array.from({ length: 8 }, (_, i) => page(`Page ${i}`, markdown));
    const lines = printedLines(await renderPdf({ title: 'CR', subtitle: '', pages }));
    expect(lines.filter((l) => l.endsWith(' line')).length).toBe(PDF_DOCUMENT_MAX_LINES);
    // Later pages still print their titles.
    expect(lines).toContain('Page 7');
  });
});

describe('cutTitle', () => {
  it('keeps titles up to the maximum and cuts longer ones by code points', () => {
    const fits = '😀'.repeat(PDF_TITLE_MAX_CHARS);
    expect(cutTitle(fits)).toBe(fits);
    const cut = cutTitle('😀'.repeat(PDF_TITLE_MAX_CHARS + 1));
    expect(Array.from(cut)).toHaveLength(PDF_TITLE_MAX_CHARS);
    expect(cut.endsWith('😀…')).toBe(true);
  });
});

describe('cutPoint', () => {
  it('cuts at the character or the line limit, whichever comes first', () => {
    expect(cutPoint('a\nb\nc\n', 100, 2)).toEqual({ end: 3, lines: 2 });
    expect(cutPoint('abcdef', 3, 10)).toEqual({ end: 3, lines: 1 });
    expect(cutPoint('abc', 100, 10)).toEqual({ end: 3, lines: 1 });
    expect(cutPoint('abc', 0, 10)).toEqual({ end: 0, lines: 0 });
  });

  it('never cuts a surrogate pair in two', () => {
    expect(cutPoint('a😀', 2, 10).end).toBe(1);
    expect(PDF_PAGE_MAX_CHARS).toBeGreaterThan(0);
  });
});
