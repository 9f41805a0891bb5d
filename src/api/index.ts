import { createApiClient, type ApiClientOptions } from './client';
import { createActivationsApi } from './activations';
import { createAlertsApi } from './alerts';
import { createAuthApi } from './auth';
import { createCustomersApi, createPasswordSetupApi } from './customers';
import { createCustomerPreviewApi } from './customer-preview';
import { createCustomerTerminalsApi } from './customer-terminals';
import { createDashboardApi } from './dashboard';
import { createMfaApi } from './mfa';
import { createMyAreaApi } from './my-area';
import { createProviderBillingApi } from './provider-billing';
import { createProviderConsoleApi } from './provider-console';
import { createRequestsApi } from './requests';
import { createServiceLinesApi } from './service-lines';
import { createSubscriptionsApi } from './subscriptions';
import { createTerminalsApi } from './terminals';
import { createUsersApi } from './users';
import { createWebhooksApi } from './webhooks';

/** Every resource module over one client. */
export function createApi(options: ApiClientOptions) {
  const client = createApiClient(options);
  return {
    client,
    activations: createActivationsApi(client),
    alerts: createAlertsApi(client),
    auth: createAuthApi(client),
    customers: createCustomersApi(client),
    customerTerminals: createCustomerTerminalsApi(client),
    customerPreview: createCustomerPreviewApi(client),
    passwordSetup: createPasswordSetupApi(client),
    dashboard: createDashboardApi(client),
    mfa: createMfaApi(client),
    myArea: createMyAreaApi(client),
    providerBilling: createProviderBillingApi(client),
    providerConsole: createProviderConsoleApi(client),
    requests: createRequestsApi(client),
    serviceLines: createServiceLinesApi(client),
    subscriptions: createSubscriptionsApi(client),
    terminals: createTerminalsApi(client),
    users: createUsersApi(client),
    webhooks: createWebhooksApi(client),
  };
}

export type Api = ReturnType<typeof createApi>;
export type { ApiResult } from './client';
export { NetworkError } from './client';
