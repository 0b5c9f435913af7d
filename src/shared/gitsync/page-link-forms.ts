/**
 * Page references (`/pages/<id>[#anchor]`) as relative links, in the form the user wrote them.
 *
 * The server keeps a link to a page as its reference, so the link follows the page when it moves;
 * the form it was written in (`dir/README.md` or `dir/`, `./x.md` or `x.md`) is not kept there.
 * So that a link comes back exactly as written, the forms are read from the page's last known
 * text (LinkForms, each target resolved where the files are now) and the renderer writes a
 * remembered form again while it names the same page from where the linking file is; otherwise
 * (the page moved, nothing remembered) it writes Git Sync's own form (gitSyncPageHref).
 */
import { gitSyncPageHref, relativeTarget } from './page-link-paths';
import { rewriteLinkTargets, type LinkTargetContext } from './rewrite-link-targets';

/** Of one linking page: server reference (`/pages/<id>#anchor`) → the targets written for it, in order. */
export type LinkForms = ReadonlyMap<string, readonly string[]>;

/** The forms of `markdown`: each target that `refOf` maps to a page reference, by reference. */
export function writtenLinkForms(
  markdown: string,
  refOf: (written: string, context: LinkTargetContext) => string | undefined,
): Map<string, string[]> {
  const forms = new Map<string, string[]>();
  rewriteLinkTargets(markdown, (written, context) => {
    const ref = refOf(written, context);
    if (ref !== undefined && ref.startsWith('/pages/')) {
      const list = forms.get(ref);
      if (list === undefined) forms.set(ref, [written]);
      else list.push(written);
    }
    return undefined;
  });
  return forms;
}

/**
 * The file a relative target written in `fromFile` names among `files`, with its anchor (`bare`:
 * see relativeTarget).
 */
export function resolveWrittenTarget(
  fromFile: string,
  written: string,
  isFile: (path: string) => boolean,
  options: { bare?: boolean } = {},
): { path: string; anchor: string; folder: boolean } | undefined {
  const target = relativeTarget(fromFile, written, options);
  const path = target?.candidates.find(isFile);
  return target === undefined || path === undefined
    ? undefined
    : { path, anchor: target.anchor, folder: target.folder };
}

const PAGE_REF = /^\/pages\/([A-Za-z0-9_-]+)(#[^\s]*)?$/;

/**
 * Reads the link forms of a page file's text against a layout: each target is the page it names
 * there. `pageFiles` maps page ids to their files, `isFile` says whether a path is a file of it.
 */
export function layoutLinkForms(
  pageFiles: ReadonlyMap<string, string>,
  isFile: (path: string) => boolean,
): (text: string, fromFile: string) => LinkForms {
  const pageAt = new Map([...pageFiles].map(([id, path]) => [path, id]));
  return (text, fromFile) =>
    writtenLinkForms(text, (written, context) => {
      const found = resolveWrittenTarget(fromFile, written, isFile, {
        bare: context === 'markdown',
      });
      const id = found === undefined ? undefined : pageAt.get(found.path);
      return id === undefined ? undefined : `/pages/${id}${found?.anchor ?? ''}`;
    });
}

/**
 * Renders the page references of one page file. `pageFiles` maps page ids to their files in the
 * layout being written, `isFile` says whether a path is a file of it (pages and assets).
 */
export function pageRefRenderer(
  pageFiles: ReadonlyMap<string, string>,
  isFile: (path: string) => boolean,
): (
  fromFile: string,
  forms?: LinkForms | (() => LinkForms | undefined),
) => (target: string) => string | undefined {
  return (fromFile, formsOrRead) => {
    // Each occurrence takes the next remembered form of its reference, in document order.
    const used = new Map<string, number>();
    let forms: LinkForms | undefined;
    let read = false;
    return (target) => {
      const match = PAGE_REF.exec(target);
      const toFile = match?.[1] === undefined ? undefined : pageFiles.get(match[1]);
      if (toFile === undefined) return undefined;
      const anchor = match?.[2] ?? '';
      if (!read) {
        // Read only for a page that links to pages: most pages never need their forms.
        forms = typeof formsOrRead === 'function' ? formsOrRead() : formsOrRead;
        read = true;
      }
      const remembered = forms?.get(target);
      if (remembered !== undefined) {
        const at = used.get(target) ?? 0;
        used.set(target, at + 1);
        const written = remembered[Math.min(at, remembered.length - 1)];
        // A remembered form was read where it names this page, bare names included.
        const resolved =
          written === undefined
            ? undefined
            : resolveWrittenTarget(fromFile, written, isFile, { bare: true });
        if (written !== undefined && resolved?.path === toFile && resolved.anchor === anchor) {
          return written;
        }
      }
      return `${gitSyncPageHref(fromFile, toFile)}${anchor}`;
    };
  };
}
