import { createTokenService } from '../auth/tokens';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import { createAuditService } from './audit';
import { createAuthService } from './auth-service';
import { createDashboardService } from './dashboard-service';
import { providerHealth } from './provider-health';

export type Services = ReturnType<typeof createServices>;

export function createServices(deps: { db: Db; repos: Repositories; config: Config; now: Clock }) {
  const { db, repos, config, now } = deps;
  const tokens = createTokenService({ secret: config.jwtSecret, expiresInSeconds: config.jwtExpiresInSeconds, now });
  const audit = createAuditService({ audit: repos.audit, now });
  const auth = createAuthService({ db, repos, audit, tokens, now });
  const dashboard = createDashboardService({ repos, providerHealth });
  return { tokens, audit, auth, dashboard };
}
