import { createApiClient, type ApiClientOptions } from './client';
import { createActivationsApi } from './activations';
import { createAuthApi } from './auth';
import { createCustomersApi, createPasswordSetupApi } from './customers';
import { createCustomerTerminalsApi } from './customer-terminals';
import { createDashboardApi } from './dashboard';
import { createMfaApi } from './mfa';
import { createProviderBillingApi } from './provider-billing';
import { createProviderConsoleApi } from './provider-console';
import { createServiceLinesApi } from './service-lines';
import { createSubscriptionsApi } from './subscriptions';
import { createTerminalsApi } from './terminals';
import { createUsersApi } from './users';

/** Every resource module over one client. */
export function createApi(options: ApiClientOptions) {
  const client = createApiClient(options);
  return {
    client,
    activations: createActivationsApi(client),
    auth: createAuthApi(client),
    customers: createCustomersApi(client),
    customerTerminals: createCustomerTerminalsApi(client),
    passwordSetup: createPasswordSetupApi(client),
    dashboard: createDashboardApi(client),
    mfa: createMfaApi(client),
    providerBilling: createProviderBillingApi(client),
    providerConsole: createProviderConsoleApi(client),
    serviceLines: createServiceLinesApi(client),
    subscriptions: createSubscriptionsApi(client),
    terminals: createTerminalsApi(client),
    users: createUsersApi(client),
  };
}

export type Api = ReturnType<typeof createApi>;
export type { ApiResult } from './client';
export { NetworkError } from './client';
