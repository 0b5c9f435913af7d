import { Type } from '@sinclair/typebox';
import { ListSchema, PageQuerySchema } from '../../http/common-schemas';
import { HTTP_URL_PATTERN } from '../../http/text-schemas';

/** The spec's limits (Limits table, "OpenAPI spec"), and this server's bound on a document. */
export const OPENAPI_LIMITS = {
  slug: 100,
  url: 2048,
  /** Characters of a specification sent as text, and bytes of one fetched from a URL. */
  document: 5 * 1024 * 1024,
} as const;

/** The spec's slug pattern (lower-case words joined by single hyphens). */
export const SPEC_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];

/** The published API's OpenAPISpecProcessingErrorCode. */
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

const Id = Type.String({ minLength: 1, maxLength: 100 });
/** Reads look a slug up (an unknown one is a 404); only writes hold it to the pattern. */
const AnySlug = Type.String({ minLength: 1, maxLength: OPENAPI_LIMITS.slug });
const Slug = Type.String({
  minLength: 1,
  maxLength: OPENAPI_LIMITS.slug,
  pattern: SPEC_SLUG_PATTERN,
});

export const OrgParams = Type.Object({ organizationId: Id });
export const SpecParams = Type.Object({ organizationId: Id, specSlug: AnySlug });
export const PutSpecParams = Type.Object({ organizationId: Id, specSlug: Slug });
export const VersionParams = Type.Object({ organizationId: Id, specSlug: AnySlug, versionId: Id });
export const ListQuery = Type.Object(PageQuerySchema);

const SourceUrl = Type.String({
  format: 'uri',
  maxLength: OPENAPI_LIMITS.url,
  pattern: HTTP_URL_PATTERN,
});

/** `{ url }` (fetched and kept up to date by processing) or `{ text }` (the document itself). */
export const SourceSchema = Type.Union([
  Type.Object({ url: SourceUrl }),
  Type.Object({ text: Type.String({ minLength: 1, maxLength: OPENAPI_LIMITS.document }) }),
]);

export const CreateSpecBody = Type.Object({ slug: Slug, source: SourceSchema });
export const PutSpecBody = Type.Object({ source: SourceSchema });

const ErrorObject = Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) });

export const OpenApiSpecSchema = Type.Object({
  object: Type.Literal('openapi-spec'),
  id: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  slug: Type.String(),
  sourceURL: Type.Optional(Type.String()),
  processingState: Type.String(),
  visibility: Type.String(),
  lastVersion: Type.Optional(Type.String()),
  lastProcessedAt: Type.Optional(Type.String()),
  lastProcessErrorCode: Type.Optional(Type.String()),
  lastProcessedErrors: Type.Optional(Type.Array(ErrorObject)),
  lastProcessedErrorCount: Type.Integer(),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Type.String(), app: Type.String() }),
});
export const OpenApiSpecListSchema = ListSchema(OpenApiSpecSchema);

export const OpenApiSpecVersionSchema = Type.Object({
  object: Type.Literal('openapi-spec-version'),
  id: Type.String(),
  createdAt: Type.String(),
  url: Type.String(),
  urls: Type.Object({ location: Type.String() }),
});
export const OpenApiSpecVersionListSchema = ListSchema(OpenApiSpecVersionSchema);

/**
 * A version's content: the spec's `{ filesystem, url }` and the published client's `urls`. The
 * body is assembled as JSON text around the stored document (never parsed on the event loop).
 */
export const OpenApiSpecContentSchema = Type.Unsafe<Buffer>(
  Type.Object({
    filesystem: Type.Record(Type.String(), Type.Unknown()),
    url: Type.String(),
    urls: Type.Object({ source: Type.String(), public: Type.Null() }),
  }),
);

/** The published API's raw content: the entry file exactly as fetched or sent. */
export const OpenApiSpecRawContentSchema = Type.Object({
  text: Type.String(),
  format: Type.Union([Type.Literal('json'), Type.Literal('yaml')]),
});
