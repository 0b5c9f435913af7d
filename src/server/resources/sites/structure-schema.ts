import { Type, type TSchema } from '@sinclair/typebox';
import { BooleanQuery, ListSchema, PageQuerySchema } from '../../http/common-schemas';
import { MultilineText, SingleLineText, SLUG_PATTERN } from '../../http/text-schemas';
import { SpaceSchema } from '../spaces/space-schema';
import { Id } from './site-schema';

export const SectionParams = Type.Object({ organizationId: Id, siteId: Id, siteSectionId: Id });
export const GroupParams = Type.Object({ organizationId: Id, siteId: Id, siteSectionGroupId: Id });
export const GroupSectionParams = Type.Object({
  organizationId: Id,
  siteId: Id,
  siteSectionGroupId: Id,
  siteSectionId: Id,
});
export const SiteSpaceParams = Type.Object({ organizationId: Id, siteId: Id, siteSpaceId: Id });

/** Sections and site spaces are read by visitors too: `shareKey` opens a share-link site. */
const ShareKey = Type.String({ minLength: 1, maxLength: 100 });
export const SharedListQuery = Type.Object({
  ...PageQuerySchema,
  shareKey: Type.Optional(ShareKey),
});
export const SiteSpaceListQuery = Type.Object({
  ...PageQuerySchema,
  shareKey: Type.Optional(ShareKey),
  default: Type.Optional(BooleanQuery),
});
export const PublishedQuery = Type.Object({ shareKey: Type.Optional(ShareKey) });

export const SiteSpaceSchema = Type.Object({
  object: Type.Literal('site-space'),
  id: Type.String(),
  path: Type.String(),
  section: Type.Optional(Type.String()),
  space: SpaceSchema,
  title: Type.String(),
  default: Type.Boolean(),
  condition: Type.Optional(Type.String()),
  hasAdvancedCustomizationFeature: Type.Boolean(),
  urls: Type.Object({ published: Type.Optional(Type.String()) }),
});

export const SiteSectionSchema = Type.Object({
  object: Type.Literal('site-section'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  default: Type.Boolean(),
  path: Type.String(),
  condition: Type.Optional(Type.String()),
  sectionGroup: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  siteSpaces: Type.Array(SiteSpaceSchema),
  urls: Type.Object({ published: Type.Optional(Type.String()) }),
});

export const SiteSectionGroupSchema = Type.Object({
  object: Type.Literal('site-section-group'),
  id: Type.String(),
  title: Type.String(),
  icon: Type.Optional(Type.String()),
  sections: Type.Array(SiteSectionSchema),
});

export const SiteSpaceListSchema = ListSchema(SiteSpaceSchema);
export const SiteSectionListSchema = ListSchema(SiteSectionSchema);
export const SiteSectionGroupListSchema = ListSchema(SiteSectionGroupSchema);

/**
 * A path is one URL segment of the published site. The spec sets only its length; the
 * segment rule (letters, digits, `.`, `_`, `-`) keeps every published address valid.
 */
/**
 * `null` or the schema, null tried first: Ajv's type coercion would otherwise turn a null into
 * '' for a string schema without a minimum length (a removal would store an empty value).
 */
const Nullable = <S extends TSchema>(schema: S) => Type.Union([Type.Null(), schema]);

export const Path = Type.String({ minLength: 1, maxLength: 100, pattern: SLUG_PATTERN });
export const Condition = MultilineText({ minLength: 1, maxLength: 1024 });
const Icon = SingleLineText({ maxLength: 50 });
const SectionTitle = SingleLineText({ minLength: 2, maxLength: 128 });
const GroupTitle = SingleLineText({ minLength: 1, maxLength: 100 });

export const AddSectionBody = Type.Object({
  spaceId: Id,
  // The spec's limit for a title given when the section is added.
  title: Type.Optional(SingleLineText({ minLength: 2, maxLength: 64 })),
});

export const UpdateSectionBody = Type.Object({
  title: Type.Optional(SectionTitle),
  path: Type.Optional(Path),
  defaultSiteSpace: Type.Optional(Id),
  condition: Type.Optional(Nullable(Condition)),
  icon: Type.Optional(Nullable(Icon)),
  description: Type.Optional(Nullable(MultilineText({ maxLength: 256 }))),
});

export const AddGroupBody = Type.Object({
  title: GroupTitle,
  icon: Type.Optional(Nullable(Icon)),
  sections: Type.Optional(Type.Array(Id, { maxItems: 1000, uniqueItems: true })),
});

export const UpdateGroupBody = Type.Object({
  title: Type.Optional(GroupTitle),
  icon: Type.Optional(Nullable(Icon)),
});

export const AddGroupSectionBody = Type.Object({ sectionId: Id });

export const AddSiteSpaceBody = Type.Object({ spaceId: Id, sectionId: Type.Optional(Id) });

export const UpdateSiteSpaceBody = Type.Object({
  path: Type.Optional(Path),
  condition: Type.Optional(Nullable(Condition)),
});

const SectionPointer = Type.Object({ type: Type.Literal('site-section'), siteSection: Id });
const SiteSpacePointer = Type.Object({ type: Type.Literal('site-space'), siteSpace: Id });

export const MoveSectionBody = Type.Object({
  position: Type.Optional(
    Type.Object({ before: Type.Optional(SectionPointer), after: Type.Optional(SectionPointer) }),
  ),
});
export const MoveSiteSpaceBody = Type.Object({
  position: Type.Optional(
    Type.Object({
      before: Type.Optional(SiteSpacePointer),
      after: Type.Optional(SiteSpacePointer),
    }),
  ),
});
/** The spec's group pointer is `{ type: 'site-section', id }`; the published API also names groups. */
const GroupPointer = Type.Object({
  type: Type.Union([Type.Literal('site-section'), Type.Literal('site-section-group')]),
  id: Id,
});
export const MoveGroupBody = Type.Object({
  position: Type.Optional(
    Type.Object({ before: Type.Optional(GroupPointer), after: Type.Optional(GroupPointer) }),
  ),
});
