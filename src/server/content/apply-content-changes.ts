import { PAGE_FIELDS, type PageFields } from '../../shared/gitsync/page-fields';
import { pageTitleProblem } from '../http/text-schemas';
import { newId } from '../ids';
import { FrontmatterError } from './markdown-document';
import { slugify, type RevisionTree, type StoredFile, type StoredPage } from './revision-tree';

/** Page metadata settable by insert_page and update_page (RevisionPageUpdate in the published API). */
export interface PageFieldsInput extends PageFields {
  title?: string;
  slug?: string;
}

export type DocumentInput = { markdown: string } | { document: unknown } | Record<string, never>;

export type ContentChange =
  | (PageFieldsInput & {
      operation: 'insert_page';
      into?: string;
      at?: number;
      ref?: string;
      document: DocumentInput;
    })
  | (PageFieldsInput & {
      operation: 'update_page';
      page: string;
      document?: DocumentInput;
      into?: string | null;
      at?: number;
    })
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string }
  | { operation: 'insert_files'; files: ResolvedFileInput[] };

/** A file whose bytes were already fetched or decoded (fetching is async; applying is not). */
export interface ResolvedFileInput {
  ref?: string;
  name: string;
  contentType: string;
  bytes: Uint8Array;
  dimensions?: { width: number; height: number };
}

/** What Markdown says about its page: frontmatter fields and the leading-heading title. */
export interface ReadMarkdown {
  (markdown: string): { title?: string; fields: PageFieldsInput; body: string };
}

export interface ApplyDeps {
  now: string;
  putBody(markdown: string): string;
  getBody(hash: string): string;
  putBlob(bytes: Uint8Array): string;
  readMarkdown: ReadMarkdown;
  /** The tree a page reverts to (`revert_page`), by revision id or the base when absent. */
  revertSource(revisionId: string | undefined): RevisionTree | undefined;
}

export type AffectedPage =
  | { object: 'created_page'; ref?: string; pageId: string }
  | { object: 'updated_page'; pageId: string }
  | { object: 'deleted_page'; pageId: string };

export interface ApplyResult {
  tree: RevisionTree;
  affected: AffectedPage[];
  insertedFiles: StoredFile[];
}

/** A change that cannot apply; `index` names the offending change for the 400 message. */
export class ContentChangeError extends Error {
  constructor(
    readonly index: number,
    readonly field: string,
    message: string,
  ) {
    super(`changes.${index}${field ? `.${field}` : ''}: ${message}`);
    this.name = 'ContentChangeError';
  }
}

interface Located {
  page: StoredPage;
  siblings: StoredPage[];
  parentId: string | null;
}

const DEFAULT_TITLE = 'Untitled';

/**
 * Applies a batch of changes to a copy of `tree`, all or nothing: the first invalid change throws
 * and the caller stores nothing. Batch-local `ref`s of inserted pages and files resolve to their
 * new ids in every Markdown body written by the batch.
 */
