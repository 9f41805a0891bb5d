import { createMfaChallengeService } from '../auth/mfa-challenge';
import { createSecretBox } from '../auth/secret-box';
import { createTokenService } from '../auth/tokens';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import { createAuditService } from './audit';
import { createAuditLogService } from './audit-log';
import { createAuthService } from './auth-service';
import { createMfaService } from './mfa';
import { createMfaRepository } from '../db/repositories/mfa';
import { createCustomersService } from './customers';
import { createCustomerMembersService } from './customer-members';
import { createProfileService } from './profile';
import { createUsersService } from './users';
import { createRolesService } from './roles';
import { createApiKeysService } from './api-keys';
import { createTerminalsService } from './terminals';
import { createCustomerTerminalsService } from './customer-terminals';
import { createProviderIntents } from './provider-intents';
import { createMyTerminalsService } from './my-terminals';
import { createDemoTerminals } from './demo-terminals';
import { createTerminalSyncService } from './terminal-sync';
import { createTelemetryHistoryService } from './telemetry-history';
import { createSyncBudgetService } from './sync-budget';
import { createSubscriptionsService } from './subscriptions';
import { createLineRowsRefresher } from './line-rows';
import { createServiceLinesService } from './service-lines';
import { createActivationsService } from './activations';
import { createCustomerRequestsService } from './customer-requests';
import { createCustomerPreviewService } from './customer-preview';
import { createProviderBillingService } from './billing/provider-billing';
import { createPasswordSetupService } from './customers-password-setup';
import { createPasswordResetService } from './password-reset';
import { createDashboardService } from './dashboard-service';
import { createConsoleProvider, type ProviderAccess } from './console-provider';
import { createProviderAccountsService } from './provider-accounts';
import { singleAccount, type ProviderDirectory, type ProviderRegistry } from '../provider-access';
import { createProviderConsoleService } from './provider-console';
import { ServiceUnavailableError } from '../errors';
import { createProviderHealth } from './provider-health';
import { createDemand } from './demand';
import { createEmailOutboxService, createEmailSender, type EmailLogger } from './email';
import { createSmtpTransport } from '../email/transport';
import { createWebhookService } from './webhooks';
import { createAlertsService } from './alerts';
import { createAutomaticActionsService } from './automatic-actions';
import { createChangeOperations } from './change-operations';
import { createScheduledChangesService } from './scheduled-changes';
import { createStatementsService } from './billing/statements';
import { createLedgerService } from './billing/ledger';
import { createDunningService } from './billing/dunning';
import { createBankImportService } from './billing/bank-import';
import { createBillingPricesService } from './billing/prices';
import { createReconciliationService } from './billing/reconciliation';
import { createSearchService } from './search';
import { createSearchRepository } from '../db/repositories/search';
import { createListExportsService } from './list-exports';
import { createBulkService } from './bulk';
import { ownOrigin } from './password-reset';

export type Services = ReturnType<typeof createServices>;

export const NO_PROVIDER_MESSAGE =
  'No provider is configured: set STARLINK_CLIENT_ID and STARLINK_CLIENT_SECRET, or run with the built-in simulator';

/** Email outcomes of background work, logged through the app's background logger. */
function backgroundLog(log: ((error: unknown, message: string) => void) | undefined) {
  const write = (fields: unknown, message?: string) => log?.(fields, message ?? '');
  return { info: () => undefined, warn: write, error: write } as unknown as EmailLogger;
}

