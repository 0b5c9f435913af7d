import { describe, expect, it } from 'vitest';
import {
  MAX_ADAPTIVE_SCHEMA_BYTES,
  checkAdaptiveSchema,
  defaultAdaptiveSchema,
} from './adaptive-schema';

const withClaims = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  additionalProperties: false,
});

describe('checkAdaptiveSchema', () => {
  it('accepts the default schema and every claim kind', () => {
    expect(checkAdaptiveSchema(defaultAdaptiveSchema())).toEqual(defaultAdaptiveSchema());
    const schema = withClaims({
      beta: { type: 'boolean', description: 'In the beta' },
      plan: { type: 'string', enum: ['free', 'pro'] },
      seats: { type: 'number' },
      roles: { type: 'array', description: 'Roles', items: { type: 'string' } },
      team: withClaims({ lead: { type: 'boolean' } }),
    });
    expect(checkAdaptiveSchema(schema)).toBe(schema);
  });

  it('refuses other shapes, naming where', () => {
    const cases: [unknown, RegExp][] = [
      [[], /body\.jsonSchema must be an object/],
      [{ ...withClaims({}), title: 'x' }, /body\.jsonSchema must not have the property "title"/],
      [withClaims({ x: 'boolean' }), /body\.jsonSchema\.properties\.x must be an object/],
      [withClaims({ x: { type: 'array', items: withClaims({}) } }), /properties\.x\.items must be/],
      [
        withClaims({ x: { type: 'boolean', minimum: 1 } }),
        /properties\.x must not have the property "minimum"/,
      ],
      [
        withClaims({ unsigned: { type: 'boolean' } }),
        /properties\.unsigned must be an object of claims/,
      ],
      [
        withClaims({ x: { type: 'string', enum: [] } }),
        /body\.jsonSchema.*enum must NOT have fewer than 1 items/,
      ],
    ];
    for (const [schema, message] of cases)
      expect(() => checkAdaptiveSchema(schema)).toThrow(message);
  });

  it('bounds nesting and size', () => {
    let deep: Record<string, unknown> = { type: 'boolean' };
    for (let i = 0; i < 6; i += 1) deep = withClaims({ inner: deep });
    expect(() => checkAdaptiveSchema(deep)).toThrow(/nests claims deeper than 4/);
    const description = 'x'.repeat(MAX_ADAPTIVE_SCHEMA_BYTES);
    expect(() => checkAdaptiveSchema(withClaims({ x: { type: 'boolean', description } }))).toThrow(
      /must be at most 32768 bytes/,
    );
  });
});
