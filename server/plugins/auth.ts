// Route access is declared, never inferred from the URL: an /api/v1 route without
// `config.auth` stops start-up. Protected routes get a verified principal or an error.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES } from '../../src/domain/auth';
import { ACCESS_LEVELS, type AccessLevel, type Principal } from '../auth/principal';
import { AUTH_REQUIRED_MESSAGE, ForbiddenError, INVALID_TOKEN_MESSAGE, UnauthorizedError } from '../errors';
import type { AuthService } from '../services/auth-service';

export const API_PREFIX = '/api/v1';
export const CUSTOMERS_ONLY_MESSAGE = 'This area is for customers only.';
export const ADMIN_ROLE_MESSAGE = 'Only portal users with the admin role can do this.';

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

export function registerAuth(app: FastifyInstance, deps: { auth: AuthService }): void {
  app.decorateRequest('principal', null);
  // Every /api/v1 route and who may call it, as declared: the authorization matrix is checked against it.
  const routeAccess = new Map<string, AccessLevel>();
  app.decorate('routeAccess', routeAccess);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const access = route.config?.auth;
    if (!access || !ACCESS_LEVELS.includes(access)) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} declares no access: set config.auth to one of ${ACCESS_LEVELS.join(', ')}`,
      );
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeAccess.set(`${method} ${route.url}`, access);
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.auth;
    if (!access || access === 'public') return;

    const token = bearerToken(request);
    if (token === null) throw new UnauthorizedError(AUTH_REQUIRED_MESSAGE);
    const principal = token ? await deps.auth.authenticate(token) : null;
    if (!principal) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);

    checkAccess(access, principal);
    request.principal = principal;
  });
}

/** Throws the refusal of a principal the access level does not admit. */
function checkAccess(access: Exclude<AccessLevel, 'public'>, principal: Principal): void {
  if ((access === 'admin' || access === 'administrator') && principal.type !== 'admin') throw new ForbiddenError(ACCOUNT_MESSAGES.adminsOnly);
  if (access === 'administrator' && (principal.type !== 'admin' || principal.role !== 'admin')) throw new ForbiddenError(ADMIN_ROLE_MESSAGE);
  if (access === 'customer' && principal.type !== 'customer') throw new ForbiddenError(CUSTOMERS_ONLY_MESSAGE);
}

/**
 * For the rare body field that is another route's write (a block that also ends service lines):
 * the route's own level let the request in, and this holds the caller to the level that write
 * needs, with the same refusal the route check gives.
 */
export function requireAccess(request: FastifyRequest, access: Exclude<AccessLevel, 'public'>): void {
  checkAccess(access, principalOf(request));
}

/** The principal of a protected route's request (the hook guarantees it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError(AUTH_REQUIRED_MESSAGE);
  return request.principal;
}
