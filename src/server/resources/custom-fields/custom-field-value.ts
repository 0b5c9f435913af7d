import { badRequest } from '../../http/api-error';
import {
  MAX_STRING_VALUE_LENGTH,
  type CustomFieldType,
  type CustomFieldValue,
} from './custom-field-schema';

export interface FieldDefinition {
  name: string;
  type: CustomFieldType;
  options: readonly string[] | null;
}

const EXPECTED: Record<CustomFieldType, string> = {
  text: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  tags: 'an array of strings',
  'select:multi': 'an array of strings',
  'select:single': 'a string',
};

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Checks that `value` fits the field's type (and options for selects), and returns it typed.
 * Every failure is a 400 naming the field, since a space update may set many fields at once.
 */
export function checkCustomFieldValue(field: FieldDefinition, value: unknown): CustomFieldValue {
  const where = `body.values.${field.name}.value`;
  const mismatch = () =>
    badRequest(`${where} must be ${EXPECTED[field.type]} for ${field.type} field ${field.name}`);
  switch (field.type) {
    case 'text':
    case 'select:single':
      if (typeof value !== 'string') throw mismatch();
      checkLength(where, value);
      if (field.type === 'select:single') checkOptions(field, where, [value]);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw mismatch();
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw mismatch();
      return value;
    case 'tags':
    case 'select:multi':
      if (!isStringArray(value)) throw mismatch();
      value.forEach((item, index) => checkLength(`${where}.${index}`, item));
      if (field.type === 'select:multi') checkOptions(field, where, value);
      return value;
  }
}

function checkLength(where: string, value: string): void {
  if (value.length > MAX_STRING_VALUE_LENGTH) {
    throw badRequest(`${where} must NOT have more than ${MAX_STRING_VALUE_LENGTH} characters`);
  }
}

function checkOptions(field: FieldDefinition, where: string, chosen: readonly string[]): void {
  const options = field.options ?? [];
  const unknown = chosen.find((choice) => !options.includes(choice));
  if (unknown !== undefined) {
    throw badRequest(
      `${where} "${unknown}" is not an option of field ${field.name}: ${options.join(', ')}`,
    );
  }
}

/**
 * What remains of a stored select value once the field's options changed: a single choice that
 * is no longer offered is dropped (undefined), a multiple choice keeps its still-offered items.
 * Other types are unaffected.
 */
export function keepOfferedChoices(
  type: CustomFieldType,
  value: CustomFieldValue,
  options: readonly string[],
): CustomFieldValue | undefined {
  if (type === 'select:single') {
    return typeof value === 'string' && options.includes(value) ? value : undefined;
  }
  if (type === 'select:multi') {
    return isStringArray(value) ? value.filter((choice) => options.includes(choice)) : undefined;
  }
  return value;
}
