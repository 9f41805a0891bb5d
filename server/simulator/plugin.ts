// The simulator's HTTP surface: the provider's token endpoint and the /public/v2 routes the portal
// uses, in the provider's wire format. Routes are relative, so the portal can mount the plugin at
// /simulator/api and startSimulator at /api (mirroring https://starlink.com/api).
//
// Encapsulated on purpose: its own body parsers, error handler and 404 handler, and no route
// schemas, so nothing of the portal (zod compilers, its error map, its removed text/plain parser)
// leaks in, and every answer — errors included — is the provider's envelope.
//
// Order of checks on /public/v2, like a gateway in front of the real service: injected faults
// (latency and its spikes, dropped connection, 429 burst, 429, 5xx) → bearer token (401) → per-account rate limit (429)
// → JSON content type on POST/PUT (403) → the route (400 / 404 / 422 / 200). Faults hit only
// /public/v2 routes: the token endpoint and unknown paths always answer straight.
import type { ShiftableClock } from '../clock';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import {
  PAGE_SIZE,
  providerOperations as op,
  type ProviderOperation,
  USAGE_DEFAULT_LIMIT,
  USAGE_MAX_LIMIT,
} from '../provider/operations';
import type { IndexList } from './fleet/index';
import type { SimulatorOptions } from './options';
import { shuffleInPlace } from './random';
import { registerAccountRoutes } from './account';
import { answer, boolParam, intParam, lastValue, listParam, parseBody, stringParam, UUID, value, WireError, type Query } from './params';
import { registerRouterRoutes } from './routers';
import { createSimulator, type Simulator } from './runtime';
import { failure, ok, type Paginated } from './wire';

export interface SimulatorPluginOptions extends SimulatorOptions {
  /** A simulator made with createSimulator, to share its fleet and faults with the caller. */
  simulator?: Simulator;
  /** The portal's clock, which the controls may move forward (the simulator's `now` reads it too). */
  clock?: ShiftableClock;
}

