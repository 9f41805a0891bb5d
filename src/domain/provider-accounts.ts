// Provider accounts: the reseller's service accounts at the provider (one per region, data pool or
// legal entity, often in different currencies). Everything that comes from the provider — terminals,
// lines, addresses, usage, products, invoices, sync runs and call budgets — belongs to one of them.
// An account is either a Starlink service account (URLs, client id and a secret sealed at rest and
// never returned) or one of the built-in simulator's accounts (npm start without Starlink settings).
// Shared by the server (the authority) and the client (the form checks the same rules first).

export const PROVIDER_ACCOUNT_KINDS = ['starlink', 'simulator'] as const;
export type ProviderAccountKind = (typeof PROVIDER_ACCOUNT_KINDS)[number];

/**
 * - active: it syncs on its schedule and answers people's calls;
 * - disabled: an administrator stopped it; its data stays, nothing calls the provider for it;
 * - auth_failed: the provider refused its credentials; its syncs pause until the credentials are
 *   changed or a connection test succeeds. The other accounts go on.
 */
export const PROVIDER_ACCOUNT_STATUSES = ['active', 'disabled', 'auth_failed'] as const;
export type ProviderAccountStatus = (typeof PROVIDER_ACCOUNT_STATUSES)[number];

export const PROVIDER_ACCOUNT_STATUS_LABELS: Record<ProviderAccountStatus, string> = {
  active: 'Active',
  disabled: 'Disabled',
  auth_failed: 'Authentication failed',
};

export const PROVIDER_ACCOUNT_LIMITS = {
  name: 80,
  url: 500,
  clientId: 200,
  clientSecret: 500,
  /** The provider allows 250 calls a minute per account; a budget above it only earns 429s. */
  requestsPerMinute: { min: 1, max: 250 },
  syncIntervalMinutes: { min: 5, max: 1440 },
} as const;

/** The provider's default call budget a minute per account (below its own 250, for headroom). */
export const DEFAULT_PROVIDER_REQUESTS_PER_MINUTE = 240;

/** One account as `GET /provider-accounts` answers it: never the secret. */
export interface ProviderAccountWire {
  id: number;
  name: string;
  kind: ProviderAccountKind;
  /** The built-in simulator's account it uses (kind simulator), e.g. 'br'. */
  simulatorAccount: string | null;
  /** The API and token URLs (for a simulator account: where the built-in simulator serves it). */
  apiUrl: string | null;
  tokenUrl: string | null;
  clientId: string | null;
  /** True when a secret is stored; the secret itself is never returned. */
  hasSecret: boolean;
  requestsPerMinute: number;
  /** Null: the portal's default schedule. */
  syncIntervalMinutes: number | null;
  status: ProviderAccountStatus;
  /** What the provider last said when it refused, or the last connection test's words. */
  statusMessage: string | null;
  /** The provider's account number and currency, as its last answer gave them. */
  accountNumber: string | null;
  currency: string | null;
  /** Live (not removed) service lines and terminals held under the account. */
  lineCount: number;
  terminalCount: number;
  lastSyncAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What adding or editing an account sends. On edit a blank clientSecret keeps the stored one. */
export interface ProviderAccountInput {
  name: string;
  kind: ProviderAccountKind;
  /** Kind simulator: which of the built-in simulator's accounts. */
  simulatorAccount?: string | null;
  /** Kind starlink. tokenUrl blank: `${apiUrl}/auth/connect/token`. */
  apiUrl?: string | null;
  tokenUrl?: string | null;
  clientId?: string | null;
  clientSecret?: string | null;
  requestsPerMinute?: number;
  syncIntervalMinutes?: number | null;
}

/** The add/edit dialog's form, as typed (numbers as text until checked). */
export type ProviderAccountTextField = 'name' | 'apiUrl' | 'tokenUrl' | 'clientId' | 'clientSecret' | 'requestsPerMinute' | 'syncIntervalMinutes';
export type ProviderAccountFormField = ProviderAccountTextField | 'simulatorAccount';

export interface ProviderAccountFormValues {
  name: string;
  kind: ProviderAccountKind;
  /** The simulated account's slug (kind simulator); '' none chosen yet. */
  simulatorAccount: string;
  apiUrl: string;
  /** '' the API URL's /auth/connect/token. */
  tokenUrl: string;
  clientId: string;
  /** '' on edit keeps the stored secret. */
  clientSecret: string;
  requestsPerMinute: string;
  /** '' the portal's default schedule. */
  syncIntervalMinutes: string;
}

/** `POST /provider-accounts/{id}/test`: what the provider answered, in words. */
export interface ProviderConnectionTestWire {
  ok: boolean;
  message: string;
  accountNumber: string | null;
  testedAt: string;
}

/** `GET /provider-accounts/simulated`: the built-in simulator's accounts one may add. */
export interface SimulatedAccountWire {
  slug: string;
  name: string;
  currency: string;
  terminals: number;
  /** The portal account already using it, if any. */
  usedBy: number | null;
}

/** The short reference lists show in their Account column and filter. */
export interface ProviderAccountRef {
  id: number;
  name: string;
}
