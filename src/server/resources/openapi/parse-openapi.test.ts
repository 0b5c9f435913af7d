import { describe, expect, it } from 'vitest';
import { parseOpenApi } from './parse-openapi';

const PETS_30 = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  paths: {
    '/pets': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
  },
  components: { schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } } },
};

const PETS_31_YAML = `openapi: 3.1.0
info:
  title: Pets
  version: "2.0"
paths:
  /pets/{id}:
    parameters:
      - $ref: '#/components/parameters/Id'
    get:
      responses:
        '200':
          description: one pet
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
components:
  parameters:
    Id:
      name: id
      in: path
      required: true
      schema: { type: string }
  schemas:
    Pet:
      type: object
      properties:
        parent: { $ref: '#/components/schemas/Pet' }
`;

describe('parseOpenApi', () => {
  it('parses and validates 3.0 JSON, keeping $refs as written', async () => {
    const result = await parseOpenApi(JSON.stringify(PETS_30));
    expect(result).toEqual({ ok: true, format: 'json', document: JSON.stringify(PETS_30) });
  });

  it('parses 3.1 YAML with internal and circular $refs', async () => {
    const result = await parseOpenApi(PETS_31_YAML);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.format).toBe('yaml');
    const document = JSON.parse(result.document) as { paths: Record<string, unknown> };
    expect(document.paths['/pets/{id}']).toMatchObject({
      parameters: [{ $ref: '#/components/parameters/Id' }],
    });
  });

  it('reports invalid documents with one line per problem', async () => {
    const missing = await parseOpenApi('{"openapi":"3.0.3","info":{"title":"x"},"paths":{}}');
    expect(missing).toMatchObject({ ok: false, errorCount: 1 });
    expect(!missing.ok && missing.errors[0]).toMatch(/version/);
    expect(!missing.ok && missing.errors[0]).not.toMatch(/\n/);
    expect(await parseOpenApi('{"openapi": ')).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^The document is not valid JSON/)],
    });
    expect(await parseOpenApi('a: [1, 2')).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^The document is not valid YAML/)],
    });
    expect(await parseOpenApi('just text')).toMatchObject({
      ok: false,
      errors: ['The document is not an object'],
    });
    expect(await parseOpenApi('title: no version')).toMatchObject({
      ok: false,
      errors: ['The document has no "openapi" version field'],
    });
    const dangling = await parseOpenApi(
      JSON.stringify({ ...PETS_30, components: { schemas: {} } }),
    );
    expect(dangling).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/Missing \$ref pointer/)],
    });
  });

  it('refuses references to other files and URLs without reading them', async () => {
    const refs = ['http://127.0.0.1:1/pet.yaml', './pet.yaml#/Pet', 'file:///etc/passwd'];
    for (const ref of refs) {
      const document = { ...PETS_30, components: { schemas: { Pet: { $ref: ref } } } };
      const result = await parseOpenApi(JSON.stringify(document));
      expect(result, ref).toEqual({
        ok: false,
        errors: [`External $ref "${ref}" is not supported: only "#/…" references`],
        errorCount: 1,
      });
    }
  });

  it('refuses YAML aliases that expand without limit, in bounded time', async () => {
    const lines = ['openapi: 3.0.3', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 30; i++) {
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    }
    const result = await parseOpenApi(lines.join('\n'));
    expect(result).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/expands to more than \d+ characters of JSON/)],
    });
  });

  it('refuses a few long strings repeated through aliases, before writing them out', async () => {
    const long = 'x'.repeat(4096);
    const lines = ['openapi: 3.0.3', `a0: &a0 [${Array(10).fill(long).join(', ')}]`];
    for (let i = 1; i < 5; i++) {
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    }
    const result = await parseOpenApi(lines.join('\n'));
    expect(result).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/characters of JSON/)],
    });
  });

  it('refuses nesting deeper than the stack', async () => {
    const deep = `{"openapi":"3.0.3","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const result = await parseOpenApi(deep);
    expect(result.ok).toBe(false);
  });
});