export { PAGE_SIZE, USAGE_DEFAULT_LIMIT, USAGE_MAX_LIMIT };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const mediaType = (request: FastifyRequest) => (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

// ---- The plugin ------------------------------------------------------------------------------

export const simulatorPlugin: FastifyPluginAsync<SimulatorPluginOptions> = async (app, options) => {
  const sim = options.simulator ?? createSimulator(options);
  const { fleet } = sim;

  registerParsers(app);
  registerErrorHandling(app);
  await app.register(fastifyFormbody);

  app.post('/auth/connect/token', {
    // Checked before the body is parsed, so any other content type gets the OAuth error, not a 415.
    onRequest: async (request, reply) => {
      void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      if (!sim.takeTokenRequest(request.ip)) return oauthError(reply, 429, 'too_many_requests', 'Too many token requests from this address');
      if (mediaType(request) !== 'application/x-www-form-urlencoded') {
        return oauthError(reply, 400, 'invalid_request', 'The token request must be application/x-www-form-urlencoded');
      }
      return undefined;
    },
    handler: async (request, reply) => tokenRoute(sim, request, reply),
  });

  if (options.controls) registerControls(app, sim, options.clock ?? null);

  await app.register(
    async (api) => {
      // Hooks run in order; the first that answers ends the request.
      api.addHook('onRequest', (_request, reply) => injectFaults(sim, reply));
      api.addHook('onRequest', (request, reply) => requireToken(sim, request, reply));
      api.addHook('onRequest', (_request, reply) => enforceRateLimit(sim, reply));
      api.addHook('onRequest', (request, reply) => requireJson(request, reply));

      // Every route is an operation of the table (server/provider/operations.ts), at its path.
      const serve = (operation: ProviderOperation, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
        api.route({ method: operation.method, url: routeOf(operation.path), handler });
      const page = <T>(list: IndexList, pageIndex: number, limit: number, render: (index: number) => T) => pageOf(sim, list, pageIndex, limit, render);

      serve(op.getAccount, async () => ok(fleet.account()));

      serve(op.listProducts, async (request) => {
        const products = fleet.products();
        const pageIndex = intParam(request.query as Query, 'page', 0, 0);
        return ok(page({ length: products.length, at: (k) => k }, pageIndex, PAGE_SIZE, (k) => products[k]!));
      });

      serve(op.listAddresses, async (request) => {
        const query = request.query as Query;
        const pageIndex = intParam(query, 'page', 0, 0);
        const addressIds = listParam(query, 'addressIds');
        for (const id of addressIds ?? []) {
          if (!UUID.test(id)) throw new WireError(400, `The value '${id}' is not a valid address reference id.`, ['addressIds']);
        }
        const metadata = lastValue(query.metadata);
        const list = fleet.addresses({ addressIds, ...(metadata === undefined ? {} : { metadata }) });
        return ok(page(list, pageIndex, PAGE_SIZE, fleet.addressAt));
      });

      serve(op.getAddress, async (request) => {
        const { addressReferenceId } = request.params as { addressReferenceId: string };
        if (!UUID.test(addressReferenceId)) throw new WireError(400, `The value '${addressReferenceId}' is not a valid address reference id.`, ['addressReferenceId']);
        const address = fleet.address(addressReferenceId);
        if (!address) throw new WireError(404, `Address ${addressReferenceId} was not found on this account`, ['addressReferenceId']);
        return ok(address);
      });

      serve(op.listServiceLines, async (request) => {
        const query = request.query as Query;
        const pageIndex = intParam(query, 'page', 0, 0);
        const lines = fleet.serviceLines({
          addressReferenceId: stringParam(query, 'addressReferenceId'),
          searchString: stringParam(query, 'searchString'),
          orderByCreatedDateDescending: boolParam(query, 'orderByCreatedDateDescending'),
        });
        return ok(page(lines, pageIndex, PAGE_SIZE, fleet.serviceLineAt));
      });

      serve(op.getServiceLine, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        const line = fleet.serviceLine(serviceLineNumber);
        if (!line) throw new WireError(404, `Service line ${serviceLineNumber} was not found on this account`, ['serviceLineNumber']);
        return ok(line);
      });

      serve(op.changeServiceLineProduct, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        return answer(fleet.changeProduct(serviceLineNumber, parseBody(op.changeServiceLineProduct.body, request.body)));
      });

      serve(op.attachTerminal, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        return answer(fleet.attach(serviceLineNumber, parseBody(op.attachTerminal.body, request.body).deviceId));
      });

      serve(op.detachTerminal, async (request) => {
        const { serviceLineNumber, deviceId } = request.params as { serviceLineNumber: string; deviceId: string };
        return answer(fleet.detach(serviceLineNumber, deviceId));
      });

      serve(op.listUserTerminals, async (request) => {
        const query = request.query as Query;
        const pageIndex = intParam(query, 'page', 0, 0);
        const terminals = fleet.userTerminals({
          searchString: stringParam(query, 'searchString'),
          serviceLineNumbers: listParam(query, 'serviceLineNumbers'),
          userTerminalIds: listParam(query, 'userTerminalIds'),
          hasServiceLine: boolParam(query, 'hasServiceLine'),
        });
        return ok(page(terminals, pageIndex, PAGE_SIZE, fleet.terminal));
      });

      serve(op.rebootTerminal, async (request) => {
        const { deviceId } = request.params as { deviceId: string };
        return answer(fleet.reboot(deviceId));
      });

      serve(op.queryDataUsage, async (request) => {
        const query = request.query as Query;
        const pageIndex = intParam(query, 'page', 0, 0);
        const limit = intParam(query, 'limit', USAGE_DEFAULT_LIMIT, 1, USAGE_MAX_LIMIT);
        const body = parseBody(op.queryDataUsage.body, request.body) ?? {};
        if (body.queryStartDate && Date.parse(body.queryStartDate) > sim.now().getTime()) {
          throw new WireError(400, 'queryStartDate must not be in the future', ['queryStartDate']);
        }
        const { lines, warnings } = fleet.usageLines(body);
        return ok(
          page(lines, pageIndex, limit, (l) => fleet.usageRecord(l, body)),
          warnings,
        );
      });

      // ---- The service lifecycle ----

      serve(op.createAddress, async (request, reply) => {
        const address = value(fleet.createAddress(parseBody(op.createAddress.body, request.body)));
        void reply.code(201);
        return ok(address);
      });

      serve(op.updateAddress, async (request) => {
        const { addressReferenceId } = request.params as { addressReferenceId: string };
        if (!UUID.test(addressReferenceId)) throw new WireError(400, `The value '${addressReferenceId}' is not a valid address reference id.`, ['addressReferenceId']);
        return ok(value(fleet.updateAddress(addressReferenceId, parseBody(op.updateAddress.body, request.body))));
      });

      serve(op.createServiceLine, async (request, reply) => {
        const line = value(fleet.createServiceLine(parseBody(op.createServiceLine.body, request.body)));
        void reply.code(201);
        return ok(line);
      });

      serve(op.deactivateServiceLine, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        const query = request.query as Query;
        const reason = stringParam(query, 'reasonForCancellation') ?? null;
        if (reason !== null && reason.length > 500) throw new WireError(400, 'reasonForCancellation must be at most 500 characters.', ['reasonForCancellation']);
        return answer(fleet.deactivateServiceLine(serviceLineNumber, { endNow: boolParam(query, 'endNow') ?? false, reason }));
      });

      serve(op.setServiceLineNickname, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        return answer(fleet.setNickname(serviceLineNumber, parseBody(op.setServiceLineNickname.body, request.body).nickname));
      });

      serve(op.setServiceLinePublicIp, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        return answer(fleet.setPublicIp(serviceLineNumber, parseBody(op.setServiceLinePublicIp.body, request.body).publicIp));
      });

      serve(op.optInPriorityData, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        return ok(value(fleet.setOptIn(serviceLineNumber, true)));
      });

      serve(op.optOutPriorityData, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        return ok(value(fleet.setOptIn(serviceLineNumber, false)));
      });

      serve(op.setRecurringDataBlocks, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        return answer(fleet.setRecurringBlocks(serviceLineNumber, parseBody(op.setRecurringDataBlocks.body, request.body)));
      });

      serve(op.topUpServiceLine, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        return answer(fleet.topUp(serviceLineNumber, parseBody(op.topUpServiceLine.body, request.body)));
      });

      serve(op.listPartialPeriods, async (request) => {
        const { serviceLineNumber } = request.params as { serviceLineNumber: string };
        return ok(value(fleet.partialPeriods(serviceLineNumber)));
      });

      serve(op.addUserTerminal, async (request) => answer(fleet.addTerminal(parseBody(op.addUserTerminal.body, request.body).deviceId)));

      serve(op.removeUserTerminal, async (request) => {
        const { deviceId } = request.params as { deviceId: string };
        return answer(fleet.removeTerminal(deviceId));
      });

      // Routers and terminal configuration (server/simulator/routers.ts keeps their state).
      registerRouterRoutes({ api, sim, serve, page });

      registerAccountRoutes({ serve, page, fleet, now: sim.now });

      // Not in the provider's published document (its notes give the shape); in the table as unpublished.
      serve(op.queryTelemetry, async (request) => {
        const body = parseBody(op.queryTelemetry.body, request.body);
        const { records, warnings } = fleet.telemetry(body?.userTerminalIds ?? undefined);
        return ok({ userTerminals: records }, warnings);
      });
    },
    { prefix: '/public/v2' },
  );
};

