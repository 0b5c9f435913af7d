import type { FastifyInstance, FastifySchemaValidationError, FastifyServerOptions } from 'fastify';
import { badRequest } from './api-error';
import { closeObjectSchemas } from './closed-schema';
import { validationMessage } from './error-handler';

/** The Ajv instance Fastify builds (its type, without depending on the ajv package ourselves). */
type FastifyAjv = Parameters<NonNullable<NonNullable<FastifyServerOptions['ajv']>['onCreate']>>[0];
type Validate = ReturnType<FastifyAjv['compile']>;

/** Methods whose body, when the operation defines none, must be empty. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A body schema compiled twice: as written, and with every object closed (closeObjectSchemas). */
interface Compiled {
  exact: Validate;
  closed: Validate;
}

/**
 * Ajv coerces types (`coerceTypes: 'array'`) because query strings and path parameters arrive as
 * text. A JSON body has real types, and coercing it accepts bad input: `{ "title": 123 }` became
 * "123", `{ "defaultRole": "" }` became null, `"a.test"` became `["a.test"]`. So bodies are first
 * validated by a twin of Fastify's Ajv that does not coerce (400 naming the field and the rule);
 * Fastify's own validation then runs on a body already of the right types, and changes nothing.
 *
 * No silent drops: a body property the operation does not define is refused (400 naming it), as
 * is any body property sent to a write operation that takes no body. An `update_page` with
 * `markdown` beside `document` instead of inside it used to answer 200 and change nothing.
 */
export class StrictBodyValidator {
  private strict: FastifyAjv | undefined;
  /** null: a schema the twin cannot compile alone (shared `$ref`s); Fastify's check still runs. */
  private readonly compiled = new WeakMap<object, Compiled | null>();

  /**
   * Fastify's `ajv.onCreate`: the twin gets the same options and formats, without coercion and
   * without removing properties.
   */
  readonly onCreate = (ajv: FastifyAjv): void => {
    if (this.strict) return;
    const AjvClass = ajv.constructor as new (options: FastifyAjv['opts']) => FastifyAjv;
    // removeAdditional off: closed objects must refuse a property, not quietly remove it.
    const strict = new AjvClass({ ...ajv.opts, coerceTypes: false, removeAdditional: false });
    for (const [name, format] of Object.entries(ajv.formats)) {
      if (format !== undefined) strict.addFormat(name, format);
    }
    this.strict = strict;
  };

  private compile(schema: object): Compiled | null {
    if (!this.strict) return null;
    try {
      return {
        exact: this.strict.compile(schema),
        closed: this.strict.compile(closeObjectSchemas(schema) as object),
      };
    } catch {
      return null;
    }
  }

  install(app: FastifyInstance): void {
    // Callback form: it runs on every request, reads included, and has nothing to wait for.
    app.addHook('preValidation', (request, _reply, done) => {
      const schema = request.routeOptions.schema?.body;
      if (schema === undefined) {
        if (WRITE_METHODS.has(request.method)) refuseAnyProperty(request.body);
      } else {
        this.check(request.body, schema);
      }
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
    if (!validate.exact(body)) {
      const errors = (validate.exact.errors ?? []) as FastifySchemaValidationError[];
      throw badRequest(validationMessage(errors, 'body'));
    }
    // Valid as written: anything the closed schema refuses is a property nobody defined.
    if (!validate.closed(body)) {
      const errors = (validate.closed.errors ?? []) as FastifySchemaValidationError[];
      throw badRequest(unknownPropertyMessage(errors));
    }
  }
}

/** `body.changes.0.markdown is not a property of this operation`. */
function unknownPropertyMessage(errors: readonly FastifySchemaValidationError[]): string {
  const unknown = errors.find((error) => error.keyword === 'additionalProperties');
  if (!unknown) return validationMessage(errors, 'body');
  const path = `body${unknown.instancePath.replaceAll('/', '.')}`;
  return `${path}.${String(unknown.params['additionalProperty'])} is not a property of this operation`;
}

/** An operation without a body schema takes no body: any property in one would be ignored. */
function refuseAnyProperty(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Buffer.isBuffer(body)) {
    return;
  }
  const [first] = Object.keys(body);
  if (first !== undefined) {
    throw badRequest(`body.${first} is not a property of this operation (it takes no body)`);
  }
}
