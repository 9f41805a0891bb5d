// How the customers page writes statuses, expiry, dates and counts.
import {
  customerStatus,
  daysUntilExpiry,
  expiryState,
  type CustomerListItem,
  type CustomerStatus,
  type ExpiryState,
} from '../../domain/customers';
import { DASH } from '../common/format';

export { DASH, count, formatDateTime } from '../common/format';

export const NO_EXPIRATION = 'No expiration set';

/** "Jun 1, 2027" in the viewer's time zone; a dash when missing or unreadable. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? DASH : new Date(at).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

export const STATUS_SEVERITY: Record<CustomerStatus, 'success' | 'warning' | 'danger'> = {
  Active: 'success',
  Pending: 'warning',
  Blocked: 'danger',
};

export const statusOf = (customer: Pick<CustomerListItem, 'blockedEnabled' | 'isActive'>) => customerStatus(customer);

export interface ExpiryLabel {
  state: ExpiryState;
  /** The tag or the text: "Expired", "Expiring Soon", the date, or "No expiration set". */
  label: string;
  /** The line beneath: the date of an expired account, the days left of one expiring soon. */
  detail: string | null;
}

/** Spec section 4: Expired; Expiring Soon with the days left (1 to 30); else the date; or "No expiration set". */
export function expiryLabel(accountExpiresAt: string | null, now: number): ExpiryLabel {
  const state = expiryState(accountExpiresAt, new Date(now));
  switch (state) {
    case 'none':
      return { state, label: NO_EXPIRATION, detail: null };
    case 'expired':
      return { state, label: 'Expired', detail: formatDate(accountExpiresAt) };
    case 'expiringSoon': {
      const days = daysUntilExpiry(accountExpiresAt, new Date(now)) ?? 0;
      return { state, label: 'Expiring Soon', detail: `${days} day${days === 1 ? '' : 's'} left` };
    }
    default:
      return { state, label: formatDate(accountExpiresAt), detail: null };
  }
}

/** Labels of the expiration choices (create and extend): "30 days" … "1 year (365 days)". */
export function daysLabel(days: number): string {
  const years = days / 365;
  if (Number.isInteger(years) && years >= 1) return `${years} year${years === 1 ? '' : 's'} (${days} days)`;
  return `${days} days`;
}
