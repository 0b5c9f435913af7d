import type { FastifyInstance, FastifySchemaValidationError, FastifyServerOptions } from 'fastify';
import { badRequest } from './api-error';
import { validationMessage } from './error-handler';

/** The Ajv instance Fastify builds (its type, without depending on the ajv package ourselves). */
type FastifyAjv = Parameters<NonNullable<NonNullable<FastifyServerOptions['ajv']>['onCreate']>>[0];
type Validate = ReturnType<FastifyAjv['compile']>;

/**
 * Ajv coerces types (`coerceTypes: 'array'`) because query strings and path parameters arrive as
 * text. A JSON body has real types, and coercing it accepts bad input: `{ "title": 123 }` became
 * "123", `{ "defaultRole": "" }` became null, `"a.test"` became `["a.test"]`. So bodies are first
 * validated by a twin of Fastify's Ajv that does not coerce (400 naming the field and the rule);
 * Fastify's own validation then runs on a body already of the right types, and changes nothing.
 */
export class StrictBodyValidator {
  private strict: FastifyAjv | undefined;
  /** null: a schema the twin cannot compile alone (shared `$ref`s); Fastify's check still runs. */
  private readonly compiled = new WeakMap<object, Validate | null>();

  /** Fastify's `ajv.onCreate`: the twin gets the same options and formats, without coercion. */
  readonly onCreate = (ajv: FastifyAjv): void => {
    if (this.strict) return;
    const AjvClass = ajv.constructor as new (options: FastifyAjv['opts']) => FastifyAjv;
    const strict = new AjvClass({ ...ajv.opts, coerceTypes: false });
    for (const [name, format] of Object.entries(ajv.formats)) {
      if (format !== undefined) strict.addFormat(name, format);
    }
    this.strict = strict;
  };

  private compile(schema: object): Validate | null {
    try {
      return this.strict?.compile(schema) ?? null;
    } catch {
      return null;
    }
  }

  install(app: FastifyInstance): void {
    // Callback form: it runs on every request, reads included, and has nothing to wait for.
    app.addHook('preValidation', (request, _reply, done) => {
      this.check(request.body, request.routeOptions.schema?.body);
      done();
    });
  }

  /** Throws 400 naming the field when `body` breaks `schema` without type coercion. */
  private check(body: unknown, schema: unknown): void {
    if (!this.strict || typeof schema !== 'object' || schema === null) return;
    if (body === undefined) return;
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      validate = this.compile(schema);
      this.compiled.set(schema, validate);
    }
    if (validate === null) return;
    if (!validate(body)) {
      const errors = (validate.errors ?? []) as FastifySchemaValidationError[];
      throw badRequest(validationMessage(errors, 'body'));
    }
  }
}