export function applyContentChanges(
  source: RevisionTree,
  changes: readonly ContentChange[],
  deps: ApplyDeps,
): ApplyResult {
  const tree = structuredClone(source);
  const affected = new Map<string, AffectedPage>();
  const insertedFiles: StoredFile[] = [];
  const refs = new Map<string, string>();
  const writtenBodies: StoredPage[] = [];

  const locate = (id: string): Located | undefined => {
    const visit = (siblings: StoredPage[], parentId: string | null): Located | undefined => {
      for (const page of siblings) {
        if (page.id === id) return { page, siblings, parentId };
        const found = visit(page.pages, page.id);
        if (found) return found;
      }
      return undefined;
    };
    return visit(tree.pages, null);
  };
  const isInside = (candidate: StoredPage, ancestorId: string): boolean =>
    candidate.id === ancestorId || candidate.pages.some((child) => isInside(child, ancestorId));

  const childrenOf = (
    index: number,
    field: string,
    into: string | null | undefined,
  ): StoredPage[] => {
    if (into === null || into === undefined) return tree.pages;
    const parent = locate(into);
    if (!parent) throw new ContentChangeError(index, field, `page ${into} does not exist`);
    if (parent.page.type === 'link')
      throw new ContentChangeError(index, field, `link page ${into} cannot have children`);
    return parent.page.pages;
  };

  /**
   * `generated`: a slug made from a title may be empty (a title of symbols only); one that was
   * given (a field, frontmatter) may not, or the page could not be reached by path.
   */
  const checkSlug = (
    index: number,
    siblings: readonly StoredPage[],
    slug: string,
    selfId: string | null,
    generated = false,
  ) => {
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(slug) && !(generated && slug === '')) {
      throw new ContentChangeError(
        index,
        'slug',
        `"${slug}" may contain only letters, digits, ".", "_" and "-"`,
      );
    }
    if (siblings.some((sibling) => sibling.id !== selfId && sibling.slug === slug)) {
      throw new ContentChangeError(
        index,
        'slug',
        `another page at this level already has the slug "${slug}"`,
      );
    }
  };

  const place = (
    index: number,
    siblings: StoredPage[],
    page: StoredPage,
    at: number | undefined,
  ) => {
    if (at !== undefined && at > siblings.length) {
      throw new ContentChangeError(index, 'at', `must be at most ${siblings.length} here`);
    }
    siblings.splice(at ?? siblings.length, 0, page);
  };

  const applyFields = (page: StoredPage, fields: PageFieldsInput) => {
    if (fields.title !== undefined) page.title = fields.title;
    if (fields.emoji !== undefined) setOptional(page, 'emoji', fields.emoji);
    if (fields.icon !== undefined) setOptional(page, 'icon', fields.icon);
    if (fields.description !== undefined) setOptional(page, 'description', fields.description);
    if (fields.hidden !== undefined) page.hidden = fields.hidden;
    if (fields.noIndex !== undefined) page.noIndex = fields.noIndex;
    if (fields.noRobotsIndex !== undefined) page.noRobotsIndex = fields.noRobotsIndex;
  };

  /** Frontmatter and the leading heading take precedence over explicit fields (as Git Sync). */
  const readDocument = (index: number, document: DocumentInput | undefined) => {
    if (!document || !('markdown' in document)) {
      if (document && 'document' in document) {
        throw new ContentChangeError(
          index,
          'document',
          'only Markdown documents ({ markdown }) are supported',
        );
      }
      return undefined;
    }
    let read: ReturnType<ReadMarkdown>;
    try {
      read = deps.readMarkdown(document.markdown);
    } catch (error) {
      // Only a FrontmatterError is written for the client; any other message is internal (a
      // parser's "Maximum call stack size exceeded" once reached a 400 this way).
      const message = error instanceof FrontmatterError ? error.message : 'could not be parsed';
      throw new ContentChangeError(index, 'document.markdown', message);
    }
    // The schema checks a title sent as a field; one the Markdown sets obeys the same rules.
    const problem = read.title === undefined ? undefined : pageTitleProblem(read.title);
    if (problem) {
      throw new ContentChangeError(
        index,
        'document.markdown',
        `the page title it sets (frontmatter "title" or the leading "# Heading") ${problem}`,
      );
    }
    return read;
  };

  changes.forEach((change, index) => {
    switch (change.operation) {
      case 'insert_page': {
        const read = readDocument(index, change.document);
        const fields: PageFieldsInput = { ...pickFields(change), ...read?.fields };
        const title = read?.title ?? fields.title ?? DEFAULT_TITLE;
        const siblings = childrenOf(index, 'into', change.into);
        const slug = fields.slug ?? slugify(title);
        checkSlug(index, siblings, slug, null, fields.slug === undefined);
        if (change.ref !== undefined) {
          if (refs.has(change.ref))
            throw new ContentChangeError(
              index,
              'ref',
              `"${change.ref}" is used twice in this batch`,
            );
        }
        const page: StoredPage = {
          id: newId(),
          type: 'document',
          title,
          slug,
          documentId: newId(),
          body: deps.putBody(read?.body ?? ''),
          createdAt: deps.now,
          updatedAt: deps.now,
          pages: [],
        };
        applyFields(page, { ...fields, title });
        place(index, siblings, page, change.at);
        if (change.ref !== undefined) refs.set(change.ref, `/pages/${page.id}`);
        if (read) writtenBodies.push(page);
        affected.set(page.id, {
          object: 'created_page',
          pageId: page.id,
          ...(change.ref !== undefined ? { ref: change.ref } : {}),
        });
        break;
      }
      case 'update_page': {
        const located = locate(change.page);
        if (!located)
          throw new ContentChangeError(index, 'page', `page ${change.page} does not exist`);
        const { page } = located;
        const read = readDocument(index, change.document);
        const fields: PageFieldsInput = { ...pickFields(change), ...read?.fields };
        if (read?.title !== undefined) fields.title = read.title;
        if (fields.title !== undefined && fields.title.length === 0) {
          throw new ContentChangeError(index, 'title', 'must not be empty');
        }
        let siblings = located.siblings;
        if (change.into !== undefined || change.at !== undefined) {
          const target =
            change.into === undefined ? located.siblings : childrenOf(index, 'into', change.into);
          if (change.into !== undefined && change.into !== null && isInside(page, change.into)) {
            throw new ContentChangeError(
              index,
              'into',
              'a page cannot move into itself or its descendants',
            );
          }
          located.siblings.splice(located.siblings.indexOf(page), 1);
          place(index, target, page, change.at);
          siblings = target;
        }
        if (fields.slug !== undefined || siblings !== located.siblings) {
          checkSlug(index, siblings, fields.slug ?? page.slug, page.id, fields.slug === undefined);
          if (fields.slug !== undefined) page.slug = fields.slug;
        }
        const oldTitle = page.title;
        applyFields(page, fields);
        if (read) {
          if (page.type !== 'document')
            throw new ContentChangeError(index, 'document', `page ${page.id} is a ${page.type}`);
          page.body = deps.putBody(read.body);
          writtenBodies.push(page);
        } else if (fields.title !== undefined && fields.title !== oldTitle && page.body) {
          // Keep a body's leading "# Title" in step with a title-only rename.
          const body = deps.getBody(page.body);
          const renamed = renameLeadingHeading(body, oldTitle, fields.title);
          if (renamed !== body) page.body = deps.putBody(renamed);
        }
        page.updatedAt = deps.now;
        if (!affected.has(page.id))
          affected.set(page.id, { object: 'updated_page', pageId: page.id });
        break;
      }
      case 'delete_page': {
        const located = locate(change.page);
        if (!located)
          throw new ContentChangeError(index, 'page', `page ${change.page} does not exist`);
        located.siblings.splice(located.siblings.indexOf(located.page), 1);
        const created = affected.get(located.page.id)?.object === 'created_page';
        // Inserting then deleting in one batch cancels out.
        if (created) affected.delete(located.page.id);
        else affected.set(located.page.id, { object: 'deleted_page', pageId: located.page.id });
        break;
      }
      case 'revert_page': {
        const sourceTree = deps.revertSource(change.revision);
        if (!sourceTree)
          throw new ContentChangeError(
            index,
            'revision',
            `revision ${change.revision} does not exist`,
          );
        const original = findIn(sourceTree.pages, change.page);
        const current = locate(change.page);
        if (!original && !current)
          throw new ContentChangeError(index, 'page', `page ${change.page} does not exist`);
        if (!original && current) {
          current.siblings.splice(current.siblings.indexOf(current.page), 1);
          affected.set(change.page, { object: 'deleted_page', pageId: change.page });
        } else if (original && current) {
          const { pages: _children, ...rest } = structuredClone(original.page);
          Object.assign(current.page, rest);
          affected.set(change.page, { object: 'updated_page', pageId: change.page });
        } else if (original) {
          const restored = structuredClone(original.page);
          const parent = original.parentId ? locate(original.parentId) : undefined;
          const siblings = parent ? parent.page.pages : tree.pages;
          checkSlug(index, siblings, restored.slug, restored.id, true);
          siblings.splice(Math.min(original.index, siblings.length), 0, restored);
          affected.set(change.page, { object: 'created_page', pageId: change.page });
        }
        break;
      }
      case 'insert_files': {
        for (const [fileIndex, input] of change.files.entries()) {
          if (input.ref !== undefined && refs.has(input.ref)) {
            throw new ContentChangeError(
              index,
              `files.${fileIndex}.ref`,
              `"${input.ref}" is used twice in this batch`,
            );
          }
          const file: StoredFile = {
            id: newId(),
            name: input.name,
            contentType: input.contentType,
            size: input.bytes.byteLength,
            blob: deps.putBlob(input.bytes),
            ...(input.dimensions ? { dimensions: input.dimensions } : {}),
            createdAt: deps.now,
          };
          tree.files.push(file);
          insertedFiles.push(file);
          if (input.ref !== undefined) refs.set(input.ref, `/files/${file.id}`);
        }
        break;
      }
    }
  });

  if (refs.size > 0) {
    for (const page of writtenBodies) {
      if (!page.body) continue;
      const body = deps.getBody(page.body);
      const resolved = resolveRefs(body, refs);
      if (resolved !== body) page.body = deps.putBody(resolved);
    }
  }
  return { tree, affected: [...affected.values()], insertedFiles };
}

