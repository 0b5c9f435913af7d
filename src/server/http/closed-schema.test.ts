import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { closeObjectSchemas } from './closed-schema';

const CLOSED = 'additionalProperties';

describe('closeObjectSchemas', () => {
  it('closes every object that lists its properties, at any depth, without touching the input', () => {
    const schema = Type.Object({
      title: Type.String(),
      document: Type.Optional(Type.Object({ markdown: Type.String() })),
      list: Type.Array(Type.Object({ id: Type.String() })),
      maybe: Type.Union([Type.Object({ a: Type.String() }), Type.Null()]),
    });
    const closed = closeObjectSchemas(schema);
    expect(closed).toHaveProperty([CLOSED], false);
    expect(closed).toHaveProperty(['properties', 'document', CLOSED], false);
    expect(closed).toHaveProperty(['properties', 'list', 'items', CLOSED], false);
    expect(closed).toHaveProperty(['properties', 'maybe', 'anyOf', 0, CLOSED], false);
    expect(closed).not.toHaveProperty(['properties', 'maybe', 'anyOf', 1, CLOSED]);
    expect(schema).not.toHaveProperty(CLOSED);
    expect(schema.properties.document).not.toHaveProperty(CLOSED);
  });

  it('leaves open what other keywords describe: records, compositions, conditions', () => {
    const record = closeObjectSchemas(
      Type.Record(Type.String(), Type.Object({ role: Type.String() })),
    );
    expect(record).not.toHaveProperty([CLOSED], false);
    expect(record).toHaveProperty(['patternProperties', '^(.*)$', CLOSED], false);
    const byOperation = closeObjectSchemas({
      type: 'object',
      properties: { operation: { type: 'string' } },
      allOf: [
        {
          if: { type: 'object', properties: { operation: { const: 'x' } } },
          then: { type: 'object', properties: { operation: {}, page: {} } },
        },
      ],
    });
    expect(byOperation).not.toHaveProperty(CLOSED);
    expect(byOperation).not.toHaveProperty(['allOf', 0, 'if', CLOSED]);
    expect(byOperation).toHaveProperty(['allOf', 0, 'then', CLOSED], false);
    const free = closeObjectSchemas(Type.Object({ data: Type.Unknown() }));
    expect(free).not.toHaveProperty(['properties', 'data', CLOSED]);
  });
});
