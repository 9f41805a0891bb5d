import { createApiClient, type ApiClientOptions } from './client';
import { createAuthApi } from './auth';
import { createCustomersApi, createPasswordSetupApi } from './customers';
import { createCustomerTerminalsApi } from './customer-terminals';
import { createDashboardApi } from './dashboard';
import { createMfaApi } from './mfa';
import { createProviderConsoleApi } from './provider-console';
import { createSubscriptionsApi } from './subscriptions';
import { createTerminalsApi } from './terminals';
import { createUsersApi } from './users';

/** Every resource module over one client. */
export function createApi(options: ApiClientOptions) {
  const client = createApiClient(options);
  return {
    client,
    auth: createAuthApi(client),
    customers: createCustomersApi(client),
    customerTerminals: createCustomerTerminalsApi(client),
    passwordSetup: createPasswordSetupApi(client),
    dashboard: createDashboardApi(client),
    mfa: createMfaApi(client),
    providerConsole: createProviderConsoleApi(client),
    subscriptions: createSubscriptionsApi(client),
    terminals: createTerminalsApi(client),
    users: createUsersApi(client),
  };
}

export type Api = ReturnType<typeof createApi>;
export type { ApiResult } from './client';
export { NetworkError } from './client';
