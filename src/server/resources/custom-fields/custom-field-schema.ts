import { Type } from '@sinclair/typebox';
import { MultilineText, SingleLineText } from '../../http/text-schemas';
import { ListSchema, Nullable } from '../../http/common-schemas';

/** The type enumeration of the last published API that had custom fields (0.91.0). */
export const CUSTOM_FIELD_TYPES = [
  'text',
  'number',
  'boolean',
  'tags',
  'select:multi',
  'select:single',
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Only these types choose among `options`; every other type must not carry any. */
export function isSelectType(type: CustomFieldType): boolean {
  return type === 'select:multi' || type === 'select:single';
}

export const NAME_PATTERN = '^[a-z_\\-0-9]+$';
export const MAX_STRING_VALUE_LENGTH = 256;

// A plain `enum` (not a union of literals) so a wrong value answers with the allowed list.
export const CustomFieldTypeSchema = Type.Unsafe<CustomFieldType>({
  type: 'string',
  enum: [...CUSTOM_FIELD_TYPES],
});

// An option longer than a string value could never be selected, so it shares the value limit.
const OptionsSchema = Type.Array(SingleLineText({ maxLength: MAX_STRING_VALUE_LENGTH }), {
  minItems: 1,
  maxItems: 50,
  uniqueItems: true,
});

export const CustomFieldSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  type: CustomFieldTypeSchema,
  placeholder: Type.Optional(Type.String()),
  options: Type.Optional(Type.Array(Type.String())),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  urls: Type.Object({ location: Type.String() }),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
});

export const CustomFieldListSchema = ListSchema(CustomFieldSchema);

export const CreateCustomFieldBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 50, pattern: NAME_PATTERN }),
  type: CustomFieldTypeSchema,
  title: Type.Optional(SingleLineText({ maxLength: 100 })),
  description: Type.Optional(MultilineText({ maxLength: 200 })),
  placeholder: Type.Optional(SingleLineText({ maxLength: 100 })),
  options: Type.Optional(OptionsSchema),
});

// null (or an empty string) clears a text attribute; options can only be replaced.
export const UpdateCustomFieldBody = Type.Object(
  {
    title: Type.Optional(Nullable(SingleLineText({ maxLength: 100 }))),
    description: Type.Optional(Nullable(MultilineText({ maxLength: 200 }))),
    placeholder: Type.Optional(Nullable(SingleLineText({ maxLength: 100 }))),
    options: Type.Optional(OptionsSchema),
  },
  { minProperties: 1 },
);

/** A stored space value: string, number, boolean or array of strings. */
export type CustomFieldValue = string | number | boolean | string[];

/**
 * Left to checkCustomFieldValue rather than the schema: with Ajv's type coercion a schema would
 * turn `5` into `"5"` for a text field (or `"5"` into 5 for a number one), and whether a value fits
 * depends on its field's type, which only the handler knows.
 */
const WritableValueSchema = Type.Unknown();

export const UpdateSpaceCustomFieldsBody = Type.Object({
  values: Type.Record(Type.String(), Type.Object({ value: WritableValueSchema })),
});

export const SpaceCustomFieldValuesSchema = Type.Array(
  Type.Object({
    customField: CustomFieldSchema,
    value: Type.Optional(
      Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String())]),
    ),
  }),
);