/**
 * The simulator's own controls (SIM_CONTROLS=on), outside /public/v2: no faults, no token, no
 * rate limit — they stand for the world the provider observes, not for a call to the provider.
 * POST /controls/service-lines/{serviceLineNumber}/surge { "gb": 40 }: the line uses 40 GB more
 * today, reported at once (a demo or a test can then watch an alert open after the next sync).
 * POST /controls/service-lines/{serviceLineNumber}/end-opt-in-cool-down: the line may change its
 * priority data opt-in again at once, as if the provider's day-long cool-down had passed.
 * POST /controls/user-terminals/{userTerminalId}/outage { "minutes": 90 }: the terminal stops
 * reporting for 90 minutes from now (its line stays active): the next syncs find it offline, and
 * the portal's telemetry history shows the outage.
 * POST /controls/clock { "days": 35 }: the portal's clock and the simulator's move 35 days on (1 to
 * 400; only when the portal shares its clock with its built-in simulator), so that what days bring
 * (a statement overdue, dunning's steps) can be seen at once.
 */
function registerControls(app: FastifyInstance, sim: Simulator, clock: ShiftableClock | null): void {
  if (clock) {
    app.post('/controls/clock', async (request, reply) => {
      const days = (request.body as { days?: unknown } | null)?.days;
      if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 400) return reply.code(400).send(failure('days must be a whole number from 1 to 400', ['days']));
      return ok({ now: clock.advance(days * 86_400_000).toISOString(), information: [] });
    });
  }
  app.post('/controls/user-terminals/:userTerminalId/outage', async (request, reply) => {
    const { userTerminalId } = request.params as { userTerminalId: string };
    const minutes = (request.body as { minutes?: unknown } | null)?.minutes;
    if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > 60 * 24 * 30) {
      return reply.code(400).send(failure('minutes must be a whole number from 1 to 43200 (30 days)', ['minutes']));
    }
    const outcome = sim.fleet.injectOutage(userTerminalId, minutes);
    if (!outcome.ok) return reply.code(outcome.status).send(failure(outcome.message, outcome.memberNames ?? []));
    return ok({ userTerminalId, ...outcome.value, information: outcome.information ?? [] });
  });
  app.post('/controls/service-lines/:serviceLineNumber/end-opt-in-cool-down', async (request, reply) => {
    const { serviceLineNumber } = request.params as { serviceLineNumber: string };
    const outcome = sim.fleet.endOptInCoolDown(serviceLineNumber);
    if (!outcome.ok) return reply.code(outcome.status).send(failure(outcome.message, outcome.memberNames ?? []));
    return ok({ serviceLineNumber, information: outcome.information ?? [] });
  });
  app.post('/controls/service-lines/:serviceLineNumber/surge', async (request, reply) => {
    const { serviceLineNumber } = request.params as { serviceLineNumber: string };
    const gb = (request.body as { gb?: unknown } | null)?.gb;
    if (typeof gb !== 'number' || !Number.isFinite(gb) || gb <= 0 || gb > 100_000) {
      return reply.code(400).send(failure('gb must be a number of GB above 0 and at most 100000', ['gb']));
    }
    const outcome = sim.fleet.surge(serviceLineNumber, gb);
    if (!outcome.ok) return reply.code(outcome.status).send(failure(outcome.message, outcome.memberNames ?? []));
    return ok({ serviceLineNumber, gb, information: outcome.information ?? [] });
  });
}

