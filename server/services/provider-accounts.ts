// Provider accounts as data: added, edited, disabled, enabled, tested and deleted by people who may
// manage the provider console.
// - The client secret is sealed at rest under the server's key, bound to the account, and never
//   returned: an edit with a blank secret keeps the stored one.
// - "Test connection" asks the provider for the account and says what it answered; a refusal of
//   the credentials marks the account "authentication failed", which pauses its syncs (the others
//   go on), and a later success clears it.
// - An account that still holds service lines cannot be deleted (409 with the count): disable it.
// - On the first start of this release, the account the migration made from what the portal held
//   ("pending") becomes today's STARLINK_* account, or else the built-in simulator's first one.
import {
  type ProviderAccountInput,
  type ProviderAccountStatus,
  type ProviderAccountWire,
  type ProviderConnectionTestWire,
  type SimulatedAccountWire,
} from '../../src/domain/provider-accounts';
import type { SecretBox } from '../auth/secret-box';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { ProviderAccountListRow, ProviderAccountPatch } from '../db/repositories/provider-accounts';
import { isUniqueViolation } from '../db/repositories/unique-violation';
import type { ProviderAccountRow } from '../db/schema';
import { ConflictError, NotFoundError, type FieldError } from '../errors';
import { failValidation } from './account-fields';
import { isProviderError, PROVIDER_DEFAULTS } from '../provider';
import { sealContext, type ProviderRegistry } from '../provider-access';
import type { AuditService, RequestContext } from './audit';

export const PROVIDER_ACCOUNTS_MESSAGES = {
  listed: 'Provider accounts',
  created: 'Provider account added',
  updated: 'Provider account saved',
  disabled: 'Provider account disabled: its data stays, and nothing calls the provider for it',
  enabled: 'Provider account enabled',
  deleted: 'Provider account deleted',
  notFound: 'Provider account not found',
  nameTaken: (name: string) => `An account named "${name}" already exists`,
  simulatorTaken: (name: string) => `That simulated account is already used by "${name}"`,
  unknownSimulator: 'The built-in simulator serves no such account on this server',
  stillHoldsLines: (count: number) =>
    `This account still holds ${count.toLocaleString('en-US')} service line${count === 1 ? '' : 's'}: disable it instead.`,
  stillHoldsHistory: 'This account still holds removed terminals, invoices or activations the portal keeps: disable it instead.',
  lastAccount: 'The last enabled provider account cannot be disabled or deleted while the portal has no other',
  secretRequired: 'is required for a Starlink service account',
  connected: (accountNumber: string) => `Connected: the provider answered for account ${accountNumber}`,
  authFailed: (said: string) => `Authentication failed: the provider refused the client id and secret${said}`,
} as const;

/** The account's status as people read it: disabled outranks a refused credential. */
export function accountStatus(row: Pick<ProviderAccountRow, 'enabled' | 'authFailedAt'>): ProviderAccountStatus {
  if (!row.enabled) return 'disabled';
  return row.authFailedAt ? 'auth_failed' : 'active';
}

/** Whether the account's syncs may run now: enabled, set up, and its credentials not refused. */
export const syncable = (row: ProviderAccountRow) => row.enabled && row.kind !== 'pending' && row.authFailedAt === null;

export type ProviderAccountsService = ReturnType<typeof createProviderAccountsService>;

