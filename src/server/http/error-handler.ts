import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from './api-error';

export interface ErrorBody {
  error: { code: number; message: string };
}

export function errorBody(code: number, message: string): ErrorBody {
  return { error: { code, message } };
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
      const first = error.validation[0];
      const context = error.validationContext ?? 'request';
      const field = first?.instancePath
        ? `${context}${first.instancePath.replaceAll('/', '.')}`
        : context;
      const extra =
        first?.keyword === 'enum' && Array.isArray(first.params?.['allowedValues'])
          ? `: ${(first.params['allowedValues'] as unknown[]).join(', ')}`
          : first?.keyword === 'additionalProperties'
            ? ` (${String(first.params?.['additionalProperty'])})`
            : '';
      const message = `${field} ${first?.message ?? 'is invalid'}${extra}`;
      void reply.code(400).send(errorBody(400, message));
      return;
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? `Request body is larger than the limit of ${app.initialConfig.bodyLimit ?? 0} bytes`
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