export function createServices(deps: {
  db: Db;
  repos: Repositories;
  config: Config;
  now: Clock;
  /**
   * The provider accounts' registry (server.ts), or one provider every account resolves to (the
   * tests, whose provider records are all account one's), or none.
   */
  provider: ProviderRegistry | ProviderAccess | null;
  /** Failures of work done in the background, outside any request. */
  log?: (error: unknown, message: string) => void;
  /**
   * The database runs on this process's thread (PGlite): background writes rest between their
   * transactions so that requests get their share of it (pacer.ts).
   */
  embeddedDatabase?: boolean;
}) {
  const { db, repos, config, now } = deps;
  const registry = deps.provider && 'simulated' in deps.provider ? deps.provider : null;
  const provider: ProviderDirectory | null = registry ?? (deps.provider ? singleAccount(deps.provider as ProviderAccess) : null);
  const secretBox = createSecretBox(config.mfaEncryptionKey);
  registry?.useAccounts(repos.providerAccounts, secretBox);
  const tokens = createTokenService({ secret: config.jwtSecret, expiresInSeconds: config.jwtExpiresInSeconds, now });
  const audit = createAuditService({ audit: repos.audit, now });
  const auditLog = createAuditLogService({ audit: repos.audit });
  // The MFA repository is built here, beside its only user, rather than in the shared repository set.
  const mfa = createMfaService({ db, repos, mfa: createMfaRepository(db), audit, box: secretBox, now });
  const providerAccounts = createProviderAccountsService({ db, repos, audit, box: secretBox, now, registry, startSync: () => terminalSync });
  const challenges = createMfaChallengeService({ secret: config.jwtSecret, now });
  const roles = createRolesService({ db, repos, audit, now });
  const apiKeys = createApiKeysService({ db, repos, audit, roles, now });
  const auth = createAuthService({ db, repos, audit, tokens, mfa, challenges, now, roles, apiKeys });
  // The console reads one account at a time: the one asked for, else the first enabled one.
  const providerConsole = createProviderConsoleService({
    provider: async (accountId) => {
      if (!provider) throw new ServiceUnavailableError(NO_PROVIDER_MESSAGE);
      return createConsoleProvider(await provider.access(accountId ?? (await provider.defaultAccount())));
    },
    now,
  });
  const providerHealth = createProviderHealth({ check: provider ? () => providerConsole.health() : null, now });
  const dashboard = createDashboardService({ repos, providerHealth });
  const email = createEmailSender({
    outbox: repos.emailOutbox,
    transport: config.smtpUrl ? createSmtpTransport(config.smtpUrl) : null,
    from: config.mailFrom,
    now,
  });
  const emailOutbox = createEmailOutboxService({ outbox: repos.emailOutbox });
  const webhooks = createWebhookService({ repos, audit, email, config, now, log: backgroundLog(deps.log) });
  const passwordSetup = createPasswordSetupService({ db, repos, audit, email, config, now });
  const passwordReset = createPasswordResetService({ db, repos, audit, email, config, now });
  const customers = createCustomersService({ db, repos, audit, passwordSetup, now, serviceLines: () => serviceLines });
  const customerMembers = createCustomerMembersService({ db, repos, audit, email, config, now });
  const users = createUsersService({ db, repos, audit, passwordSetup, mfa, now, roles });
  const profile = createProfileService({ db, repos, audit, tokens, now, roles });
  const terminals = createTerminalsService({ db, repos, audit, now });
  // The app marks each request in it (app.ts); the background writers rest only while one waits.
  const demand = createDemand();
  const pacing = { restRatio: deps.embeddedDatabase ? 1 : 0, wanted: demand.waiting };
  const lineRows = createLineRowsRefresher({
    repos,
    log: (error) => deps.log?.(error, 'Refreshing the stored subscription and customer usage rows failed'),
    pacing,
  });
  const customerTerminals = createCustomerTerminalsService({ repos, audit, now, lineRows });
  const demoTerminals = createDemoTerminals({ repos, customerTerminals, audit, now });
  const terminalSync = createTerminalSyncService({
    db,
    repos,
    audit,
    now,
    provider,
    noProvider: NO_PROVIDER_MESSAGE,
    lineRows,
    pacing,
    options: { usageHistoryCycles: config.usageHistoryCycles },
  });
  const telemetryHistory = createTelemetryHistoryService({ repos, now });
  const syncBudget = createSyncBudgetService({ repos, now, config, provider });
  // Writes that change money or service are sent once, across lost answers and crashes; a lookup
  // reads the line as the provider shows it (the service below, bound once it exists).
  const intents = createProviderIntents({ repos, now, lineNow: (serviceLineNumber) => serviceLines.settings(serviceLineNumber) });
  const subscriptions = createSubscriptionsService({
    repos,
    audit,
    now,
    provider,
    noProvider: NO_PROVIDER_MESSAGE,
    lineRows,
    intents,
  });
  const serviceLines = createServiceLinesService({ repos, audit, now, provider, noProvider: NO_PROVIDER_MESSAGE, terminalSync, intents });
  const myTerminals = createMyTerminalsService({ repos, audit, now, provider, noProvider: NO_PROVIDER_MESSAGE, serviceLines, telemetryHistory });
  const providerBilling = createProviderBillingService({ repos, provider, noProvider: NO_PROVIDER_MESSAGE });
  const activations = createActivationsService({ repos, audit, now, provider, noProvider: NO_PROVIDER_MESSAGE, terminalSync, customerTerminals });
  const customerRequests = createCustomerRequestsService({ repos, audit, now, subscriptions, serviceLines, email });
  const alerts = createAlertsService({
    repos,
    audit,
    email,
    now,
    portalUrl: config.publicUrl ?? ownOrigin(config),
    // The webhooks publish what the alerts raise, in the same transaction.
    webhooks: () => webhooks,
    log: backgroundLog(deps.log),
    actions: () => automaticActions,
  });
  // Changes made without a click at that moment go through the same services as the click.
  const changes = createChangeOperations({ repos, serviceLines: () => serviceLines, subscriptions: () => subscriptions, customers: () => customers });
  const automaticActions = createAutomaticActionsService({
    repos,
    audit,
    now,
    changes,
    email,
    log: backgroundLog(deps.log),
    portalUrl: config.publicUrl ?? ownOrigin(config),
    webhooks: () => webhooks,
    raiseFailure: (failure) => alerts.raiseChangeFailed(failure),
  });
  const scheduledChanges = createScheduledChangesService({
    repos,
    audit,
    now,
    changes,
    webhooks: () => webhooks,
    raiseFailure: (failure) => alerts.raiseChangeFailed(failure),
  });
  const customerPreview = createCustomerPreviewService({ customers, myTerminals, customerRequests, alerts, audit });
  const portalUrl = config.publicUrl ?? ownOrigin(config);
  const dunning = createDunningService({ repos, audit, now, email, log: backgroundLog(deps.log), webhooks: () => webhooks, customers, portalUrl, proposeLineEnds: (customerId, dueOn) => automaticActions.proposeLineEnds(customerId, dueOn) });
  const ledger = createLedgerService({ repos, audit, now, email, log: backgroundLog(deps.log), webhooks: () => webhooks, settle: (customerId) => dunning.settle(customerId) });
  const bankImport = createBankImportService({ repos, audit, now, ledger });
  // A closed statement is charged to its customer's ledger in the close's own transaction.
  const statements = createStatementsService({ repos, audit, now, provider, customers, pacing, log: deps.log, charge: (tx) => ledger.chargeClosed(tx) });
  const billingPrices = createBillingPricesService({ repos, audit, now, onChange: () => statements.requestRun('prices') });
  // The search repository is built here, beside its only user, as the MFA one is.
  const search = createSearchService({ search: createSearchRepository(db) });
  const reconciliationBoard = createReconciliationService({ repos, audit, now, provider, noProvider: NO_PROVIDER_MESSAGE, serviceLines });
  // A fix can bill a correction or change a price: the running cycle's drafts follow at once.
  const reconciliation: typeof reconciliationBoard = {
    ...reconciliationBoard,
    async fix(body, context) {
      const done = await reconciliationBoard.fix(body, context);
      statements.requestRun('prices');
      return done;
    },
  };
  const listExports = createListExportsService({ now, customers, terminals, subscriptions, users, customerTerminals, alerts });
  const bulk = createBulkService({ repos, audit, now, customers, customerTerminals, subscriptions, pacing, log: deps.log });
  return {
    providerAccounts,
    intents,
    alerts,
    automaticActions,
    scheduledChanges,
    demand,
    tokens,
    audit,
    auditLog,
    auth,
    mfa,
    dashboard,
    providerConsole,
    email,
    emailOutbox,
    passwordSetup,
    passwordReset,
    customers,
    customerMembers,
    users,
    roles,
    apiKeys,
    profile,
    terminals,
    customerTerminals,
    myTerminals,
    lineRows,
    demoTerminals,
    terminalSync,
    telemetryHistory,
    syncBudget,
    subscriptions,
    serviceLines,
    activations,
    providerBilling,
    customerRequests,
    customerPreview,
    webhooks,
    statements,
    ledger,
    dunning,
    bankImport,
    billingPrices,
    reconciliation,
    search,
    listExports,
    bulk,
  };
}
