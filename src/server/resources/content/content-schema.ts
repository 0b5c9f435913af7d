import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { PageQuerySchema } from '../../http/common-schemas';
import { ChangeRequestSchema } from '../change-requests/change-request-serializer';
import type { JsonBytes } from './json-response-cache';

const IdParam = Type.String({ minLength: 1, maxLength: 100 });

/** The path parameters that name where a content read reads: the space's live revision… */
export const SpaceSourceParams = { spaceId: IdParam };
/** …one of its revisions by id… */
export const RevisionSourceParams = { spaceId: IdParam, revisionId: IdParam };
/** …or a change request's revision (`changeRequestId` is its id or its number). */
export const ChangeRequestSourceParams = { spaceId: IdParam, changeRequestId: IdParam };

/** The path parameters a content read adds to its source's. */
export const PageIdParams = { pageId: IdParam };
export const FileIdParams = { fileId: IdParam };
/** `*` is the page path: it may contain slashes (`guides/setup`). */
export const PagePathParams = { '*': Type.String({ maxLength: 2000 }) };

/**
 * A content read's path parameters: its source's, then its own. Typed as its own only: each read
 * is registered once for every source, and the source reads its own parameters (ContentRouteSource).
 */
export const contentParams = <O extends TProperties>(source: TProperties, own: O): TObject<O> =>
  Type.Object<O>({ ...source, ...own });

export const FormatSchema = Type.Union([Type.Literal('markdown'), Type.Literal('document')]);

/**
 * `metadata` and `computed` of the published API. This server keeps no mutable Git metadata and
 * no computed content, so both are accepted (and validated) but change nothing.
 */
const RevisionFlags = {
  metadata: Type.Optional(Type.Boolean()),
  computed: Type.Optional(Type.Boolean()),
};

/** Revision reads: `format` (an extension of this server) puts every page's content in the tree. */
export const RevisionQuery = Type.Object({ ...RevisionFlags, format: Type.Optional(FormatSchema) });

export const PagesQuery = Type.Object(RevisionFlags);

/**
 * Page reads. `format.markdown.refs`, `evaluated`, `dereferenced` and `cachedMetadata` are the
 * published options; pages are stored as Markdown with nothing to evaluate, so they are validated
 * and otherwise have no effect: `format=markdown` returns the Markdown exactly as stored.
 */
export const PageQuery = Type.Object({
  ...RevisionFlags,
  format: Type.Optional(FormatSchema),
  'format.markdown.refs': Type.Optional(
    Type.Union([Type.Literal('relative'), Type.Literal('stable')]),
  ),
  evaluated: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('deterministic-only')])),
  dereferenced: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('reusable-contents')])),
  cachedMetadata: Type.Optional(Type.Boolean()),
});

/** getPageDocumentInRevisionById takes only the published `evaluated` and `dereferenced`. */
export const PageDocumentQuery = Type.Object({
  evaluated: PageQuery.properties.evaluated,
  dereferenced: PageQuery.properties.dereferenced,
});

export const FilesQuery = Type.Object({ ...PageQuerySchema, ...RevisionFlags });
export const FileQuery = Type.Object(RevisionFlags);

/** The published default is 10; `more` tells how many were left out. */
export const DEFAULT_CHANGES_LIMIT = 10;
export const ChangesQuery = Type.Object({
  ...RevisionFlags,
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
});

export const FileSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  downloadURL: Type.String(),
  size: Type.Number(),
  dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
});

const PageCommon = {
  id: Type.String(),
  title: Type.String(),
  emoji: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  createdAt: Type.Optional(Type.String()),
  updatedAt: Type.Optional(Type.String()),
};
const PageFlags = {
  hidden: Type.Boolean(),
  noIndex: Type.Boolean(),
  noRobotsIndex: Type.Boolean(),
};

/**
 * A revision page: document, group or link, with its children. Documentation of what page and
 * revision reads send; those bodies are serialised natively (see json-response-cache), from
 * objects the page serializer builds field by field.
 */
