// Builds the Fastify app in three tiers: external plugins (security headers, rate limit, API
// docs) → app plugins (error map, repositories, services, auth) → routes, then the SPA.
// It never listens: server.ts does, and tests use `app.inject`.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import './types';
import { warmUpPasswords } from './auth/passwords';
import { systemClock, type Clock, type ShiftableClock } from './clock';
import type { Config } from './config';
import type { Database } from './db/client';
import { createRepositories } from './db/repositories';
import { TooManyRequestsError } from './errors';
import { createSyncJobs, type SyncJobsOptions } from './jobs';
import { API_PREFIX, registerAuth } from './plugins/auth';
import { API_KEY_SECURITY_SCHEME, registerApiKeyRequests } from './plugins/api-keys';
import { BODY_LIMIT_BYTES, frameworkErrors, registerErrorHandler, rejectUnstorableText, routeNotFound } from './plugins/error-handler';
import { apiRoutes } from './routes';
import { createServices } from './services';
import type { ProviderAccess } from './services/console-provider';
import type { ProviderRegistry } from './provider-access';
import { syncable } from './services/provider-accounts';
import { simulatorPlugin } from './simulator';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** The clock every service reads; tests pass a controllable one. */
  now?: Clock;
  /** server.ts: the same clock, which the built-in simulator's controls (SIM_CONTROLS=on) may move forward. */
  clock?: ShiftableClock;
  /** Fastify logger option; defaults to `{ level: config.logLevel }`. */
  logger?: FastifyServerOptions['logger'];
  /**
   * The provider accounts (server.ts: the registry, which also mounts the built-in simulator's
   * accounts without Starlink settings), or one provider every account resolves to (tests), or
   * null when none is configured.
   */
  provider?: ProviderRegistry | ProviderAccess | null;
  /**
   * When the background sync starts (it exists only with a provider): 'onReady' with the app,
   * or 'manual' for server.ts, which starts `app.syncJobs` once the provider can be reached.
   */
  startSyncJobs?: 'onReady' | 'manual';
  /** Polling, heartbeat and expiry of the sync jobs (defaults suit production). */
  syncJobs?: SyncJobsOptions;
}

export const API_DOCS_PREFIX = '/api/docs';

