// Which provider each account talks to. The accounts are data (provider_accounts): a Starlink
// service account calls the real API with its own sealed credentials; a simulator account calls
// one of the built-in simulator's accounts, mounted on this same server (without STARLINK_*
// settings) and reached through the very same client over HTTP — its address is only known once
// the server listens, hence `bind`.
//
// Every account's calls take their slots from that account's own budget in the database, once
// `useBudgets` has been called (server.ts does, after opening the database): one limit per
// account across every server process, people before background syncs. An account never spends
// another's budget. Clients are built on first use and again when the account's settings change.
import { randomBytes } from 'node:crypto';
import type { SecretBox } from './auth/secret-box';
import type { Clock } from './clock';
import type { Env } from './config';
import type { ProviderAccountsRepository } from './db/repositories/provider-accounts';
import type { ProviderAccountRow } from './db/schema';
import { ConflictError, NotFoundError, ServiceUnavailableError } from './errors';
import { createStarlinkClient, PROVIDER_DEFAULTS, providerSettingsFromEnv, type ProviderSettings, type StarlinkClient } from './provider';
import type { ProviderAccess } from './services/console-provider';
import { providerAccountKey, type ProviderAccountRef, type ProviderCallBudget } from './services/provider-call-budget';
import { simulatedAccountsFromEnv, type SimulatedAccount, type SimulatorCredentials } from './simulator';

/** Set by the cluster's primary in its workers' environment: the simulator accounts it runs for them (JSON). */
export const SHARED_SIMULATOR_ENV = 'PORTAL_SHARED_SIMULATOR_ACCOUNTS';

/** Where the built-in simulator serves its first account; the others under /simulator/<slug>/api. */
export const SIMULATOR_ROOT = '/simulator';
export const simulatorPrefixOf = (slug: string, first: boolean) => (first ? `${SIMULATOR_ROOT}/api` : `${SIMULATOR_ROOT}/${slug}/api`);

export const PROVIDER_ACCOUNT_MESSAGES = {
  notFound: 'Provider account not found',
  disabled: (name: string) => `The provider account "${name}" is disabled: enable it on the Provider accounts page first`,
  pending: 'The provider account has not been set up yet',
  none: 'No provider account is enabled: add or enable one on the Provider accounts page',
  noSimulator: (slug: string) => `The built-in simulator serves no account "${slug}" on this server`,
  noSecret: (name: string) => `The provider account "${name}" has no usable client secret: enter it again on the Provider accounts page`,
} as const;

/** A built-in simulator's service account when the operator sets none (SIM_CLIENT_ID/SECRET). */
export function generatedSimulatorCredentials(): { clientId: string; clientSecret: string } {
  return { clientId: `sim-${randomBytes(6).toString('hex')}`, clientSecret: randomBytes(24).toString('base64url') };
}

/** One of the built-in simulator's accounts as this process reaches it. */
export interface SimulatedEndpoint {
  slug: string;
  name: string;
  currency: string;
  terminals: number;
  credentials: SimulatorCredentials;
  /** Null until the server listens (or, in a cluster worker, the primary's address). */
  baseUrl: string | null;
}

/** The provider of one account at a time: what every service that calls the provider holds. */
export interface ProviderDirectory {
  /** The account's access (its client and budget); 404 unknown, 409 disabled (unless included, for a connection test). */
  access(accountId: number, options?: { includeDisabled?: boolean }): Promise<ProviderAccess>;
  /** Where a call that names no account goes: the first enabled account that is set up. */
  defaultAccount(): Promise<number>;
  /** The accounts background work may call now: enabled, set up, credentials not refused. */
  working(): Promise<number[]>;
}

/**
 * The client of the account that holds a line: a line is only ever acted on at the provider
 * account it lives under. A line never stored goes to the first account.
 */
export async function clientForLine(
  directory: ProviderDirectory,
  lines: { accountOf(serviceLineNumber: string): Promise<number | null> },
  serviceLineNumber: string,
): Promise<StarlinkClient> {
  const accountId = (await lines.accountOf(serviceLineNumber)) ?? (await directory.defaultAccount());
  return (await directory.access(accountId)).client();
}

/** Every account resolves to the same access: the tests' single provider, filed as account one. */
export const singleAccount = (access: ProviderAccess): ProviderDirectory => ({ access: async () => access, defaultAccount: async () => 1, working: async () => [1] });

