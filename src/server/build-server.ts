import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Access } from './auth/access';
import { VisitorClaimsSigner } from './auth/visitor-claims-signer';
import { systemClock, type Clock } from './clock';
import { defaultConfig, type ServerConfig } from './config';
import type { Db } from './db/open-database';
import { Authenticator, installAuthentication } from './http/authenticate';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  installErrorHandler,
} from './http/error-handler';
import { FastReads } from './http/fast-reads';
import { installJsonBodyParser } from './http/json-body-parser';
import { installIdempotency } from './http/idempotency';
import { RateLimiter } from './http/rate-limiter';
import { StrictBodyValidator } from './http/strict-body-validator';
import { Urls } from './http/urls';
import type { TypedApp } from './http/typed-app';
import { registerResourceRoutes } from './resources/register-resource-routes';
import { sweepDeletedSpaces } from './resources/spaces/space-trash';
import type { ServerContext } from './server-context';
import { CpuPool, defaultCpuPoolOptions } from './workers/cpu-pool';
import { MarkdownJobs } from './workers/markdown-jobs';

export interface BuildServerOptions {
  db: Db;
  config?: Partial<ServerConfig>;
  clock?: Clock;
  /** pino options, `false` to silence (tests), or a ready logger. */
  logger?: FastifyServerOptions['logger'];
  /** Serve the hottest reads outside Fastify's pipeline (default true; tests compare both). */
  fastReads?: boolean;
}

export interface QuireServer {
  app: TypedApp;
  ctx: ServerContext;
  /** Removes spaces deleted longer ago than the retention period; returns how many. */
  sweep(): number;
  close(): Promise<void>;
}

/**
 * Fastify's default (100) would answer a bare 414 before the route's own schema could name the
 * parameter and its limit; ids and e-mail domains are bounded by their schemas instead.
 */
const MAX_PARAM_LENGTH = 2048;

/** Fastify's default: longer than common proxies' idle timeouts, so they close first. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** Assembles the API server around an open database. Nothing is global: tests build many. */
export function buildServer(options: BuildServerOptions): QuireServer {
  const config = defaultConfig(options.config);
  const clock = options.clock ?? systemClock;
  const { db } = options;
  const authenticator = new Authenticator(
    db,
    new RateLimiter(config.rateLimitMax, config.rateLimitWindowMs, clock),
  );
  // 128 bits: request ids are logged and returned, never guessable.
  const newRequestId = () => crypto.randomUUID();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const fastReads = new FastReads(
    authenticator,
    () => dataVersion.get()!,
    newRequestId,
    // The same request line Fastify's logger writes (called only once requests arrive).
    options.logger ? (line) => app.log.info(line, 'request') : undefined,
  );
  const cpu = new CpuPool(
    defaultCpuPoolOptions({
      budgetMs: config.cpuJobBudgetMs,
      threads: config.cpuThreads,
      warmThreads: config.cpuWarmThreads,
      ...(config.cpuWorkerFile !== undefined ? { workerFile: config.cpuWorkerFile } : {}),
    }),
  );
  const ctx: ServerContext = {
    db,
    clock,
    config,
    access: new Access(db),
    urls: new Urls(config.publicUrl),
    visitorClaims: new VisitorClaimsSigner(db, clock),
    fastReads,
    cpu,
    markdown: new MarkdownJobs(cpu),
  };
  const useFastReads = options.fastReads ?? true;

  const strictBodies = new StrictBodyValidator();
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.bodyLimit,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler(authenticator, MAX_PARAM_LENGTH),
    clientErrorHandler,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: newRequestId,
    // Fastify's own HTTP/1 server (same timeouts), with the fast reads in front of its handler.
    serverFactory: (handler) => {
      const server = createServer(
        useFastReads
          ? (request, response) => {
              if (!fastReads.handle(request, response)) handler(request, response);
            }
          : handler,
      );
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      return server;
    },
    requestIdHeader: false,
    ajv: {
      customOptions: {
        coerceTypes: 'array',
        removeAdditional: true,
        useDefaults: true,
        allErrors: false,
      },
      onCreate: (ajv) => {
        strictBodies.onCreate(ajv);
        // The fast reads validate and coerce query strings with this same Ajv (same options).
        fastReads.setQueryCompiler((schema) => ajv.compile(schema));
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Hooks on every request take the callback form: an async hook costs a promise and a microtask
  // per request even when it has nothing to do, which shows on the cheapest reads.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    // Any request Fastify handles may write: cached fast reads are dropped before and after.
    fastReads.invalidate();
    done();
  });
  app.addHook('onSend', (_request, _reply, payload, done) => {
    fastReads.invalidate();
    done(null, payload);
  });
  app.addHook('onResponse', (_request, _reply, done) => {
    fastReads.invalidate();
    done();
  });
  // One structured line per request: id, method, path (no query: it can hold share keys), status, time.
  // Without a logger Fastify's request.log discards everything, so the line is not even built.
  if (options.logger) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          path: request.url.split('?')[0],
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 100) / 100,
          user: request.caller?.userId,
        },
        'request',
      );
      done();
    });
  }

  app.addHook('preClose', (done) => {
    fastReads.close();
    done();
  });
  app.addHook('onClose', async () => {
    await cpu.close();
  });

  installErrorHandler(app);
  installJsonBodyParser(app, cpu);
  installAuthentication(app, authenticator);
  strictBodies.install(app);
  installIdempotency(app, db, clock);
  registerResourceRoutes(app, ctx);

  const sweep = () => {
    const swept = sweepDeletedSpaces(ctx);
    fastReads.invalidate();
    return swept;
  };
  let timer: NodeJS.Timeout | undefined;
  if (config.sweepIntervalMs > 0) {
    timer = setInterval(sweep, config.sweepIntervalMs);
    timer.unref();
  }

  return {
    app,
    ctx,
    sweep,
    close: async () => {
      if (timer) clearInterval(timer);
      await app.close();
    },
  };
}
