/** HTML blocks Git Sync writes (images with captions, heading anchors) → document content. */
import type { DocumentBlock, DocumentBlockImage, DocumentBlockImages } from '@gitbook/api';
import type { PhrasingContent } from 'mdast';
import { imageBlock } from './document-blocks';
import type { Context } from './document-context';
import { leaf, paragraph } from './document-inlines';
import {
  elementContent,
  firstTag,
  imageUnits,
  tagsAsSpaces,
  withoutHtmlComments,
} from './html-scan';
import { decodeEntities } from './html-entities';
import { srcsetUrls } from './markdown-links';

export function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i').exec(
    tag,
  );
  if (!match) return undefined;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? '');
}

/** Text of an HTML fragment: tags and comments removed, entities decoded, whitespace collapsed. */
export function htmlText(html: string): string {
  return decodeEntities(tagsAsSpaces(withoutHtmlComments(html)))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Git Sync's `<figure>`/`<img>`/`<picture>` images become an images block; other HTML keeps its text. */
export function htmlBlocks(html: string, ctx: Context): DocumentBlock[] {
  const withoutComments = withoutHtmlComments(html);
  const images: DocumentBlockImage[] = [];
  if (!/<table[\s>]/i.test(withoutComments)) {
    // Each <figure> (or bare <img>/<picture>) is one image; a figcaption belongs to its figure.
    for (const unit of imageUnits(withoutComments)) {
      const img = firstTag(unit, 'img');
      const src = img ? attribute(img, 'src') : undefined;
      if (!img || !src) continue;
      const dark = firstTag(unit, 'source');
      const darkSrc =
        dark && /prefers-color-scheme:\s*dark/i.test(dark)
          ? srcsetUrls(attribute(dark, 'srcset') ?? '')[0]
          : undefined;
      const caption = htmlText(elementContent(unit, 'figcaption') ?? '');
      images.push(
        imageBlock(src, attribute(img, 'alt') || undefined, caption || undefined, darkSrc, ctx),
      );
    }
  }
  if (images.length > 0) {
    const align = attribute(withoutComments, 'align');
    const data: DocumentBlockImages['data'] = {};
    if (align === 'left' || align === 'right' || align === 'center') data.align = align;
    if (attribute(withoutComments, 'data-with-frame') === 'true') data.withFrame = true;
    if (attribute(withoutComments, 'data-full-width') === 'true') data.fullWidth = true;
    return [{ object: 'block', type: 'images', data, nodes: images, isVoid: false }];
  }
  const text = htmlText(withoutComments);
  return text ? [paragraph([leaf(text)])] : [];
}

export function headingId(children: readonly PhrasingContent[]): string | undefined {
  for (const child of children) {
    if (child.type !== 'html') continue;
    const id = attribute(child.value, 'id');
    if (id && /^[-a-z0-9.+_]+$/.test(id)) return id;
  }
  return undefined;
}
