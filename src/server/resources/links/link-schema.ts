import { Type, type TSchema } from '@sinclair/typebox';
import { PageQuerySchema } from '../../http/common-schemas';

const IdParam = Type.String({ minLength: 1, maxLength: 100 });

export const SpaceLinksParams = Type.Object({ spaceId: IdParam });
export const ChangeRequestPageLinksParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: IdParam,
  pageId: IdParam,
});
export const ChangeRequestFileBacklinksParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: IdParam,
  fileId: IdParam,
});

export const LinkStatusSchema = Type.Union([
  Type.Literal('ok'),
  Type.Literal('broken'),
  Type.Literal('in-app'),
]);

export const SpaceLinksQuery = Type.Object({
  ...PageQuerySchema,
  status: Type.Optional(LinkStatusSchema),
});
export const PageOnlyQuery = Type.Object(PageQuerySchema);

/** Which content a reference is read in: a change request's, or (absent) the space's live one. */
export const VersionContextSchema = Type.Object({
  kind: Type.Literal('change-request'),
  changeRequest: Type.String(),
});

/**
 * An absolute content reference. `page`/`file`/`url` name the target; a broken link that names
 * no id carries what it designates instead: `path` (a page path) or `name` (a file name).
 */
export const ContentReferenceSchema = Type.Object({
  kind: Type.Union([Type.Literal('page'), Type.Literal('file'), Type.Literal('url')]),
  organization: Type.Optional(Type.String()),
  space: Type.Optional(Type.String()),
  versionContext: Type.Optional(VersionContextSchema),
  page: Type.Optional(Type.String()),
  file: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
});

export const LinkItemSchema = Type.Object({
  status: LinkStatusSchema,
  relation: Type.Literal('reference'),
  targetReference: ContentReferenceSchema,
  locationReferences: Type.Array(ContentReferenceSchema),
});

export const LinkStatsSchema = Type.Object({
  total: Type.Integer(),
  broken: Type.Object({ total: Type.Integer(), changeRequest: Type.Integer() }),
});

/** The list envelope plus `stats`. */
export const LinkListSchema = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    next: Type.Optional(Type.Object({ page: Type.String() })),
    count: Type.Integer(),
    stats: LinkStatsSchema,
  });
