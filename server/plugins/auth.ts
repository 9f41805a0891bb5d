// Route access is declared, never inferred from the URL: an /api/v1 route without `config.auth`
// stops start-up. A protected route gets a verified principal holding what the route needs, or
// an error: 401 when the caller is nobody we know, 403 when they are but may not.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES } from '../../src/domain/auth';
import { allows, isPermission, ROLE_MESSAGES, type Permission } from '../../src/domain/permissions';
import { ACCESS_KINDS, isAccessLevel, type AccessLevel, type Principal } from '../auth/principal';
import { AUTH_REQUIRED_MESSAGE, ForbiddenError, INVALID_TOKEN_MESSAGE, UnauthorizedError } from '../errors';
import type { AuthService } from '../services/auth-service';

export const API_PREFIX = '/api/v1';
export const CUSTOMERS_ONLY_MESSAGE = 'This area is for customers only.';
/** A personal route (own profile, password, MFA) called with an API key. */
export const IN_PERSON_MESSAGE = 'API keys cannot be used for this; sign in as a person.';
export const permissionMessage = ROLE_MESSAGES.forbidden;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/** The header the reseller's systems send their API key in (the OpenAPI document's `apiKey` scheme). */
export const API_KEY_HEADER = 'x-api-key';

export function registerAuth(app: FastifyInstance, deps: { auth: AuthService }): void {
  app.decorateRequest('principal', null);
  // Every /api/v1 route and who may call it, as declared: the authorization matrix is checked against it.
  const routeAccess = new Map<string, AccessLevel>();
  app.decorate('routeAccess', routeAccess);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const access = route.config?.auth;
    if (!isAccessLevel(access)) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} declares no access: set config.auth to a permission (area:read or area:manage) or one of ${ACCESS_KINDS.join(', ')}`,
      );
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeAccess.set(`${method} ${route.url}`, access);
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.auth;
    if (!access || access === 'public') return;

    const apiKey = request.headers[API_KEY_HEADER];
    const token = bearerToken(request);
    let principal: Principal | null;
    if (typeof apiKey === 'string' && token === null) {
      principal = await deps.auth.authenticateApiKey(apiKey, { ip: request.ip });
    } else {
      if (token === null) throw new UnauthorizedError(AUTH_REQUIRED_MESSAGE);
      principal = token ? await deps.auth.authenticate(token) : null;
    }
    if (!principal) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);

    // Known before the check: a refused API-key call is audited under the key's name too.
    request.principal = principal;
    checkAccess(access, principal);
  });
}

/** Throws the refusal of a principal the access level does not admit. */
function checkAccess(access: Exclude<AccessLevel, 'public'>, principal: Principal): void {
  if (access === 'authenticated') return;
  if (access === 'customer') {
    if (principal.type !== 'customer') throw new ForbiddenError(CUSTOMERS_ONLY_MESSAGE);
    return;
  }
  if (principal.type !== 'admin') throw new ForbiddenError(ACCOUNT_MESSAGES.adminsOnly);
  if (access === 'staff') {
    if (principal.apiKey) throw new ForbiddenError(IN_PERSON_MESSAGE);
    return;
  }
  if (isPermission(access) && !allows(principal.permissions, access)) throw new ForbiddenError(permissionMessage(access));
}

/**
 * For the rare body field that is another route's write (a block that also ends service lines):
 * the route's own permission let the request in, and this holds the caller to the one that write
 * needs, with the same refusal the route check gives.
 */
export function requireAccess(request: FastifyRequest, access: Exclude<AccessLevel, 'public'>): void {
  checkAccess(access, principalOf(request));
}

/** The portal user (or API key, as its creator) granting roles on a request, with what they hold. */
export function grantorOf(request: FastifyRequest): { id: string; permissions: readonly Permission[] } {
  const principal = principalOf(request);
  if (principal.type !== 'admin') throw new ForbiddenError(ACCOUNT_MESSAGES.adminsOnly);
  return { id: principal.id, permissions: principal.permissions };
}

/** The principal of a protected route's request (the hook guarantees it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError(AUTH_REQUIRED_MESSAGE);
  return request.principal;
}
