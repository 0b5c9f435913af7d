import PDFDocument from 'pdfkit';
import { FrontmatterError, readPageMarkdown } from '../../content/markdown-document';
import type { StoredPage } from '../../content/revision-tree';
import { hardWrap } from './hard-wrap';

export interface PdfPage {
  title: string;
  /** The stored Markdown (frontmatter and the leading `# Title` are left out of the text). */
  markdown: string;
  /** Nesting depth, for the PDF's outline (bookmarks). */
  depth: number;
  /** Groups print as section titles only. */
  group: boolean;
}

export interface PdfInput {
  /** Document title (PDF metadata and the cover line). */
  title: string;
  subtitle: string;
  pages: PdfPage[];
}

/** Document pages and groups of a subtree, depth first (links have no content to print). */
export function pdfPages(
  pages: readonly StoredPage[],
  body: (hash: string) => string,
  depth = 0,
  into: PdfPage[] = [],
): PdfPage[] {
  for (const page of pages) {
    if (page.type === 'link') continue;
    into.push({
      title: page.title,
      markdown: page.type === 'document' && page.body ? body(page.body) : '',
      depth,
      group: page.type === 'group',
    });
    pdfPages(page.pages, body, depth + 1, into);
  }
  return into;
}

const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const ITALIC = 'Helvetica-Oblique';
const MONO = 'Courier';
const HEADING_SIZES = [18, 15, 13, 12, 11, 11];

/** Titles (cover, page titles, bookmarks) print at most this many characters, then `…`. */
export const PDF_TITLE_MAX_CHARS = 256;
/**
 * What a page prints at most: its first characters and lines, then a line saying the rest is
 * omitted. pdfkit spends about 0.1 ms per printed line, so these bound a page to well under a
 * second; the whole document is bounded too, so a change request of many huge pages stays fast.
 */
export const PDF_PAGE_MAX_CHARS = 200_000;
export const PDF_PAGE_MAX_LINES = 2_000;
export const PDF_DOCUMENT_MAX_CHARS = 2_000_000;
export const PDF_DOCUMENT_MAX_LINES = 10_000;
/** Room left for kerning, which per-character widths do not see. */
const WRAP_SAFETY = 0.97;

/** What is left to print of the whole document, spent page by page. */
interface TextBudget {
  chars: number;
  lines: number;
}

/**
 * Renders the pages as a PDF: a cover line, then each page on its own sheet with its title, its
 * Markdown as readable text (headings, paragraphs, lists, quotes, code) and a bookmark per page.
 * Uses the PDF standard fonts, so nothing is embedded and rendering is fast. What it prints is
 * bounded (PDF_TITLE_MAX_CHARS, PDF_PAGE_MAX_*, PDF_DOCUMENT_MAX_*) and long words are
 * hard-wrapped, so the time it takes grows linearly with the content and has a ceiling.
 */
