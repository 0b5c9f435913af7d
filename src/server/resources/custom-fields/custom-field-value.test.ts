import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/api-error';
import {
  checkCustomFieldValue,
  keepOfferedChoices,
  type FieldDefinition,
} from './custom-field-value';

const field = (
  type: FieldDefinition['type'],
  options: string[] | null = null,
): FieldDefinition => ({
  name: 'f',
  type,
  options,
});

function rejection(definition: FieldDefinition, value: unknown): string {
  try {
    checkCustomFieldValue(definition, value);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error(`${JSON.stringify(value)} was accepted for ${definition.type}`);
}

describe('checkCustomFieldValue', () => {
  it('accepts a value of the field’s own type', () => {
    expect(checkCustomFieldValue(field('text'), 'hi')).toBe('hi');
    expect(checkCustomFieldValue(field('text'), '')).toBe('');
    expect(checkCustomFieldValue(field('number'), -1.5)).toBe(-1.5);
    expect(checkCustomFieldValue(field('boolean'), false)).toBe(false);
    expect(checkCustomFieldValue(field('tags'), [])).toEqual([]);
    expect(checkCustomFieldValue(field('tags'), ['a', 'b'])).toEqual(['a', 'b']);
    expect(checkCustomFieldValue(field('select:single', ['a', 'b']), 'b')).toBe('b');
    expect(checkCustomFieldValue(field('select:multi', ['a', 'b']), ['a', 'b'])).toEqual([
      'a',
      'b',
    ]);
  });

  it('names the field and the expected type on a mismatch, never coercing', () => {
    expect(rejection(field('text'), 5)).toBe(
      'body.values.f.value must be a string for text field f',
    );
    expect(rejection(field('number'), '5')).toMatch(/must be a number/);
    expect(rejection(field('number'), Number.NaN)).toMatch(/must be a number/);
    expect(rejection(field('boolean'), 1)).toMatch(/must be a boolean/);
    expect(rejection(field('tags'), 'a')).toMatch(/must be an array of strings/);
    expect(rejection(field('tags'), ['a', 1])).toMatch(/must be an array of strings/);
    expect(rejection(field('select:multi', ['a']), 'a')).toMatch(/must be an array of strings/);
    expect(rejection(field('select:single', ['a']), ['a'])).toMatch(/must be a string/);
    expect(rejection(field('text'), { a: 1 })).toMatch(/must be a string/);
  });

  it('limits strings, alone or in arrays, to 256 characters', () => {
    expect(checkCustomFieldValue(field('text'), 'x'.repeat(256))).toHaveLength(256);
    expect(rejection(field('text'), 'x'.repeat(257))).toBe(
      'body.values.f.value must NOT have more than 256 characters',
    );
    expect(rejection(field('tags'), ['ok', 'x'.repeat(257)])).toBe(
      'body.values.f.value.1 must NOT have more than 256 characters',
    );
  });

  it('only accepts offered choices for selects', () => {
    expect(rejection(field('select:single', ['a', 'b']), 'c')).toBe(
      'body.values.f.value "c" is not an option of field f: a, b',
    );
    expect(rejection(field('select:multi', ['a', 'b']), ['a', 'c'])).toMatch(
      /"c" is not an option/,
    );
  });
});

describe('keepOfferedChoices', () => {
  it('drops a single choice no longer offered and filters multiple ones', () => {
    expect(keepOfferedChoices('select:single', 'a', ['a'])).toBe('a');
    expect(keepOfferedChoices('select:single', 'b', ['a'])).toBeUndefined();
    expect(keepOfferedChoices('select:multi', ['a', 'b'], ['b', 'c'])).toEqual(['b']);
    expect(keepOfferedChoices('text', 'anything', [])).toBe('anything');
  });
});