/** Password-setup tokens travel in URLs; request logs keep the path but not the token. */
export function redactUrl(url: string): string {
  return url.replace(/(\/password-setup\/)[^/?#]+/, '$1[redacted]').replace(/([?&]token=)[^&#]*/, '$1[redacted]');
}

function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * One line per request instead of Fastify's two: "request completed" carries the request's fields
 * that "incoming request" did, since each line is serialized and written on the request's own
 * thread. Errors and broken streams are logged as Fastify logs them.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** The server's logger: requests logged with `serializeRequest`; lines to `stream` (else stdout). */
export function loggerOptions(level: Config['logLevel'], stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return { level, serializers: { req: serializeRequest }, ...(stream ? { stream } : {}) };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const now = options.now ?? systemClock;

  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    logController: new OneLinePerRequest(),
    frameworkErrors,
    // A hop count becomes the function proxy-addr would build: trust the nearest N hops.
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  // The API speaks JSON only; anything else is a 415 rather than a string the schemas reject.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  app.addHook('preValidation', rejectUnstorableText);

  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    // Sign-in answers carry tokens: no cache may keep any API response.
    if (request.url.startsWith('/api/')) void reply.header('cache-control', 'no-store');
  });

  // Tier 1: external plugins.
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // PrimeReact and Swagger UI set inline styles; scripts stay same-origin only.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // The portal is often reached over plain HTTP on a LAN; upgrading would break its assets.
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(fastifyRateLimit, {
    global: false,
    max: config.loginRateLimit,
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) =>
      new TooManyRequestsError(`Too many sign-in attempts from this address. Try again in ${context.after}.`),
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Satellite admin portal API', version: '1.0.0' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, apiKey: API_KEY_SECURITY_SCHEME } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX });

  // Tier 2: app plugins.
  const repos = createRepositories(database.db);
  const registry = options.provider && 'simulated' in options.provider ? options.provider : null;
  const services = createServices({
    db: database.db,
    repos,
    config,
    now,
    provider: options.provider ?? null,
    log: (error, message) => app.log.error({ err: error }, message),
    embeddedDatabase: database.kind === 'pglite',
  });
  app.decorate('repos', repos);
  app.decorate('services', services);
  // Every request, API or not, takes the one thread the embedded database also runs on.
  app.addHook('onRequest', async (request) => services.demand.begin(request));
  app.addHook('onResponse', async (request) => services.demand.end(request));
  // A client that goes away before its answer gets no onResponse.
  app.addHook('onRequestAbort', async (request) => services.demand.end(request));
  // A read may leave marked rows to a background refresh: it finishes before the database closes.
  app.addHook('onClose', () => services.lineRows.settled());
  // So may a bulk action run without a job queue.
  app.addHook('onClose', () => services.bulk.settled());
  registerAuth(app, { auth: services.auth });
  registerApiKeyRequests(app, { apiKeys: services.apiKeys, rateLimit: config.apiKeyRateLimit });
  await warmUpPasswords();
  // The provider's invoices are read after each sync, and otherwise at most hourly: a new one
  // comes once a month, after its cycle ended. Until the reseller has a price list there is no
  // billing to reconcile them with, and the provider is not asked.
  let invoicesReadAt = Number.NEGATIVE_INFINITY;
  const importInvoices = async (reason: 'sync' | 'tick' | 'prices') => {
    if (reason === 'prices' || (reason === 'tick' && now().getTime() - invoicesReadAt < 3_600_000)) return;
    if (!(await repos.billingPrices.hasPrices())) return;
    invoicesReadAt = now().getTime();
    await services.reconciliation.importInvoices().catch((error: unknown) => app.log.warn({ err: error }, 'provider invoices could not be imported'));
  };
  const syncJobs = options.provider
    ? createSyncJobs({
        database,
        repos,
        sync: services.terminalSync,
        config,
        now,
        log: app.log,
        options: options.syncJobs,
        budget: () => services.syncBudget.shape(),
        // With accounts as data, each account whose syncs may run has its own schedule.
        ...(registry
          ? {
              accounts: async () =>
                (await repos.providerAccounts.list()).filter(syncable).map((row) => ({ ...row, requestsPerMinute: registry.accountRef(row).requestsPerMinute })),
            }
          : {}),
        alerts: { evaluate: () => services.alerts.evaluate(), deliverWebhooks: () => services.webhooks.deliverDue() },
        bulk: { run: (operationId, stopping) => services.bulk.run(operationId, stopping), resumable: () => services.bulk.resumable() },
        intents: services.intents,
        automation: {
          async run() {
            const actions = await services.automaticActions.runDue();
            const changes = await services.scheduledChanges.runDue();
            return { more: actions.more || changes.more };
          },
          async anyDue() {
            return (await services.scheduledChanges.anyDue()) || (await services.automaticActions.anyDue());
          },
        },
        telemetry: services.telemetryHistory,
        billing: {
          run: async (reason) => {
            await importInvoices(reason);
            const report = await services.statements.run(reason);
            await services.dunning.runIfDue().catch((error: unknown) => app.log.error({ err: error }, 'dunning run failed'));
            return report;
          },
        },
        // A demo database's customers get terminals once the first sync has brought some.
        ...(config.seedDemo
          ? {
              afterStartupSync: async () => {
                // Each account's first sync ends here: the hand-out waits for the last of them, so
                // the demo customers hold lines of several accounts.
                const active = [...(await repos.syncRuns.running()), ...(await repos.syncRuns.queued())];
                if (active.some((run) => run.kind === 'inventory' && run.trigger === 'startup')) return;
                const assigned = await services.demoTerminals.assignOnce();
                if (assigned > 0) app.log.info({ assigned }, 'demo: terminals assigned to the demo customers');
                // After the hand-out: the demo's customer prices go to customers who hold lines.
                const seeded = await services.billingPrices.seedDemoOnce();
                if (seeded.prices > 0) app.log.info(seeded, 'demo: price list seeded');
              },
            }
          : {}),
      })
    : null;
  services.terminalSync.attachDispatcher(syncJobs);
  if (syncJobs) {
    services.alerts.attachEvaluationRequester(() => syncJobs.requestEvaluation('rules'));
    services.webhooks.attachWaker((at) => syncJobs.requestDelivery(at));
    services.statements.attachRunRequester((reason) => syncJobs.requestBillingRun(reason));
    services.bulk.attachRunRequester((operationId) => syncJobs.requestBulkRun(operationId));
  }
  app.decorate('syncJobs', syncJobs);
  if (syncJobs) {
    if ((options.startSyncJobs ?? 'onReady') === 'onReady') app.addHook('onReady', () => syncJobs.start());
    // Before the database closes (server.ts and the tests close the app first).
    app.addHook('onClose', () => syncJobs.stop());
  }

  // Tier 3: routes.
  await app.register(apiRoutes, { prefix: API_PREFIX });
  // The built-in simulator's accounts, each under its own prefix (the first where the single one was).
  for (const mount of registry?.mounts() ?? []) {
    const clock = options.clock ? { now: options.clock.now, clock: options.clock } : {};
    await app.register(simulatorPlugin, { ...mount.account.options, ...clock, prefix: mount.prefix });
  }
  await registerClient(app, config);

  return app;
}

/** Serves the built SPA when there is one, with index.html for client-side routes. */
async function registerClient(app: FastifyInstance, config: Config): Promise<void> {
  const { clientDir } = config;
  const hasClient = existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      setHeaders(reply, filePath) {
        // Vite fingerprints everything under assets/; index.html must be revalidated to pick them up.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  // Only extension-less GETs outside /api are client routes; a missing /assets/x.js stays a 404.
  const isClientRoute = (request: FastifyRequest) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
    return hasClient && !isApi && (request.method === 'GET' || request.method === 'HEAD') && !lastSegment.includes('.');
  };
  // Scanners walk unknown paths by the thousand; real 404s are throttled per IP, while the page's
  // own client routes (served index.html from here) are not.
  const notFoundLimit = app.rateLimit({
    max: config.notFoundRateLimit,
    timeWindow: '1 minute',
    allowList: (request) => isClientRoute(request),
    errorResponseBuilder: (_request, context) =>
      new TooManyRequestsError(`Too many requests for unknown paths from this address. Try again in ${context.after}.`),
  });
  app.setNotFoundHandler({ preHandler: notFoundLimit }, (request, reply) => {
    if (isClientRoute(request)) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return reply.code(404).send(routeNotFound(request));
  });
}
