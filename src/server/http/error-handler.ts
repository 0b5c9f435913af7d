import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import { ApiError } from './api-error';
import type { Authenticator } from './authenticate';
import { patternRule } from './text-schemas';

export interface ErrorBody {
  error: { code: number; message: string };
}

export function errorBody(code: number, message: string): ErrorBody {
  return { error: { code, message } };
}

const fieldName = (context: string, instancePath: string) =>
  `${context}${instancePath.replaceAll('/', '.')}`;

/** Ajv's complaint, except that a known pattern says its rule in words instead of as a regex. */
const ruleOf = (error: FastifySchemaValidationError): string =>
  (error.keyword === 'pattern' ? patternRule(error.params['pattern']) : undefined) ??
  error.message ??
  'is invalid';

/**
 * The message of a failed validation: the field and the rule (`body.title must NOT have more than
 * 255 characters`). A union that nothing matched (Ajv's `anyOf`, how TypeBox writes enumerations
 * and nullable fields) lists what it accepts instead of the first branch's complaint, unless the
 * value failed deeper inside a branch, which then names that field.
 */
export function validationMessage(
  errors: readonly FastifySchemaValidationError[],
  context: string,
): string {
  const first = errors[0];
  if (!first) return `${context} is invalid`;
  const last = errors[errors.length - 1];
  if (last && last.keyword === 'anyOf') {
    const path = last.instancePath;
    const deeper = errors.find((e) => e.instancePath.startsWith(`${path}/`));
    if (deeper) return `${fieldName(context, deeper.instancePath)} ${ruleOf(deeper)}`;
    const here = errors.filter((e) => e.instancePath === path);
    // A branch of the right type that broke one of its rules (a nullable string too long).
    const broken = here.find((e) => !['type', 'const', 'anyOf'].includes(e.keyword));
    if (broken) return `${fieldName(context, path)} ${ruleOf(broken)}`;
    const constants = here.flatMap((e) =>
      e.keyword === 'const' ? [String(e.params['allowedValue'])] : [],
    );
    const types = [
      ...new Set(here.flatMap((e) => (e.keyword === 'type' ? [String(e.params['type'])] : []))),
    ];
    const field = fieldName(context, path);
    if (constants.length > 0) {
      // Constants' own `type: string` adds nothing; `null` is listed as one more allowed value.
      const extra = types.includes('null') ? ['null'] : [];
      return `${field} must be one of: ${[...constants, ...extra].join(', ')}`;
    }
    if (types.length > 0) return `${field} must be ${types.join(' or ')}`;
    return `${field} must match one of the allowed shapes`;
  }
  const extra =
    first.keyword === 'enum' && Array.isArray(first.params['allowedValues'])
      ? `: ${(first.params['allowedValues'] as unknown[]).join(', ')}`
      : first.keyword === 'additionalProperties'
        ? ` (${String(first.params['additionalProperty'])})`
        : '';
  return `${fieldName(context, first.instancePath)} ${ruleOf(first)}${extra}`;
}

/**
 * Every failure leaves as `{ error: { code, message } }`. Fastify's own client errors (validation,
 * bad JSON, oversized or unsupported bodies) keep their 4xx status with a message naming the field
 * and the rule; only a genuine bug is a 500.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      void reply
        .headers(error.headers)
        .code(error.status)
        .send(errorBody(error.status, error.message));
      return;
    }
    if (error.validation) {
      // Named as the spec names it: `query.limit`, like the messages of paginate().
      const context =
        error.validationContext === 'querystring'
          ? 'query'
          : (error.validationContext ?? 'request');
      void reply.code(400).send(errorBody(400, validationMessage(error.validation, context)));
      return;
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? `Request body is larger than the limit of ${request.routeOptions.bodyLimit} bytes`
          : error.message;
      void reply.code(status).send(errorBody(status, message));
      return;
    }
    request.log.error({ err: error }, 'unhandled error');
    void reply.code(500).send(errorBody(500, 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(errorBody(404, `No operation at ${request.method} ${request.url.split('?')[0]}`));
  });
}

/**
 * Errors Fastify raises before routing (a path that is not valid percent-encoding, a path segment
 * longer than the router accepts): the same envelope and rate-limit headers as everything else.
 */
export function frameworkErrorHandler(authenticator: Authenticator, maxParamLength: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    let status = 400;
    let message =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? `A path parameter is longer than the limit of ${maxParamLength} characters`
        : error.code === 'FST_ERR_BAD_URL'
          ? 'The path is not a valid URL: it holds a malformed percent-encoding'
          : error.message;
    try {
      authenticator.charge(request, reply, authenticator.credentials(request));
    } catch (refused) {
      // Thrown here, an error would escape Fastify altogether: answer it like the error handler.
      if (refused instanceof ApiError) {
        status = refused.status;
        message = refused.message;
        void reply.headers(refused.headers);
      } else {
        request.log.error({ err: refused }, 'unhandled error');
        status = 500;
        message = 'Internal server error';
      }
    }
    void reply.code(status).send(errorBody(status, message));
  };
}

/**
 * Requests Node cannot even parse (an unknown method, broken framing, oversized headers) never
 * reach Fastify; they still get the error envelope, written straight to the socket.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers are larger than the server accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify(errorBody(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
