import { Type, type TUnsafe } from '@sinclair/typebox';

/**
 * A string enum as a plain JSON-schema `enum` (not a union of literals), so a bad value answers
 * "must be equal to one of the allowed values: …" naming every accepted value.
 */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { default?: T[number] } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}
