// The dashboard's live figures (`GET /api/v1/dashboard/summary`) and its display fallbacks
// (spec section 2 "Dashboard").
import type { ProviderAccountStatus } from './provider-accounts';
import type { Profile } from './auth';

export type ProviderHealthStatus = 'Healthy' | 'Degraded' | 'Down' | 'Not connected';

export interface ActivityEntry {
  id: string;
  action: string;
  /** Human sentence, e.g. "Ana Lima signed in". */
  description: string;
  actorName: string | null;
  createdAt: string;
}

export interface DashboardSummary {
  totalCustomers: number;
  /** Live terminals on an active service line; null until the inventory was first synced. */
  activeTerminals: number | null;
  systemUsers: number;
  providerHealth: { status: ProviderHealthStatus; checkedAt: string | null; detail: string | null };
  recentActivity: ActivityEntry[];
  /** The fleet split by provider account (the figures above sum across them). */
  accounts: DashboardAccountFigures[];
}

/** One provider account's share of the fleet, as the dashboard shows it. */
export interface DashboardAccountFigures {
  id: number;
  name: string;
  status: ProviderAccountStatus;
  currency: string | null;
  /** Live terminals, and those on an active service line. */
  terminals: number;
  activeTerminals: number;
}

export const GREETING_FALLBACK = 'Enterprise Admin';
export const ACCOUNT_ID_FALLBACK = 'ACC-DEMO123';
export const LAST_LOGIN_FALLBACK = 'Just now';

export function greetingName(profile: Pick<Profile, 'name'> | null | undefined): string {
  const name = profile?.name?.trim();
  return name ? name : GREETING_FALLBACK;
}

/** "ACC-" plus the first 8 characters of the profile uuid in upper case. */
export function accountId(profile: Pick<Profile, 'uuid'> | null | undefined): string {
  const uuid = profile?.uuid?.trim();
  return uuid ? `ACC-${uuid.slice(0, 8).toUpperCase()}` : ACCOUNT_ID_FALLBACK;
}

/** The spec takes "last login" from the profile's updatedAt. */
export function lastLoginLabel(
  profile: Pick<Profile, 'updatedAt'> | null | undefined,
  format: (iso: string) => string = (iso) => new Date(iso).toLocaleString(),
): string {
  const at = profile?.updatedAt;
  if (!at || Number.isNaN(Date.parse(at))) return LAST_LOGIN_FALLBACK;
  return format(at);
}
