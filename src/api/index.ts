import { createApiClient, type ApiClientOptions } from './client';
import { createAuthApi } from './auth';
import { createCustomersApi, createPasswordSetupApi } from './customers';
import { createCustomerTerminalsApi } from './customer-terminals';
import { createDashboardApi } from './dashboard';
import { createProviderConsoleApi } from './provider-console';
import { createTerminalsApi } from './terminals';

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
    providerConsole: createProviderConsoleApi(client),
    terminals: createTerminalsApi(client),
  };
}

export type Api = ReturnType<typeof createApi>;
export type { ApiResult } from './client';
export { NetworkError } from './client';