function pickFields(change: PageFieldsInput): PageFieldsInput {
  const fields: PageFieldsInput = {};
  for (const key of ['title', 'slug', ...PAGE_FIELDS] as const) {
    if (change[key] !== undefined) (fields as Record<string, unknown>)[key] = change[key];
  }
  return fields;
}

/** Empty strings remove an optional field (published API: "Set to an empty string to remove it"). */
function setOptional(page: StoredPage, key: 'emoji' | 'icon' | 'description', value: string) {
  if (value === '') delete page[key];
  else page[key] = value;
}

function findIn(
  pages: readonly StoredPage[],
  id: string,
  parentId: string | null = null,
): { page: StoredPage; parentId: string | null; index: number } | undefined {
  for (const [index, page] of pages.entries()) {
    if (page.id === id) return { page, parentId, index };
    const found = findIn(page.pages, id, page.id);
    if (found) return found;
  }
  return undefined;
}

function renameLeadingHeading(body: string, oldTitle: string, newTitle: string): string {
  const match = /^# (.*)(\r?\n|$)/.exec(body);
  if (!match || match[1]?.trim() !== oldTitle.trim()) return body;
  return `# ${newTitle}${match[2] ?? ''}${body.slice(match[0].length)}`;
}

/** Rewrites `](ref)`, `](./ref)` and `](./ref.md)` link targets that name a batch-local ref. */
function resolveRefs(markdown: string, refs: ReadonlyMap<string, string>): string {
  return markdown.replace(
    /\]\(([^)\s]+)((?:\s+"[^"]*")?)\)/g,
    (whole, target: string, title: string) => {
      const bare = target.replace(/^\.\//, '');
      const key = refs.has(bare) ? bare : bare.endsWith('.md') ? bare.slice(0, -3) : undefined;
      const resolved = key !== undefined ? refs.get(key) : undefined;
      return resolved ? `](${resolved}${title})` : whole;
    },
  );
}