export function createProviderAccountsService(deps: {
  db: Db;
  repos: Repositories;
  audit: AuditService;
  box: SecretBox;
  now: Clock;
  /** Null when the portal was built without a provider (some tests): accounts are then only data. */
  registry: ProviderRegistry | null;
  /**
   * Starts an account's inventory sync (the terminal sync service, built after this one): a new,
   * enabled again or newly credentialed account syncs at once rather than at the next tick.
   */
  startSync?: () => { tryStart(input: { kind: 'inventory'; accountId: number; trigger: 'manual'; requestedBy: string | null }): Promise<unknown> };
}) {
  const { db, repos, audit, box, now } = deps;
  const repo = repos.providerAccounts;
  const M = PROVIDER_ACCOUNTS_MESSAGES;

  const endpointOf = (slug: string | null) => deps.registry?.simulated().find((e) => e.slug === slug) ?? null;

  function toWire(row: ProviderAccountListRow): ProviderAccountWire {
    const endpoint = row.kind === 'simulator' ? endpointOf(row.simulatorAccount) : null;
    return {
      id: row.id,
      name: row.name,
      kind: row.kind === 'simulator' ? 'simulator' : 'starlink',
      simulatorAccount: row.simulatorAccount,
      apiUrl: endpoint ? endpoint.baseUrl : row.apiUrl,
      tokenUrl: endpoint?.baseUrl ? `${endpoint.baseUrl}/auth/connect/token` : row.kind === 'starlink' ? (row.tokenUrl ?? (row.apiUrl ? `${row.apiUrl}/auth/connect/token` : null)) : null,
      clientId: endpoint ? endpoint.credentials.clientId : row.clientId,
      hasSecret: endpoint ? true : row.clientSecretSealed !== null,
      requestsPerMinute: row.requestsPerMinute ?? PROVIDER_DEFAULTS.requestsPerMinute,
      syncIntervalMinutes: row.syncIntervalMinutes,
      status: accountStatus(row),
      statusMessage: row.statusMessage,
      accountNumber: row.accountNumber,
      currency: row.currency ?? (endpoint ? endpoint.currency : null),
      lineCount: row.lineCount,
      terminalCount: row.terminalCount,
      lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  async function wireOf(id: number, tx: Db = db): Promise<ProviderAccountWire> {
    const row = (await repo.listWithCounts(tx)).find((r) => r.id === id);
    if (!row) throw new NotFoundError(M.notFound);
    return toWire(row);
  }

  /** After the change is committed; a refusal (one already queued, no provider) changes nothing. */
  async function syncNow(id: number, context: RequestContext): Promise<void> {
    const row = await repo.find(id);
    if (!row || !syncable(row) || !deps.startSync) return;
    await deps
      .startSync()
      .tryStart({ kind: 'inventory', accountId: id, trigger: 'manual', requestedBy: context.actor.type === 'user' ? context.actor.id : null })
      .catch(() => undefined);
  }

  async function existing(id: number, tx: Db = db): Promise<ProviderAccountRow> {
    const row = await repo.find(id, tx);
    if (!row) throw new NotFoundError(M.notFound);
    return row;
  }

  /** A unique index's refusal as the 409 people can act on. */
  async function refusingDuplicates<T>(input: { name?: string | undefined; simulatorAccount?: string | null | undefined }, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error, 'provider_accounts_name_uq')) throw new ConflictError(M.nameTaken(input.name ?? ''));
      if (isUniqueViolation(error, 'provider_accounts_simulator_uq')) {
        const holder = (await repo.list()).find((r) => r.simulatorAccount === input.simulatorAccount);
        throw new ConflictError(M.simulatorTaken(holder?.name ?? ''));
      }
      throw error;
    }
  }

  /** What an input sets, checked against the kind; the secret is sealed separately (it needs the id). */
  function columnsOf(input: Partial<ProviderAccountInput>, kind: 'starlink' | 'simulator', creating: boolean): ProviderAccountPatch {
    const set: ProviderAccountPatch = {};
    if (input.name !== undefined) set.name = input.name.trim();
    if (input.requestsPerMinute !== undefined) set.requestsPerMinute = input.requestsPerMinute;
    if (input.syncIntervalMinutes !== undefined) set.syncIntervalMinutes = input.syncIntervalMinutes;
    set.kind = kind;
    if (kind === 'simulator') {
      if (input.simulatorAccount !== undefined || creating) {
        if (!input.simulatorAccount || !endpointOf(input.simulatorAccount)) {
          failValidation([{ path: 'simulatorAccount', message: M.unknownSimulator }]);
        }
        set.simulatorAccount = input.simulatorAccount;
      }
      Object.assign(set, { apiUrl: null, tokenUrl: null, clientId: null, clientSecretSealed: null });
      return set;
    }
    set.simulatorAccount = null;
    const missing: FieldError[] = [];
    if (input.apiUrl !== undefined) set.apiUrl = input.apiUrl;
    if (input.tokenUrl !== undefined) set.tokenUrl = input.tokenUrl || null;
    if (input.clientId !== undefined) set.clientId = input.clientId;
    if (creating) {
      if (!input.apiUrl) missing.push({ path: 'apiUrl', message: M.secretRequired });
      if (!input.clientId) missing.push({ path: 'clientId', message: M.secretRequired });
      if (!input.clientSecret) missing.push({ path: 'clientSecret', message: M.secretRequired });
    }
    if (missing.length > 0) failValidation(missing);
    return set;
  }

  return {
    async list(): Promise<ProviderAccountWire[]> {
      return (await repo.listWithCounts()).map(toWire);
    },

    /** The accounts as lists name them (id and name), for their Account column and filter. */
    async refs(): Promise<{ id: number; name: string }[]> {
      return (await repo.list()).filter((r) => r.kind !== 'pending').map((r) => ({ id: r.id, name: r.name }));
    },

    simulated(): Promise<SimulatedAccountWire[]> {
      return repo.list().then((rows) =>
        (deps.registry?.simulated() ?? []).map((e) => ({
          slug: e.slug,
          name: e.name,
          currency: e.currency,
          terminals: e.terminals,
          usedBy: rows.find((r) => r.kind === 'simulator' && r.simulatorAccount === e.slug)?.id ?? null,
        })),
      );
    },

    async create(input: ProviderAccountInput, context: RequestContext): Promise<ProviderAccountWire> {
      const at = now();
      const set = columnsOf(input, input.kind, true);
      const wire = await refusingDuplicates(input, () =>
        db.transaction(async (tx) => {
          const row = await repo.insert({ name: input.name.trim(), kind: input.kind, ...set, requestsPerMinute: input.requestsPerMinute ?? null }, tx);
          if (input.kind === 'starlink' && input.clientSecret) {
            await repo.update(row.id, { clientSecretSealed: box.seal(input.clientSecret, sealContext(row.id)) }, at, tx);
          }
          const wire = await wireOf(row.id, tx);
          await audit.record({ ...context, action: 'provider_account.created', targetType: 'provider_account', targetId: String(row.id), after: wire }, tx);
          return wire;
        }),
      );
      await syncNow(wire.id, context);
      return wire;
    },

    async update(id: number, input: Partial<ProviderAccountInput>, context: RequestContext): Promise<ProviderAccountWire> {
      const at = now();
      const after = await refusingDuplicates(input, () =>
        db.transaction(async (tx) => {
          const before = await wireOf(id, tx);
          const row = await existing(id, tx);
          const kind = input.kind ?? (row.kind === 'simulator' ? 'simulator' : 'starlink');
          const set = columnsOf(input, kind, row.kind === 'pending' || (input.kind !== undefined && input.kind !== row.kind && kind === 'simulator'));
          if (kind === 'starlink') {
            if (input.clientSecret) set.clientSecretSealed = box.seal(input.clientSecret, sealContext(id));
            const next = { ...row, ...set };
            if (!next.apiUrl || !next.clientId || !next.clientSecretSealed) {
              failValidation([
                ...(!next.apiUrl ? [{ path: 'apiUrl', message: M.secretRequired }] : []),
                ...(!next.clientId ? [{ path: 'clientId', message: M.secretRequired }] : []),
                ...(!next.clientSecretSealed ? [{ path: 'clientSecret', message: M.secretRequired }] : []),
              ]);
            }
          }
          // New credentials deserve a new chance: the pause a refusal set is lifted.
          const credentialsChanged = ['apiUrl', 'tokenUrl', 'clientId', 'clientSecretSealed', 'simulatorAccount', 'kind'].some(
            (key) => key in set && (set as Record<string, unknown>)[key] !== (row as Record<string, unknown>)[key],
          );
          if (credentialsChanged) Object.assign(set, { authFailedAt: null, statusMessage: null });
          await repo.update(id, set, at, tx);
          const after = await wireOf(id, tx);
          await audit.record({ ...context, action: 'provider_account.updated', targetType: 'provider_account', targetId: String(id), before, after }, tx);
          return { wire: after, retry: credentialsChanged };
        }),
      );
      if (after.retry) await syncNow(id, context);
      return after.wire;
    },

    async setEnabled(id: number, enabled: boolean, context: RequestContext): Promise<ProviderAccountWire> {
      const at = now();
      const wire = await db.transaction(async (tx) => {
        const row = await existing(id, tx);
        if (!enabled && row.enabled) {
          const others = (await repo.list(tx)).filter((r) => r.id !== id && r.enabled);
          if (others.length === 0) throw new ConflictError(M.lastAccount);
        }
        await repo.update(id, { enabled }, at, tx);
        const wire = await wireOf(id, tx);
        await audit.record(
          { ...context, action: enabled ? 'provider_account.enabled' : 'provider_account.disabled', targetType: 'provider_account', targetId: String(id), before: { enabled: row.enabled }, after: { enabled } },
          tx,
        );
        return wire;
      });
      if (enabled) await syncNow(id, context);
      return wire;
    },

    async remove(id: number, context: RequestContext): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await existing(id, tx);
        const lines = await repo.liveLines(id, tx);
        if (lines > 0) throw new ConflictError(M.stillHoldsLines(lines));
        if (await repo.holdsRecords(id, tx)) throw new ConflictError(M.stillHoldsHistory);
        if (row.enabled && (await repo.list(tx)).filter((r) => r.id !== id && r.enabled).length === 0) throw new ConflictError(M.lastAccount);
        await repo.delete(id, tx);
        await audit.record({ ...context, action: 'provider_account.deleted', targetType: 'provider_account', targetId: String(id), before: { name: row.name, kind: row.kind } }, tx);
      });
    },

    /** Asks the provider for the account, fresh, and says what it answered (also when it refused). */
    async test(id: number, context: RequestContext): Promise<ProviderConnectionTestWire> {
      const row = await existing(id);
      const at = now();
      let result: ProviderConnectionTestWire;
      try {
        if (!deps.registry) throw new ConflictError('No provider is configured');
        const access = await deps.registry.access(id, { includeDisabled: true });
        const account = await access.client().getAccount({ fresh: true });
        const message = M.connected(account.accountNumber);
        await repo.markConnected(id, { accountNumber: account.accountNumber, message }, at);
        result = { ok: true, message, accountNumber: account.accountNumber, testedAt: at.toISOString() };
      } catch (error) {
        if (isProviderError(error) && error.kind === 'auth') {
          const message = M.authFailed(error.messages.length > 0 ? ` (${error.messages.join('; ')})` : '');
          await repo.markAuthFailed(id, message, at);
          result = { ok: false, message, accountNumber: null, testedAt: at.toISOString() };
        } else if (isProviderError(error)) {
          result = { ok: false, message: `The provider did not accept the test: ${error.message}`, accountNumber: null, testedAt: at.toISOString() };
        } else if (error instanceof ConflictError || error instanceof NotFoundError) {
          result = { ok: false, message: error.message, accountNumber: null, testedAt: at.toISOString() };
        } else {
          throw error;
        }
      }
      await audit.record({ ...context, action: 'provider_account.tested', targetType: 'provider_account', targetId: String(id), after: { name: row.name, ok: result.ok, message: result.message } });
      return result;
    },

    /** A sync or call was refused for the credentials: the account's syncs pause until they change. */
    async reportAuthFailure(id: number, error: unknown): Promise<void> {
      if (!isProviderError(error) || error.kind !== 'auth') return;
      await repo.markAuthFailed(id, M.authFailed(error.messages.length > 0 ? ` (${error.messages.join('; ')})` : ''), now());
    },

    /**
     * First start of this release: the account made from what the portal held takes today's
     * STARLINK_* settings, or the built-in simulator's first account. A new demo database gets
     * the simulator's other accounts too, so the demo shows several from the start.
     */
    async adoptPending(options: { seedDemo: boolean }): Promise<string[]> {
      const registry = deps.registry;
      if (!registry) return [];
      const done: string[] = [];
      const at = now();
      const rows = await repo.list();
      const pending = rows.find((r) => r.kind === 'pending');
      const environment = registry.environment;
      const simulated = registry.simulated();
      if (pending) {
        if (environment) {
          await repo.update(
            pending.id,
            {
              kind: 'starlink',
              name: 'Starlink account',
              apiUrl: environment.apiUrl,
              tokenUrl: environment.tokenUrl,
              clientId: environment.clientId,
              clientSecretSealed: box.seal(environment.clientSecret, sealContext(pending.id)),
              requestsPerMinute: environment.requestsPerMinute ?? null,
            },
            at,
          );
          done.push(`Provider account ${pending.id} is the STARLINK_* account at ${environment.apiUrl}`);
        } else if (simulated[0]) {
          await repo.update(pending.id, { kind: 'simulator', name: simulated[0].name, simulatorAccount: simulated[0].slug }, at);
          done.push(`Provider account ${pending.id} is the built-in simulator's ${simulated[0].name}`);
        }
        // Only a new demo gets the simulator's other accounts: an upgraded portal keeps exactly
        // the one account it had.
        const fresh = (await repos.syncRuns.recent(1)).length === 0;
        if (options.seedDemo && !environment && fresh) {
          for (const endpoint of simulated.slice(1)) {
            if ((await repo.list()).some((r) => r.simulatorAccount === endpoint.slug || r.name.toLowerCase() === endpoint.name.toLowerCase())) continue;
            const row = await repo.insert({ name: endpoint.name, kind: 'simulator', simulatorAccount: endpoint.slug });
            done.push(`Provider account ${row.id} is the built-in simulator's ${endpoint.name}`);
          }
        }
      }
      return done;
    },
  };
}
