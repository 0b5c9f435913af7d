import { describe, expect, it } from 'vitest';
import { rawJsonMarker, stringifyWithRawJson } from './raw-json';

describe('stringifyWithRawJson', () => {
  it('splices raw JSON where markers stand, and leaves look-alikes alone', () => {
    const value = {
      a: rawJsonMarker('h1'),
      list: [rawJsonMarker(''), 'text \u0001x:h1\u0001'],
    };
    const raw = new Map([
      ['h1', '{"object":"document","nodes":[1]}'],
      ['', '{"empty":true}'],
    ]);
    const json = stringifyWithRawJson(value, (key) => raw.get(key)!);
    expect(JSON.parse(json)).toEqual({
      a: { object: 'document', nodes: [1] },
      list: [{ empty: true }, 'text \u0001x:h1\u0001'],
    });
  });
});
