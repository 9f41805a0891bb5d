import { createApiClient, type ApiClientOptions } from './client';
import { createActivationsApi } from './activations';
import { createApiKeysApi } from './api-keys';
import { createAlertsApi } from './alerts';
import { createAuditApi } from './audit';
import { createAutomationApi } from './automation';
import { createAuthApi } from './auth';
import { createBulkApi } from './bulk';
import { createCustomersApi, createPasswordSetupApi } from './customers';
import { createCustomerPreviewApi } from './customer-preview';
import { createCustomerTerminalsApi } from './customer-terminals';
import { createDashboardApi } from './dashboard';
import { createLedgerApi } from './ledger';
import { createMembersApi } from './members';
import { createMfaApi } from './mfa';
import { createMyAreaApi } from './my-area';
import { createPricesApi } from './prices';
import { createProviderBillingApi } from './provider-billing';
import { createProviderConsoleApi } from './provider-console';
import { createProviderAccountsApi } from './provider-accounts';
import { createReconciliationApi } from './reconciliation';
import { createRequestsApi } from './requests';
import { createRolesApi } from './roles';
import { createServiceLinesApi } from './service-lines';
import { createStatementsApi } from './statements';
import { createSubscriptionsApi } from './subscriptions';
import { createTerminalsApi } from './terminals';
import { createTelemetryApi } from './telemetry';
import { createFleetMapApi } from './fleet-map';
import { createUsersApi } from './users';
import { createWebhooksApi } from './webhooks';

/** Every resource module over one client. */
export function createApi(options: ApiClientOptions) {
  const client = createApiClient(options);
  return {
    client,
    activations: createActivationsApi(client),
    apiKeys: createApiKeysApi(client),
    alerts: createAlertsApi(client),
    audit: createAuditApi(client),
    automation: createAutomationApi(client),
    auth: createAuthApi(client),
    bulk: createBulkApi(client),
    customers: createCustomersApi(client),
    customerTerminals: createCustomerTerminalsApi(client),
    customerPreview: createCustomerPreviewApi(client),
    passwordSetup: createPasswordSetupApi(client),
    dashboard: createDashboardApi(client),
    ledger: createLedgerApi(client),
    members: createMembersApi(client),
    mfa: createMfaApi(client),
    myArea: createMyAreaApi(client),
    prices: createPricesApi(client),
    providerBilling: createProviderBillingApi(client),
    providerConsole: createProviderConsoleApi(client),
    providerAccounts: createProviderAccountsApi(client),
    reconciliation: createReconciliationApi(client),
    requests: createRequestsApi(client),
    roles: createRolesApi(client),
    serviceLines: createServiceLinesApi(client),
    statements: createStatementsApi(client),
    subscriptions: createSubscriptionsApi(client),
    terminals: createTerminalsApi(client),
    telemetry: createTelemetryApi(client),
    fleetMap: createFleetMapApi(client),
    users: createUsersApi(client),
    webhooks: createWebhooksApi(client),
  };
}

export type Api = ReturnType<typeof createApi>;
export type { ApiResult, Download } from './client';
export { NetworkError } from './client';
