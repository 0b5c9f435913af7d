import PDFDocument from 'pdfkit';
import { FrontmatterError, readPageMarkdown } from '../../content/markdown-document';
import type { StoredPage } from '../../content/revision-tree';

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

/**
 * Renders the pages as a PDF: a cover line, then each page on its own sheet with its title, its
 * Markdown as readable text (headings, paragraphs, lists, quotes, code) and a bookmark per page.
 * Uses the PDF standard fonts, so nothing is embedded and rendering is fast.
 */
export async function renderPdf(input: PdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    autoFirstPage: false,
    info: { Title: input.title, Creator: 'Quire', Producer: 'Quire' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  doc.addPage();
  doc
    .font(BOLD)
    .fontSize(22)
    .text(input.title || 'Untitled change request');
  doc.moveDown(0.5).font(FONT).fontSize(11).fillColor('#555555').text(input.subtitle);
  doc.fillColor('#000000');

  const outlines = [doc.outline];
  for (const page of input.pages) {
    doc.addPage();
    const parent = outlines[Math.min(page.depth, outlines.length - 1)]!;
    outlines.length = Math.min(page.depth, outlines.length - 1) + 1;
    outlines.push(parent.addItem(page.title || 'Untitled'));
    doc
      .font(BOLD)
      .fontSize(page.group ? 24 : 20)
      .text(page.title || 'Untitled');
    doc.moveDown(0.6);
    if (!page.group) writeMarkdown(doc, contentOf(page.markdown));
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
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

/** Inline Markdown as plain text: marks dropped, links and images as their text. */
function plain(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, (_m, alt: string) => (alt ? `[image: ${alt}]` : '[image]'))
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|~~)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](\S(?:.*?\S)?)[*_](?!\w)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1');
}

function writeMarkdown(doc: PDFKit.PDFDocument, markdown: string): void {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  const flush = () => {
    const text = paragraph.join(' ').trim();
    paragraph = [];
    if (text) doc.font(FONT).fontSize(11).text(plain(text), { paragraphGap: 6 });
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
      doc.font(MONO).fontSize(9).fillColor('#333333').text(code.join('\n'), { paragraphGap: 6 });
      doc.fillColor('#000000');
      continue;
    }
    // Liquid blocks ({% hint %}…) are structure, not text.
    if (/^\s*\{%.*%\}\s*$/.test(line)) {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      const size = HEADING_SIZES[heading[1]!.length - 1] ?? 11;
      doc.moveDown(0.3).font(BOLD).fontSize(size).text(plain(heading[2]!), { paragraphGap: 4 });
      continue;
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const indent = 12 + Math.floor(item[1]!.length / 2) * 12;
      const bullet = /\d/.test(item[2]!) ? item[2]! : '•';
      doc
        .font(FONT)
        .fontSize(11)
        .text(`${bullet} ${plain(item[3]!)}`, doc.page.margins.left + indent, undefined, {
          paragraphGap: 2,
        });
      doc.x = doc.page.margins.left;
      continue;
    }
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (quote) {
      flush();
      doc
        .font(ITALIC)
        .fontSize(11)
        .fillColor('#444444')
        .text(plain(quote[1]!), { paragraphGap: 2 });
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