export const PageSchema = Type.Recursive(
  (Self) =>
    Type.Union([
      Type.Object({
        ...PageCommon,
        kind: Type.Literal('sheet'),
        type: Type.Literal('document'),
        slug: Type.String(),
        path: Type.String(),
        description: Type.Optional(Type.String()),
        documentId: Type.Optional(Type.String()),
        urls: Type.Object({ app: Type.String() }),
        layout: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        cover: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        ...PageFlags,
        pages: Type.Array(Self),
        /** With `format=markdown`: the page's Markdown as stored. */
        markdown: Type.Optional(Type.String()),
        /** With `format=document`: the published JSON document derived from the Markdown. */
        document: Type.Optional(Type.Unknown()),
      }),
      Type.Object({
        ...PageCommon,
        kind: Type.Literal('group'),
        type: Type.Literal('group'),
        slug: Type.String(),
        path: Type.String(),
        ...PageFlags,
        pages: Type.Array(Self),
      }),
      Type.Object({
        ...PageCommon,
        kind: Type.Literal('link'),
        type: Type.Literal('link'),
        href: Type.String(),
        target: Type.Record(Type.String(), Type.Unknown()),
        hidden: Type.Optional(Type.Boolean()),
      }),
    ]),
  { $id: 'RevisionPage' },
);

export const RevisionSchema = Type.Object({
  object: Type.Literal('revision'),
  id: Type.String(),
  parents: Type.Array(Type.String()),
  /** `edits`, `merge`, `update`, `rollback`, as the revision was made. */
  type: Type.String(),
  /** Merge revisions: the change request that was merged. */
  mergedFrom: Type.Optional(ChangeRequestSchema),
  createdAt: Type.String(),
  pages: Type.Array(PageSchema),
  files: Type.Array(FileSchema),
  reusableContents: Type.Array(Type.Object({ id: Type.String(), title: Type.String() })),
  urls: Type.Object({
    app: Type.String(),
    published: Type.Optional(Type.String()),
    public: Type.Optional(Type.String()),
  }),
});

export const PagesSchema = Type.Object({ pages: Type.Array(PageSchema) });

export const PageDocumentSchema = Type.Object({
  object: Type.Literal('document'),
  data: Type.Record(Type.String(), Type.Unknown()),
  nodes: Type.Array(Type.Unknown()),
});

/** A 200 body sent as ready JSON bytes, documented by `schema`. */
export const PreSerialized = <T extends TSchema>(schema: T) => Type.Unsafe<JsonBytes>(schema);

const ChangedPageSchema = Type.Object({
  id: Type.String(),
  type: Type.String(),
  title: Type.String(),
  path: Type.Optional(Type.String()),
});
const ChangedFileSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  downloadURL: Type.String(),
});
const AttributesSchema = Type.Record(
  Type.String(),
  Type.Object({ before: Type.Optional(Type.Unknown()), after: Type.Optional(Type.Unknown()) }),
);

export const ChangeSchema = Type.Union([
  Type.Object({
    type: Type.Union([Type.Literal('page_created'), Type.Literal('page_deleted')]),
    page: ChangedPageSchema,
  }),
  Type.Object({
    type: Type.Literal('page_edited'),
    page: ChangedPageSchema,
    attributes: AttributesSchema,
  }),
  Type.Object({
    type: Type.Literal('page_moved'),
    page: ChangedPageSchema,
    parent: Type.Object({
      before: Type.Optional(ChangedPageSchema),
      after: Type.Optional(ChangedPageSchema),
    }),
  }),
  Type.Object({
    type: Type.Union([Type.Literal('file_created'), Type.Literal('file_deleted')]),
    file: ChangedFileSchema,
  }),
  Type.Object({
    type: Type.Literal('file_edited'),
    file: ChangedFileSchema,
    attributes: AttributesSchema,
  }),
]);

export const ChangesSchema = Type.Object({
  mergedFrom: Type.Optional(ChangeRequestSchema),
  changes: Type.Array(ChangeSchema),
  more: Type.Optional(Type.Integer()),
});
