import { posix } from 'node:path';
import type { FileIndexEntry } from '../cache/file-index';
import {
  pageRefRenderer,
  writtenLinkForms,
  type LinkForms,
} from '../../shared/gitsync/page-link-forms';
import { relativeTarget } from '../../shared/gitsync/page-link-paths';
import { rewriteLinkTargets, type LinkTargetContext } from '../mirror/rewrite-link-targets';

/**
 * The server reference (`/files/<id>`, `/pages/<id>[#anchor]`) of a target written in the file at
 * `path`, or undefined. Page links take every form Git Sync or a user writes: `setup.md`,
 * `dir/README.md`, `dir/`, `dir`, `./`, `../section/`, each with or without an anchor.
 */
export function serverRefOf(
  view: readonly FileIndexEntry[],
): (written: string, path: string, context: LinkTargetContext) => string | undefined {
  const byPath = new Map(view.map((entry) => [entry.path, entry]));
  return (written, path, context) => {
    // A bare name (`dir`) is a page link in a Markdown destination only: `data-view="cards"` is not.
    const target = relativeTarget(path, written, { bare: context === 'markdown' });
    if (target === undefined) return undefined;
    for (const candidate of target.candidates) {
      const entry = byPath.get(candidate);
      if (entry?.kind === 'asset' && !target.folder) {
        return entry.fileId !== null && target.anchor === '' ? `/files/${entry.fileId}` : undefined;
      }
      if (entry?.kind === 'page') {
        return entry.pageId === null ? undefined : `/pages/${entry.pageId}${target.anchor}`;
      }
    }
    return undefined;
  };
}

/**
 * The pull writes references to uploads and pages as relative paths (Git Sync's layout); the
 * server stores `/files/<id>` and `/pages/<id>`. Pushed Markdown gets the server's form back for
 * every relative target that names an indexed asset or page; anything else is sent as written.
 */
export function serverReferences(
  view: readonly FileIndexEntry[],
): (markdown: string, path: string) => string {
  const refOf = serverRefOf(view);
  return (markdown, path) =>
    rewriteLinkTargets(markdown, (written, context) => refOf(written, path, context));
}

/** The link forms of a page file's text (see page-link-forms), read against `view`. */
export function linkFormsOf(
  view: readonly FileIndexEntry[],
): (text: string, path: string) => LinkForms {
  const refOf = serverRefOf(view);
  return (text, path) =>
    writtenLinkForms(text, (written, context) => refOf(written, path, context));
}

/**
 * The reverse of serverReferences, as the pull renders page files: `/files/<id>` and
 * `/pages/<id>[#anchor]` naming an indexed file become paths relative to the page's file, page
 * links in Git Sync's form or, given the text the file was sent with, as they were written there.
 */
export function localReferences(
  view: readonly FileIndexEntry[],
): (markdown: string, path: string, writtenText?: string) => string {
  const assets = new Map<string, string>();
  const pages = new Map<string, string>();
  for (const entry of view) {
    if (entry.kind === 'asset' && entry.fileId !== null) assets.set(entry.fileId, entry.path);
    if (entry.kind === 'page' && entry.pageId !== null) pages.set(entry.pageId, entry.path);
  }
  const files = new Set(view.map((entry) => entry.path));
  const pageRefs = pageRefRenderer(pages, (path) => files.has(path));
  const formsOf = linkFormsOf(view);
  return (markdown, path, writtenText) => {
    const relative = (target: string) =>
      posix
        .relative(posix.dirname(path), target)
        .replace(/[%#?]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
    const pageRef = pageRefs(
      path,
      writtenText === undefined ? undefined : formsOf(writtenText, path),
    );
    return rewriteLinkTargets(markdown, (target) => {
      const file = /^\/files\/([A-Za-z0-9_-]+)$/.exec(target)?.[1];
      if (file !== undefined) {
        const asset = assets.get(file);
        return asset === undefined ? undefined : relative(asset);
      }
      return pageRef(target);
    });
  };
}
