import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, badRequest, conflict, forbidden, notFound } from './api-error';
import { errorResponses } from './common-schemas';
import { installErrorHandler, validationMessage } from './error-handler';
import { StrictBodyValidator } from './strict-body-validator';

let app: FastifyInstance;
beforeAll(async () => {
  const strict = new StrictBodyValidator();
  app = Fastify({
    logger: false,
    ajv: {
      customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true },
      onCreate: strict.onCreate,
    },
  });
  installErrorHandler(app);
  strict.install(app);
  app.get('/api-error', async () => {
    throw new ApiError(429, 'Slow down', { 'retry-after': '7' });
  });
  app.get('/helpers/:which', async (request) => {
    const { which } = request.params as { which: string };
    throw {
      bad: badRequest('bad'),
      forbidden: forbidden(),
      missing: notFound('Thing x'),
      conflict: conflict('taken'),
    }[which];
  });
  app.get('/bug', async () => {
    throw new Error('secret internals: SELECT * FROM tokens');
  });
  app.get('/fastify-4xx', async () => {
    throw Object.assign(new Error('I am a teapot'), { statusCode: 418 });
  });
  app.post(
    '/typed',
    {
      schema: {
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
          flag: Type.Optional(Type.Boolean()),
        }),
        body: Type.Object({
          title: Type.String({ minLength: 2, maxLength: 5 }),
          role: Type.Optional(
            Type.Union([Type.Literal('read'), Type.Literal('edit'), Type.Null()]),
          ),
          link: Type.Optional(Type.Union([Type.String({ format: 'uri' }), Type.Null()])),
          pointer: Type.Optional(
            Type.Union([
              Type.Object({ type: Type.Literal('space'), space: Type.String() }),
              Type.Null(),
            ]),
          ),
          tags: Type.Optional(Type.Array(Type.String())),
          count: Type.Optional(Type.Integer()),
        }),
        response: {
          200: Type.Object({ ok: Type.Boolean(), body: Type.Unknown(), query: Type.Unknown() }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({ ok: true, body: request.body, query: request.query }),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

async function call(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const response = await app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.json() as { error?: { code: number; message: string } } & Record<
      string,
      unknown
    >,
  };
}

describe('error handler', () => {
  it('sends an ApiError as the envelope with its status and headers', async () => {
    const response = await call('GET', '/api-error');
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
    expect(response.body).toEqual({ error: { code: 429, message: 'Slow down' } });
  });

  it('maps each helper to its status', async () => {
    const expected = { bad: 400, forbidden: 403, missing: 404, conflict: 409 };
    for (const [which, status] of Object.entries(expected)) {
      const response = await call('GET', `/helpers/${which}`);
      expect(response.status).toBe(status);
      expect(response.body.error?.code).toBe(status);
    }
    expect((await call('GET', '/helpers/missing')).body.error?.message).toBe('Thing x not found');
  });

  it('answers a bug with a 500 that does not leak its message', async () => {
    const response = await call('GET', '/bug');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: { code: 500, message: 'Internal server error' } });
  });

  it('keeps the status and message of other client errors', async () => {
    const response = await call('GET', '/fastify-4xx');
    expect(response.body).toEqual({ error: { code: 418, message: 'I am a teapot' } });
  });

  it('answers unknown routes with a 404 envelope naming method and path (without the query)', async () => {
    const response = await call('GET', '/nowhere?secret=1');
    expect(response.body).toEqual({
      error: { code: 404, message: 'No operation at GET /nowhere' },
    });
  });

  it('names query fields as query.<name> with the rule', async () => {
    expect((await call('POST', '/typed?limit=1001', { title: 'ok' })).body.error?.message).toBe(
      'query.limit must be <= 1000',
    );
    expect((await call('POST', '/typed?limit=abc', { title: 'ok' })).body.error?.message).toBe(
      'query.limit must be integer',
    );
    // Query strings are text: they are still coerced.
    const coerced = await call('POST', '/typed?limit=5&flag=true', { title: 'ok' });
    expect(coerced.body['query']).toEqual({ limit: 5, flag: true });
  });

  it('names body fields and their rule', async () => {
    const message = async (body: unknown) =>
      (await call('POST', '/typed', body)).body.error?.message;
    expect(await message({ title: 'x' })).toBe('body.title must NOT have fewer than 2 characters');
    expect(await message({ title: 'xxxxxx' })).toBe(
      'body.title must NOT have more than 5 characters',
    );
    expect(await message({})).toBe("body must have required property 'title'");
  });

  it('does not coerce JSON body types', async () => {
    const message = async (body: unknown) =>
      (await call('POST', '/typed', body)).body.error?.message;
    expect(await message({ title: 123 })).toBe('body.title must be string');
    expect(await message({ title: null })).toBe('body.title must be string');
    expect(await message({ title: ['abc'] })).toBe('body.title must be string');
    expect(await message({ title: 'ok', tags: 'one' })).toBe('body.tags must be array');
    expect(await message({ title: 'ok', tags: [1] })).toBe('body.tags.0 must be string');
    expect(await message({ title: 'ok', count: '3' })).toBe('body.count must be integer');
    expect(await message({ title: 'ok', count: 1.5 })).toBe('body.count must be integer');
  });

  it('lists what a union accepts, or names the field that failed inside it', async () => {
    const message = async (body: unknown) =>
      (await call('POST', '/typed', body)).body.error?.message;
    expect(await message({ title: 'ok', role: '' })).toBe(
      'body.role must be one of: read, edit, null',
    );
    expect(await message({ title: 'ok', role: 'boss' })).toBe(
      'body.role must be one of: read, edit, null',
    );
    expect(await message({ title: 'ok', role: 0 })).toBe(
      'body.role must be one of: read, edit, null',
    );
    expect(await message({ title: 'ok', link: '' })).toMatch(/^body\.link must /);
    expect(await message({ title: 'ok', pointer: { type: 'space', space: 3 } })).toBe(
      'body.pointer.space must be string',
    );
    expect(await message({ title: 'ok', pointer: 'x' })).toBe(
      'body.pointer must be object or null',
    );
    // Valid values pass untouched: null stays null, nothing is coerced into it.
    const ok = await call('POST', '/typed', { title: 'ok', role: null, link: null, pointer: null });
    expect(ok.body['body']).toEqual({ title: 'ok', role: null, link: null, pointer: null });
    const edit = await call('POST', '/typed', {
      title: 'ok',
      role: 'edit',
      link: 'https://x.test/a',
    });
    expect(edit.body['body']).toEqual({ title: 'ok', role: 'edit', link: 'https://x.test/a' });
  });
});

describe('validationMessage', () => {
  it('falls back to a generic message without details', () => {
    expect(validationMessage([], 'body')).toBe('body is invalid');
  });

  it('adds allowed values of an enum and the name of a stray property', () => {
    expect(
      validationMessage(
        [
          {
            keyword: 'enum',
            instancePath: '/kind',
            schemaPath: '#/properties/kind/enum',
            params: { allowedValues: ['a', 'b'] },
            message: 'must be equal to one of the allowed values',
          },
        ],
        'body',
      ),
    ).toBe('body.kind must be equal to one of the allowed values: a, b');
    expect(
      validationMessage(
        [
          {
            keyword: 'additionalProperties',
            instancePath: '',
            schemaPath: '#/additionalProperties',
            params: { additionalProperty: 'zzz' },
            message: 'must NOT have additional properties',
          },
        ],
        'query',
      ),
    ).toBe('query must NOT have additional properties (zzz)');
  });
});
