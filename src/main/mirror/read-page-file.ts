import type {
  GitSyncProblem,
  ParsedCover,
  ParsedPage,
  ParseGitSyncOptions,
} from './parse-gitsync-types';
import { leadingHeading } from '../../shared/gitsync/page-title';
import {
  findFrontmatterBlock,
  FrontmatterError,
  parseFrontmatterYaml,
  readFrontmatterFields,
  type FrontmatterData,
} from '../../shared/gitsync/page-frontmatter';
import { rewriteLinkTargets } from './rewrite-link-targets';
import { assetNameOf } from './space-file-paths';
import { parseTitleBlock } from './parse-title-block';

/** What reading a page file needs from the parse. */
export interface PageFileContext {
  options: ParseGitSyncOptions;
  problems: GitSyncProblem[];
}

/**
 * A page file's text → the page's fields (frontmatter, YAML only), heading title and Markdown.
 * A file whose frontmatter cannot be read is kept whole, with a problem.
 */
export function readPageFile(page: ParsedPage, text: string, ctx: PageFileContext): void {
  const path = page.path ?? '';
  const block = findFrontmatterBlock(text);
  let markdown = text;
  let readable = true;
  if (block) {
    try {
      if (block.language !== '' && block.language !== 'yaml' && block.language !== 'yml') {
        throw new FrontmatterError(
          `frontmatter language "${block.language}" is not supported; use YAML`,
        );
      }
      applyFrontmatter(page, parseFrontmatterYaml(block.yaml), ctx);
      markdown = block.body.replace(/^(?:[ \t]*\r?\n)+/, '');
    } catch (error) {
      if (!(error instanceof FrontmatterError)) throw error;
      ctx.problems.push({ path, message: error.message });
      readable = false;
    }
  }
  const heading = leadingHeading(markdown, parseTitleBlock);
  if (heading !== undefined) page.headingTitle = heading;
  const fileIdForAsset = ctx.options.fileIdForAsset;
  // A file whose frontmatter cannot be read is kept exactly as written until the user fixes it.
  if (fileIdForAsset && readable) {
    markdown = rewriteLinkTargets(markdown, (target) => {
      const name = assetNameOf(target, path);
      const id = name === undefined ? undefined : fileIdForAsset(name);
      return id === undefined ? undefined : `/files/${id}`;
    });
  }
  page.markdown = markdown;
}

function applyFrontmatter(page: ParsedPage, data: FrontmatterData, ctx: PageFileContext): void {
  const path = page.path ?? '';
  const fields = readFrontmatterFields(data);
  for (const message of fields.problems) ctx.problems.push({ path, message });
  page.frontmatter = data;
  if (fields.description !== undefined) page.description = fields.description;
  if (fields.icon !== undefined) page.icon = fields.icon;
  if (fields.emoji !== undefined) page.emoji = fields.emoji;
  if (fields.hidden !== undefined) page.hidden = fields.hidden;
  if (fields.noIndex !== undefined) page.noIndex = fields.noIndex;
  if (fields.noRobotsIndex !== undefined) page.noRobotsIndex = fields.noRobotsIndex;
  if (fields.layout !== undefined) page.layout = fields.layout;
  if (page.title === '' && fields.title !== undefined) page.title = fields.title;
  if (fields.cover !== undefined) {
    const cover: ParsedCover = { src: fields.cover };
    const assetName = assetNameOf(fields.cover, path);
    if (assetName !== undefined) {
      cover.assetName = assetName;
      const fileId = ctx.options.fileIdForAsset?.(assetName);
      if (fileId !== undefined) cover.fileId = fileId;
    }
    if (fields.coverY !== undefined) cover.yPos = fields.coverY;
    if (fields.coverHeight !== undefined) cover.height = fields.coverHeight;
    page.cover = cover;
  }
}
