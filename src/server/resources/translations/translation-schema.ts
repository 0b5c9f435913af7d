import { Type } from '@sinclair/typebox';
import { ListSchema, PageQuerySchema } from '../../http/common-schemas';
import { SingleLineText } from '../../http/text-schemas';
import { StringEnum } from '../members/string-enum';

/** The language codes the published GitBook API translates into (its TranslationLanguage). */
export const TRANSLATION_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

/** The spec's limit (Limits table, "Translation settings"). */
export const MAX_TRANSLATION_TITLE_LENGTH = 100;

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const OrgParams = Type.Object({ organizationId: Id });
export const TranslationParams = Type.Object({ organizationId: Id, translationSettingsId: Id });
export const ListTranslationsQuery = Type.Object(PageQuerySchema);

export const TranslationSettingsSchema = Type.Object({
  object: Type.Literal('translation-settings'),
  id: Type.String(),
  title: Type.String(),
  languages: Type.Array(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Type.String() }),
});

export const TranslationSettingsListSchema = ListSchema(TranslationSettingsSchema);

const Title = SingleLineText({ minLength: 1, maxLength: MAX_TRANSLATION_TITLE_LENGTH });
// Each language at most once, so the list can never outgrow the codes there are.
const Languages = Type.Array(StringEnum(TRANSLATION_LANGUAGES), {
  maxItems: TRANSLATION_LANGUAGES.length,
  uniqueItems: true,
});

/** `languages` is optional: the spec's body has only `title`, and a new setting starts with none. */
export const CreateTranslationBody = Type.Object({
  title: Title,
  languages: Type.Optional(Languages),
});

/** PUT replaces the title; `languages`, when sent, replaces the list, and is kept when omitted. */
export const PutTranslationBody = CreateTranslationBody;