/** '/public/v2/service-lines/{serviceLineNumber}' → '/service-lines/:serviceLineNumber' (under the /public/v2 prefix). */
export const routeOf = (template: string): string => template.replace(/^\/public\/v2/, '').replace(/\{([^}]+)\}/g, ':$1');

// ---- The gate in front of /public/v2 ----------------------------------------------------------

async function injectFaults(sim: Simulator, reply: FastifyReply) {
  const delayMs = sim.rollDelay();
  if (delayMs > 0) await sleep(delayMs);
  const fault = sim.rollFaults();
  if (fault.kind === 'drop') {
    // No answer at all: the client sees a reset socket, as with a flaky network.
    reply.hijack();
    // Destroying the response destroys its socket (and makes app.inject reject).
    reply.raw.destroy();
    return reply;
  }
  if (fault.kind === 'tooManyRequests') {
    return reply.code(429).send(failure(fault.burst ? RATE_LIMIT_MESSAGE : 'Too many requests. Please try again later.'));
  }
  if (fault.kind === 'serverError') return sendServerError(reply, fault.status);
  return undefined;
}

const RATE_LIMIT_MESSAGE = 'Rate limit exceeded for this account.';

const TOKEN_MESSAGES = {
  missing: 'Authorization header with a Bearer token is required',
  invalid: 'The access token is invalid',
  expired: 'The access token has expired',
} as const;

async function requireToken(sim: Simulator, request: FastifyRequest, reply: FastifyReply) {
  const check = sim.checkToken(request.headers.authorization);
  if (check === 'ok') return undefined;
  const message = TOKEN_MESSAGES[check];
  return reply
    .code(401)
    .header('www-authenticate', check === 'missing' ? 'Bearer' : `Bearer error="invalid_token", error_description="${message}"`)
    .send(failure(message));
}

