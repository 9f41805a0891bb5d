import type { Db } from '../client';
import { createActivationsRepository } from './activations';
import { createAlertsRepository } from './alerts';
import { createAppMetaRepository } from './app-meta';
import { createAuditRepository } from './audit';
import { createCustomersRepository } from './customers';
import { createCustomerMembersRepository } from './customer-members';
import { createCustomerTerminalsRepository } from './customer-terminals';
import { createMyTerminalsRepository } from './my-terminals';
import { createTerminalRebootsRepository } from './terminal-reboots';
import { createCustomerRequestsRepository } from './customer-requests';
import { createDashboardRepository } from './dashboard';
import { createEmailOutboxRepository } from './email-outbox';
import { createPasswordSetupTokensRepository } from './password-setup-tokens';
import { createPasswordResetsRepository } from './password-resets';
import { createProviderAccountsRepository } from './provider-accounts';
import { createProviderCallBudgetRepository } from './provider-call-budget';
import { createProviderIntentsRepository } from './provider-intents';
import { createAutomaticActionsRepository } from './automatic-actions';
import { createScheduledChangesRepository } from './scheduled-changes';
import { createServiceLinesRepository } from './service-lines';
import { createSubscriptionsRepository } from './subscriptions';
import { createSyncRunsRepository } from './sync-runs';
import { createTerminalInventoryRepository } from './terminal-inventory';
import { createTerminalsRepository } from './terminals';
import { createUsersRepository } from './users';
import { createRolesRepository } from './roles';
import { createApiKeysRepository } from './api-keys';
import { createWebhookRepository } from './webhooks';
import { createStatementsRepository } from './billing/statements';
import { createBillingPricesRepository } from './billing/prices';
import { createProviderInvoicesRepository } from './billing/provider-invoices';
import { createReconciliationRepository } from './billing/reconciliation';
import { createBulkOperationsRepository } from './bulk-operations';
import { createLedgerRepository } from './billing/ledger';
import { createDunningRepository } from './billing/dunning';
import { createBankLinesRepository } from './billing/bank-lines';
import { createTelemetryHistoryRepository } from './telemetry-history';

export type Repositories = ReturnType<typeof createRepositories>;

export function createRepositories(db: Db) {
  return {
    users: createUsersRepository(db),
    roles: createRolesRepository(db),
    apiKeys: createApiKeysRepository(db),
    customers: createCustomersRepository(db),
    customerMembers: createCustomerMembersRepository(db),
    passwordSetupTokens: createPasswordSetupTokensRepository(db),
    passwordResets: createPasswordResetsRepository(db),
    emailOutbox: createEmailOutboxRepository(db),
    audit: createAuditRepository(db),
    alerts: createAlertsRepository(db),
    appMeta: createAppMetaRepository(db),
    terminals: createTerminalsRepository(db),
    customerTerminals: createCustomerTerminalsRepository(db),
    myTerminals: createMyTerminalsRepository(db),
    terminalReboots: createTerminalRebootsRepository(db),
    syncRuns: createSyncRunsRepository(db),
    terminalInventory: createTerminalInventoryRepository(db),
    telemetryHistory: createTelemetryHistoryRepository(db),
    subscriptions: createSubscriptionsRepository(db),
    serviceLines: createServiceLinesRepository(db),
    activations: createActivationsRepository(db),
    providerAccounts: createProviderAccountsRepository(db),
    providerCallBudget: createProviderCallBudgetRepository(db),
    providerIntents: createProviderIntentsRepository(db),
    automaticActions: createAutomaticActionsRepository(db),
    scheduledChanges: createScheduledChangesRepository(db),
    dashboard: createDashboardRepository(db),
    customerRequests: createCustomerRequestsRepository(db),
    webhooks: createWebhookRepository(db),
    statements: createStatementsRepository(db),
    billingPrices: createBillingPricesRepository(db),
    providerInvoices: createProviderInvoicesRepository(db),
    ledger: createLedgerRepository(db),
    dunning: createDunningRepository(db),
    bankLines: createBankLinesRepository(db),
    reconciliation: createReconciliationRepository(db),
    bulkOperations: createBulkOperationsRepository(db),
  };
}
