// What the app adds to Fastify's types: route access declarations, the request principal, and
// the decorated repositories and services.
import type { AccessLevel, Principal } from './auth/principal';
import type { Repositories } from './db/repositories';
import type { Services } from './services';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; required on every /api/v1 route (checked at start-up). */
    auth?: AccessLevel;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    repos: Repositories;
    services: Services;
    /** `METHOD /api/v1/...` → the access the route declares (filled as routes register). */
    routeAccess: ReadonlyMap<string, AccessLevel>;
  }
}

export {};