export async function renderPdf(input: PdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    autoFirstPage: false,
    info: { Title: cutTitle(input.title), Creator: 'Quire', Producer: 'Quire' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  doc.addPage();
  print(doc.font(BOLD).fontSize(22), cutTitle(input.title || 'Untitled change request'));
  doc.moveDown(0.5).font(FONT).fontSize(11).fillColor('#555555');
  print(doc, cutTitle(input.subtitle));
  doc.fillColor('#000000');

  const outlines = [doc.outline];
  const budget: TextBudget = { chars: PDF_DOCUMENT_MAX_CHARS, lines: PDF_DOCUMENT_MAX_LINES };
  for (const page of input.pages) {
    const title = cutTitle(page.title || 'Untitled');
    doc.addPage();
    const parent = outlines[Math.min(page.depth, outlines.length - 1)]!;
    outlines.length = Math.min(page.depth, outlines.length - 1) + 1;
    outlines.push(parent.addItem(title));
    print(doc.font(BOLD).fontSize(page.group ? 24 : 20), title);
    doc.moveDown(0.6);
    if (!page.group) writeBoundedMarkdown(doc, page.markdown, budget);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** A title cut to PDF_TITLE_MAX_CHARS characters (code points), the last one an ellipsis. */
export function cutTitle(title: string): string {
  const head = title.slice(0, 2 * PDF_TITLE_MAX_CHARS + 2);
  const points = Array.from(head);
  if (head.length === title.length && points.length <= PDF_TITLE_MAX_CHARS) return title;
  return `${points.slice(0, PDF_TITLE_MAX_CHARS - 1).join('')}…`;
}

/**
 * Where to cut `text` to keep at most `maxChars` characters and `maxLines` lines (never inside a
 * surrogate pair), and how many lines that keeps.
 */
export function cutPoint(
  text: string,
  maxChars: number,
  maxLines: number,
): { end: number; lines: number } {
  if (maxChars <= 0 || maxLines <= 0) return { end: 0, lines: 0 };
  let end = Math.min(text.length, maxChars);
  const high = end > 0 ? text.charCodeAt(end - 1) : 0;
  if (end < text.length && high >= 0xd800 && high <= 0xdbff) end--;
  let newline = -1;
  for (let lines = 1; lines <= maxLines; lines++) {
    newline = text.indexOf('\n', newline + 1);
    if (newline === -1 || newline >= end) return { end, lines };
  }
  return { end: newline, lines: maxLines };
}

/**
 * A page's Markdown within the page's and the document's budgets, and a note on what is left.
 * The cut comes first: even finding the leading title parses the first block of the page.
 */
function writeBoundedMarkdown(doc: PDFKit.PDFDocument, markdown: string, budget: TextBudget): void {
  const text = markdown.replace(/\r\n?/g, '\n');
  const { end, lines } = cutPoint(
    text,
    Math.min(PDF_PAGE_MAX_CHARS, budget.chars),
    Math.min(PDF_PAGE_MAX_LINES, budget.lines),
  );
  budget.chars -= end;
  budget.lines -= lines;
  writeMarkdown(doc, contentOf(text.slice(0, end)));
  if (end >= text.length) return;
  const omitted = text.length - end;
  doc.moveDown(0.5).font(ITALIC).fontSize(10).fillColor('#777777');
  print(
    doc,
    `[The rest of this page (${omitted.toLocaleString('en-US')} characters) is omitted from the PDF.]`,
  );
  doc.fillColor('#000000');
}

/**
 * `doc.text` at the current font and size, with every word too wide for the line hard-wrapped
 * first (see hardWrap). Each character is measured once per call.
 */
function print(
  doc: PDFKit.PDFDocument,
  text: string,
  options: PDFKit.Mixins.TextOptions = {},
  x?: number,
): void {
  const left = x ?? doc.x;
  const lineWidth = doc.page.width - doc.page.margins.right - left;
  const widths = new Map<string, number>();
  const widthOf = (char: string) => {
    let width = widths.get(char);
    if (width === undefined) {
      width = doc.widthOfString(char);
      widths.set(char, width);
    }
    return width;
  };
  const wrapped = hardWrap(text, lineWidth * WRAP_SAFETY, widthOf);
  if (x === undefined) doc.text(wrapped, options);
  else doc.text(wrapped, x, undefined, options);
}
/** The page text without its frontmatter and leading `# Title` (already printed as the title). */
function contentOf(markdown: string): string {
  try {
    return readPageMarkdown(markdown).body;
  } catch (error) {
    if (error instanceof FrontmatterError) return markdown;
    throw error;
  }
}

/**
 * Inline Markdown as plain text: marks dropped, links and images as their text. Every span a
 * pattern may scan is bounded (300 characters), so a line of unclosed `[`, `<` or `**` costs a
 * bounded look-ahead per mark instead of a scan to the end of the line for each (quadratic).
 */
function plain(text: string): string {
  return text
    .replace(/!\[([^\]]{0,300})\]\([^)]{0,300}\)/g, (_m, alt: string) =>
      alt ? `[image: ${alt}]` : '[image]',
    )
    .replace(/\[([^\]]{0,300})\]\([^)]{0,300}\)/g, '$1')
    .replace(/<[^>]{1,300}>/g, '')
    .replace(/(\*\*|__|~~)(.{1,300}?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](\S(?:.{0,300}?\S)?)[*_](?!\w)/g, '$1$2')
    .replace(/`([^`]{1,300})`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1');
}

/**
 * A heading's text without its closing `#`s and the spaces around them. By hand: the pattern that
 * did this (`(.*?)\s*#*\s*$`) backtracks quadratically over a long run of spaces.
 */
function headingText(text: string): string {
  let end = text.trimEnd().length;
  while (end > 0 && text[end - 1] === '#') end--;
  return text.slice(0, end).trimEnd();
}

function writeMarkdown(doc: PDFKit.PDFDocument, markdown: string): void {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  const flush = () => {
    const text = paragraph.join(' ').trim();
    paragraph = [];
    if (text) print(doc.font(FONT).fontSize(11), plain(text), { paragraphGap: 6 });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!); i++) {
        code.push(lines[i]!);
      }
      print(doc.font(MONO).fontSize(9).fillColor('#333333'), code.join('\n'), { paragraphGap: 6 });
      doc.fillColor('#000000');
      continue;
    }
    // Liquid blocks ({% hint %}…) are structure, not text.
    if (/^\s*\{%.*%\}\s*$/.test(line)) {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const size = HEADING_SIZES[heading[1]!.length - 1] ?? 11;
      print(doc.moveDown(0.3).font(BOLD).fontSize(size), plain(headingText(heading[2]!)), {
        paragraphGap: 4,
      });
      continue;
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const indent = 12 + Math.floor(item[1]!.length / 2) * 12;
      const bullet = /\d/.test(item[2]!) ? item[2]! : '•';
      print(
        doc.font(FONT).fontSize(11),
        `${bullet} ${plain(item[3]!)}`,
        { paragraphGap: 2 },
        doc.page.margins.left + indent,
      );
      doc.x = doc.page.margins.left;
      continue;
    }
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (quote) {
      flush();
      print(doc.font(ITALIC).fontSize(11).fillColor('#444444'), plain(quote[1]!), {
        paragraphGap: 2,
      });
      doc.fillColor('#000000');
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      doc.moveDown(0.5);
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    paragraph.push(line.trim());
  }
  flush();
}
