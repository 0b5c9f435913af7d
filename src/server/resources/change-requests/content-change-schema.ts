import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  FileName,
  MAX_PAGE_DESCRIPTION_LENGTH,
  MultilineText,
  PageTitle,
  SingleLineText,
  Slug,
} from '../../http/text-schemas';
import { FileSchema } from '../content/content-schema';
import { ChangeRequestSchema } from './change-request-serializer';

const Id = Type.String({ minLength: 1, maxLength: 100 });

/**
 * The longest page Markdown the server stores (UTF-16 code units, as JavaScript counts). Pages
 * are read whole by every client and converted whole for documents, links, search and PDFs: a
 * bound keeps each of those bounded.
 */
export const MAX_PAGE_MARKDOWN_CHARS = 2_000_000;
const Ref = Type.String({ minLength: 1, maxLength: 256 });

/** RevisionPageUpdate of the published API: page metadata settable on insert and update. */
const PageFields = {
  title: Type.Optional(PageTitle),
  slug: Type.Optional(Slug),
  emoji: Type.Optional(SingleLineText({ maxLength: 50 })),
  icon: Type.Optional(SingleLineText({ maxLength: 50 })),
  description: Type.Optional(MultilineText({ maxLength: MAX_PAGE_DESCRIPTION_LENGTH })),
  hidden: Type.Optional(Type.Boolean()),
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
  /** Adaptive content: accepted, not stored (this server shows every page to every reader). */
  condition: Type.Optional(Type.String()),
};

/**
 * Published Document: `{ markdown }`, `{ document }` or `{}`. One object with both optional
 * (rather than a union whose `{}` branch matches anything) so `{ markdown: 5 }` is refused.
 */
const DocumentSchema = Type.Object({
  // At most MAX_PAGE_MARKDOWN_CHARS, checked by the route: a schema maxLength would count the
  // code points of megabytes on the event loop.
  markdown: Type.Optional(Type.String()),
  document: Type.Optional(Type.Unknown()),
});

const InsertPage = Type.Object({
  operation: Type.Literal('insert_page'),
  ...PageFields,
  into: Type.Optional(Id),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
  ref: Type.Optional(Ref),
  document: DocumentSchema,
});

const UpdatePage = Type.Object({
  operation: Type.Literal('update_page'),
  page: Id,
  ...PageFields,
  document: Type.Optional(DocumentSchema),
  into: Type.Optional(Type.Union([Id, Type.Null()])),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
});

const DeletePage = Type.Object({ operation: Type.Literal('delete_page'), page: Id });

const RevertPage = Type.Object({
  operation: Type.Literal('revert_page'),
  page: Id,
  revision: Type.Optional(Id),
  block: Type.Optional(Type.Array(Type.String())),
});

/** Exactly one of `url` and `base64` (checked by the route, which can name the file). */
const FileInput = Type.Object({
  name: FileName({ maxLength: 256 }),
  ref: Type.Optional(Ref),
  contentType: Type.Optional(SingleLineText({ minLength: 1, maxLength: 255 })),
  url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
  base64: Type.Optional(Type.String()),
});

const InsertFiles = Type.Object({
  operation: Type.Literal('insert_files'),
  files: Type.Array(FileInput, { minItems: 1, maxItems: 20 }),
});

const OPERATIONS: Record<string, TSchema> = {
  insert_page: InsertPage,
  update_page: UpdatePage,
  delete_page: DeletePage,
  revert_page: RevertPage,
  insert_files: InsertFiles,
};

export type FileInputBody = Static<typeof FileInput>;
export type DocumentBody = Static<typeof DocumentSchema>;
export type ContentChangeBody =
  | Static<typeof InsertPage>
  | Static<typeof UpdatePage>
  | Static<typeof DeletePage>
  | Static<typeof RevertPage>
  | Static<typeof InsertFiles>;

/**
 * One change, by `operation`. A union (anyOf) would report the first branch's complaint about a
 * change of another kind; `if operation is X then X's schema` names the real problem instead
 * ("body.changes.2 must have required property 'page'").
 */
const ContentChangeSchema = Type.Unsafe<ContentChangeBody>({
  type: 'object',
  required: ['operation'],
  properties: { operation: { type: 'string', enum: Object.keys(OPERATIONS) } },
  allOf: Object.entries(OPERATIONS).map(([operation, schema]) => ({
    if: {
      type: 'object',
      properties: { operation: { const: operation } },
      required: ['operation'],
    },
    then: schema,
  })),
});

export const MAX_CHANGES = 50;

export const ContentChangesBody = Type.Object({
  changes: Type.Array(ContentChangeSchema, { minItems: 1, maxItems: MAX_CHANGES }),
});

export const ContentChangesQuery = Type.Object({
  compat: Type.Optional(Type.Boolean({ default: true })),
});

const PageRef = Type.Object({
  object: Type.Literal('page'),
  id: Type.String(),
  urls: Type.Object({ location: Type.String() }),
});

export const ContentUpdateSchema = Type.Object({
  changeRequest: ChangeRequestSchema,
  changes: Type.Array(
    Type.Union([
      Type.Object({
        object: Type.Literal('created_page'),
        ref: Type.Optional(Type.String()),
        page: PageRef,
      }),
      Type.Object({ object: Type.Literal('updated_page'), page: PageRef }),
      Type.Object({ object: Type.Literal('deleted_page'), page: Type.String() }),
    ]),
  ),
  insertedFiles: Type.Array(FileSchema),
});

export const IMPORT_SOURCES = ['markdown', 'html', 'website'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export const ImportBody = Type.Object({
  url: Type.String({ format: 'uri', maxLength: 2048 }),
  /** Checked by the route, which names the supported sources (published: a longer enum). */
  source: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ImportResponse = Type.Object({
  revision: Type.String(),
  importedResources: Type.Integer(),
  totalResources: Type.Integer(),
});
