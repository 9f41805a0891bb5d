import type { AccountRow } from '../db/schema';

/** Why a correctly authenticated account may still not use the portal. */
export type AccountRefusal = 'blocked' | 'inactive' | 'expired';

/** Blocked wins over inactive, inactive over expired: the most deliberate decision is the one shown. */
export function accountRefusal(
  account: Pick<AccountRow, 'blockedEnabled' | 'isActive' | 'accountExpiresAt'>,
  now: Date,
): AccountRefusal | null {
  if (account.blockedEnabled) return 'blocked';
  if (!account.isActive) return 'inactive';
  if (account.accountExpiresAt && account.accountExpiresAt.getTime() <= now.getTime()) return 'expired';
  return null;
}