export interface ProviderRegistry extends ProviderDirectory {
  kind: 'starlink' | 'simulator';
  /** The built-in simulator's accounts (empty with a real provider). */
  simulated(): SimulatedEndpoint[];
  /** The simulator accounts to mount on this server, with their prefixes (none in a cluster worker or with a real provider). */
  mounts(): { slug: string; prefix: string; account: SimulatedAccount }[];
  /** Today's STARLINK_* settings: what a pending first account becomes. */
  environment: ProviderSettings | null;
  /** Tells the built-in simulator's clients where the server listens (`http://127.0.0.1:PORT`). */
  bind(origin: string): void;
  /** From now on the clients take their calls' slots from these budgets (call before the first request). */
  useBudgets(budgetFor: (account: ProviderAccountRef) => ProviderCallBudget): void;
  /** Reads accounts from here, opening their secrets with this box (call once the database is open). */
  useAccounts(repo: ProviderAccountsRepository, box: SecretBox): void;
  /** The budget key and limit an account's calls count against. */
  accountRef(row: ProviderAccountRow): ProviderAccountRef;
  describe(): string;
}

interface CachedAccess {
  stamp: string;
  access: ProviderAccess;
}

export function providerRegistryFromEnv(env: Env, now: Clock): ProviderRegistry {
  const environment = providerSettingsFromEnv(env);
  const shared = sharedSimulatorsFromEnv(env);
  // With STARLINK_* settings the simulator is not served at all: the portal talks to the real API.
  const accounts = environment ? [] : simulatedAccountsFromEnv(env);
  const endpoints: SimulatedEndpoint[] = shared ?? accounts.map((account) => ({
    slug: account.slug,
    name: account.name,
    currency: account.options.currency ?? 'USD',
    terminals: account.options.terminals ?? 156,
    // Mounted on the portal's public port: per-process credentials unless the operator sets them.
    credentials: account.options.credentials ?? generatedSimulatorCredentials(),
    baseUrl: null,
  }));
  let budgetFor: ((account: ProviderAccountRef) => ProviderCallBudget) | null = null;
  const budgets = new Map<string, ProviderCallBudget>();
  let store: { repo: ProviderAccountsRepository; box: SecretBox } | null = null;
  const cache = new Map<number, CachedAccess>();

  const endpointOf = (slug: string | null) => endpoints.find((e) => e.slug === slug) ?? null;

  const accountRef = (row: ProviderAccountRow): ProviderAccountRef => ({
    // A Starlink account keeps the key today's single account had: its budget history carries on.
    key: row.kind === 'simulator' ? providerAccountKey('simulator', row.simulatorAccount ?? '') : providerAccountKey(row.apiUrl ?? '', row.clientId ?? ''),
    requestsPerMinute: row.requestsPerMinute ?? PROVIDER_DEFAULTS.requestsPerMinute,
  });

  const budgetOf = (ref: ProviderAccountRef): ProviderCallBudget | null => {
    if (!budgetFor) return null;
    const key = `${ref.key}:${ref.requestsPerMinute}`;
    let budget = budgets.get(key);
    if (!budget) {
      budget = budgetFor(ref);
      budgets.set(key, budget);
    }
    return budget;
  };

  function build(row: ProviderAccountRow): CachedAccess {
    const ref = accountRef(row);
    const budget = budgetOf(ref);
    const limiter = budget ? { limiter: budget } : { requestsPerMinute: ref.requestsPerMinute };
    if (row.kind === 'simulator') {
      const endpoint = endpointOf(row.simulatorAccount);
      if (!endpoint) throw new ServiceUnavailableError(PROVIDER_ACCOUNT_MESSAGES.noSimulator(row.simulatorAccount ?? ''));
      let client: StarlinkClient | null = null;
      return {
        stamp: `simulator:${endpoint.slug}:${ref.requestsPerMinute}:${endpoint.baseUrl ?? ''}`,
        access: {
          kind: 'simulator',
          client: () => {
            if (!endpoint.baseUrl) throw new Error('The built-in simulator is not listening yet');
            client ??= createStarlinkClient({ apiUrl: endpoint.baseUrl, tokenUrl: `${endpoint.baseUrl}/auth/connect/token`, ...endpoint.credentials, now, ...limiter });
            return client;
          },
          budget: () => budget,
        },
      };
    }
    const secret = store?.box.open(row.clientSecretSealed, sealContext(row.id)) ?? null;
    if (!secret || !row.apiUrl || !row.clientId) throw new ConflictError(PROVIDER_ACCOUNT_MESSAGES.noSecret(row.name));
    const apiUrl = row.apiUrl;
    const clientId = row.clientId;
    const tokenUrl = row.tokenUrl ?? `${apiUrl}/auth/connect/token`;
    let client: StarlinkClient | null = null;
    return {
      stamp: `starlink:${apiUrl}:${tokenUrl}:${clientId}:${row.clientSecretSealed}:${ref.requestsPerMinute}`,
      access: {
        kind: 'starlink',
        client: () => (client ??= createStarlinkClient({ apiUrl, tokenUrl, clientId, clientSecret: secret, now, ...limiter })),
        budget: () => budget,
      },
    };
  }

  return {
    kind: environment ? 'starlink' : 'simulator',
    environment,
    simulated: () => endpoints,
    // Each mounted account answers to the credentials its clients sign in with.
    mounts: () =>
      shared
        ? []
        : accounts.map((account, k) => ({
            slug: account.slug,
            prefix: simulatorPrefixOf(account.slug, k === 0),
            account: { ...account, options: { ...account.options, credentials: endpoints[k]!.credentials } },
          })),
    accountRef,
    bind(origin) {
      if (shared) return;
      endpoints.forEach((endpoint, k) => (endpoint.baseUrl = `${origin}${simulatorPrefixOf(endpoint.slug, k === 0)}`));
      cache.clear();
    },
    useBudgets(next) {
      budgetFor = next;
      budgets.clear();
      cache.clear();
    },
    useAccounts(repo, box) {
      store = { repo, box };
      cache.clear();
    },
    async access(accountId, options) {
      if (!store) throw new ServiceUnavailableError('The provider accounts are not open yet');
      const row = await store.repo.find(accountId);
      if (!row) throw new NotFoundError(PROVIDER_ACCOUNT_MESSAGES.notFound);
      if (!row.enabled && !options?.includeDisabled) throw new ConflictError(PROVIDER_ACCOUNT_MESSAGES.disabled(row.name));
      if (row.kind === 'pending') throw new ServiceUnavailableError(PROVIDER_ACCOUNT_MESSAGES.pending);
      const built = build(row);
      const cached = cache.get(accountId);
      if (cached && cached.stamp === built.stamp) return cached.access;
      cache.set(accountId, built);
      return built.access;
    },
    async working() {
      if (!store) return [];
      return (await store.repo.list()).filter((row) => row.enabled && row.kind !== 'pending' && row.authFailedAt === null).map((row) => row.id);
    },
    async defaultAccount() {
      if (!store) throw new ServiceUnavailableError('The provider accounts are not open yet');
      const first = (await store.repo.list()).find((row) => row.enabled && row.kind !== 'pending');
      if (!first) throw new ServiceUnavailableError(PROVIDER_ACCOUNT_MESSAGES.none);
      return first.id;
    },
    describe: () =>
      environment
        ? `Starlink API at ${environment.apiUrl} (and any other account added on the Provider accounts page)`
        : `built-in provider simulator with ${endpoints.length} account${endpoints.length === 1 ? '' : 's'}: ${endpoints
            .map((e) => `${e.name} (${e.currency}, ${e.terminals} terminals) at ${e.baseUrl ?? '(not bound)'}`)
            .join('; ')}${shared ? ', run by the cluster primary for every worker' : ''}`,
  };
}

/** What a sealed client secret is bound to: a secret copied into another account's row does not open. */
export const sealContext = (accountId: number) => `provider-account:${accountId}`;


/** The simulator accounts a cluster's primary runs for its workers, or null outside a cluster worker. */
function sharedSimulatorsFromEnv(env: Env): SimulatedEndpoint[] | null {
  const text = env[SHARED_SIMULATOR_ENV];
  if (!text) return null;
  const parsed = JSON.parse(text) as SimulatedEndpoint[];
  return parsed.map((e) => ({ ...e }));
}

/** For the cluster's primary: the accounts it runs, as its workers read them. */
export const sharedSimulatorsEnvValue = (endpoints: SimulatedEndpoint[]) => JSON.stringify(endpoints);
