import { Type } from '@sinclair/typebox';
import { ListSchema, Nullable, PageQuerySchema, BooleanQuery } from '../../http/common-schemas';
import { SingleLineText } from '../../http/text-schemas';
import { StringEnum } from '../members/string-enum';

/** The published API's SiteType values; the spec names `basic`, the default here. */
export const SITE_TYPES = [
  'basic',
  'premium',
  'ultimate',
  'sponsored',
  'legacy-basic',
  'legacy-premium',
] as const;
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
/**
 * The published API's literals that ask site creation for a new space instead of a list of ids
 * (`@gitbook/api` ≤ 0.130.0): `empty` (a blank space) and `sample` (one with a welcome page).
 */
export const NEW_SPACE_LITERALS = ['empty', 'sample'] as const;
/** The most spaces one create may add (each becomes a site space in one transaction). */
export const MAX_CREATE_SPACES = 100;
/** The spec's proxy pattern (a domain and at least one path segment, no scheme). */
export const PROXY_PATTERN = '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$';

export const Id = Type.String({ minLength: 1, maxLength: 100 });
export const OrgParams = Type.Object({ organizationId: Id });
export const SiteParams = Type.Object({ organizationId: Id, siteId: Id });

const Urls = Type.Object({
  location: Type.String(),
  app: Type.String(),
  published: Type.Optional(Type.String()),
});

export const SiteSchema = Type.Object({
  object: Type.Literal('site'),
  id: Type.String(),
  type: Type.String(),
  appliedType: Type.String(),
  title: Type.String(),
  basename: Type.Optional(Type.String()),
  proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
  visibility: Type.String(),
  published: Type.Boolean(),
  siteSpaces: Type.Integer(),
  createdAt: Type.String(),
  adaptiveContent: Type.Object({ enabled: Type.Boolean() }),
  features: Type.Array(
    Type.Object({ id: Type.String(), plan: Type.String(), frozen: Type.Boolean() }),
  ),
  permissions: Type.Object({
    view: Type.Boolean(),
    access: Type.Boolean(),
    edit: Type.Boolean(),
    create: Type.Boolean(),
    admin: Type.Boolean(),
    installIntegration: Type.Boolean(),
    viewAdaptiveSchema: Type.Boolean(),
    editAdaptiveSchema: Type.Boolean(),
  }),
  urls: Urls,
});

export const SiteTitle = SingleLineText({ minLength: 2, maxLength: 128 });
const Basename = SingleLineText({ minLength: 1, maxLength: 100 });
const Proxy = Type.String({ maxLength: 512, pattern: PROXY_PATTERN });

export const ListSitesQuery = Type.Object({
  ...PageQuerySchema,
  space: Type.Optional(Id),
  title: Type.Optional(SingleLineText({ maxLength: 128 })),
  published: Type.Optional(BooleanQuery),
});

export const CreateSiteBody = Type.Object({
  type: Type.Optional(StringEnum(SITE_TYPES)),
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(StringEnum(SITE_VISIBILITIES)),
  spaces: Type.Optional(
    // The literal first: Ajv's array coercion would otherwise turn "empty" into ["empty"].
    Type.Union([
      StringEnum(NEW_SPACE_LITERALS),
      Type.Array(Id, { maxItems: MAX_CREATE_SPACES, uniqueItems: true }),
    ]),
  ),
});

export const UpdateSiteBody = Type.Object({
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(StringEnum(SITE_VISIBILITIES)),
  basename: Type.Optional(Nullable(Basename)),
  adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
  defaultSiteSpace: Type.Optional(Id),
  defaultSiteSection: Type.Optional(Id),
  proxy: Type.Optional(Nullable(Proxy)),
});

export const SiteListSchema = ListSchema(SiteSchema);