async function enforceRateLimit(sim: Simulator, reply: FastifyReply) {
  // The real limit answers 429 without Retry-After; clients must back off on their own.
  if (!sim.takeApiRequest()) return reply.code(429).send(failure(RATE_LIMIT_MESSAGE));
  return undefined;
}

async function requireJson(request: FastifyRequest, reply: FastifyReply) {
  // The provider has answered 403 (not 415) to writes without a JSON content type.
  if ((request.method === 'POST' || request.method === 'PUT') && mediaType(request) !== 'application/json') {
    return reply.code(403).send(failure('Content-Type must be application/json', ['Content-Type']));
  }
  return undefined;
}

function pageOf<T>(sim: Simulator, list: IndexList, pageIndex: number, limit: number, render: (index: number) => T): Paginated<T> {
  const total = list.length;
  const start = pageIndex * limit;
  const end = Math.min(total, start + limit);
  let indexes: number[] = [];
  if (sim.faults().shufflePages) {
    // Same members on a page every time (a seeded order), in a new order on every request.
    const keyed: [number, number][] = [];
    for (let k = 0; k < total; k++) {
      const index = list.at(k);
      keyed.push([sim.pageOrderKey(index), index]);
    }
    keyed.sort((a, b) => a[0] - b[0]);
    indexes = shuffleInPlace(keyed.slice(start, end).map(([, index]) => index), sim.pageRandom);
  } else {
    for (let k = start; k < end; k++) indexes.push(list.at(k));
  }
  return { pageIndex, limit, isLastPage: end >= total, results: indexes.map(render), totalCount: total };
}

/** RFC 6749 §5.2 error answer. */
const oauthError = (reply: FastifyReply, status: number, error: string, description: string) =>
  reply.code(status).send({ error, error_description: description });

async function tokenRoute(sim: Simulator, request: FastifyRequest, reply: FastifyReply) {
  const form = (request.body ?? {}) as Record<string, string | string[] | undefined>;
  let clientId = lastValue(form.client_id);
  let clientSecret = lastValue(form.client_secret);
  // RFC 6749 also allows the client to authenticate with HTTP Basic.
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (basic && !clientId) {
    const [id, ...secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    clientId = decodeURIComponent(id ?? '');
    clientSecret = decodeURIComponent(secret.join(':'));
  }
  const grantType = lastValue(form.grant_type);
  if (!grantType) return oauthError(reply, 400, 'invalid_request', 'grant_type is required');
  if (grantType !== 'client_credentials') return oauthError(reply, 400, 'unsupported_grant_type', `grant_type ${grantType} is not supported`);
  if (!clientId || !clientSecret) return oauthError(reply, 400, 'invalid_request', 'client_id and client_secret are required');
  const token = sim.issueToken(clientId, clientSecret);
  if (!token) return oauthError(reply, 401, 'invalid_client', 'Unknown client or wrong secret');
  return reply.send(token);
}

function sendServerError(reply: FastifyReply, status: 500 | 502 | 503) {
  // Like a real gateway, not every 5xx is JSON: clients must not assume a body they can parse.
  if (status === 502) {
    return reply.code(502).type('text/html').send('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>');
  }
  if (status === 503) return reply.code(503).type('text/plain').send('');
  return reply.code(500).send(failure('An unexpected error occurred.'));
}

function registerParsers(app: FastifyInstance) {
  // JSON with an empty body allowed: reboot and the queries may be POSTed with no body at all.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, parsed) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return parsed(null, undefined);
    try {
      parsed(null, JSON.parse(text, (key, value: unknown) => (key === '__proto__' || key === 'constructor' ? undefined : value)));
    } catch {
      parsed(new WireError(400, 'The request body is not valid JSON', ['body']), undefined);
    }
  });
}

function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | WireError, request, reply) => {
    if (error instanceof WireError) return reply.code(error.statusCode).send(failure(error.message, error.memberNames));
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'simulator route failed');
    return reply.code(status).send(failure(status === 500 ? 'An unexpected error occurred.' : error.message));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(failure(`No resource matches ${request.method} ${request.url.split('?')[0]}`)),
  );
}
