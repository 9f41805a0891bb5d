// Requests made with an API key (the principal the auth hook found carries `apiKey`):
// - each key has its own rate-limit bucket, keyed by the key's id (API_KEY_RATE_LIMIT a minute,
//   600 unless set; per server process), answered with the usual 429 envelope and Retry-After;
// - every call leaves one audit row under the key's name (method, route pattern, status); the
//   writes it makes are audited by their services with the key as the actor as well. A call
//   refused by the rate limit leaves none: the limit is there to bound the work a key causes, and
//   the calls refused for want of a permission count in the same bucket;
// - the OpenAPI document offers the `apiKey` scheme beside `bearerAuth` on every route a
//   permission guards (the routes a key may call at all).
// Registered after the auth hook (registerAuth), whose principal it reads, and before the routes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_KEY_HEADER_NAME } from '../../src/domain/api-keys';
import { isPermission } from '../../src/domain/permissions';
import { TooManyRequestsError } from '../errors';
import type { ApiKeysService } from '../services/api-keys';
import { auditContext } from '../services/audit';
import { API_PREFIX } from './auth';

export const API_KEY_SECURITY_SCHEME = { type: 'apiKey', in: 'header', name: API_KEY_HEADER_NAME } as const;

export const apiKeyRateLimitMessage = (max: number, seconds: number) =>
  `Too many requests with this API key (at most ${max} a minute). Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;

const keyOf = (request: FastifyRequest) => (request.principal?.type === 'admin' ? request.principal.apiKey : null);

export function registerApiKeyRequests(app: FastifyInstance, deps: { apiKeys: ApiKeysService; rateLimit: number }): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX) || !isPermission(route.config?.auth)) return;
    const security = (route.schema?.security as Record<string, string[]>[] | undefined) ?? [{ bearerAuth: [] }];
    if (security.some((scheme) => 'apiKey' in scheme)) return;
    // A new array: route files share one `security` constant between routes of other access levels.
    route.schema = { ...route.schema, security: [...security, { apiKey: [] }] };
  });

  const limit = app.createRateLimit({ max: deps.rateLimit, timeWindow: 60_000, keyGenerator: (request) => `api-key:${keyOf(request)?.id ?? ''}` });
  // The requests this hook counted; a call the auth hook refused (403) never reached it.
  const counted = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request, reply) => {
    if (!keyOf(request)) return;
    counted.add(request);
    const result = await limit(request);
    if (result.isAllowed) return;
    void reply.header('x-ratelimit-limit', String(result.max));
    void reply.header('x-ratelimit-remaining', String(result.remaining));
    void reply.header('x-ratelimit-reset', String(result.ttlInSeconds));
    if (result.isExceeded) {
      throw new TooManyRequestsError(apiKeyRateLimitMessage(result.max, result.ttlInSeconds), { headers: { 'retry-after': String(result.ttlInSeconds) } });
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    if (!keyOf(request) || reply.statusCode === 429) return;
    // A refused call counts in the key's bucket too, and past the limit it is not audited one by
    // one: a key calling what it may not call cannot fill the audit log faster than the limit.
    if (!counted.has(request)) {
      const result = await limit(request);
      if (!result.isAllowed && result.isExceeded) return;
    }
    const call = { method: request.method, route: request.routeOptions.url ?? request.url.split('?')[0] ?? '', status: reply.statusCode };
    await deps.apiKeys.recordCall(call, auditContext(request)).catch((error: unknown) => request.log.error({ err: error }, 'an API key call could not be audited'));
  });
}
