// Display formats every page shares: the dash for a missing value, counts, local date and time.
import { formatLocalDateTime } from './relativeTime';

export const DASH = '—';

export const count = (value: number) => value.toLocaleString('en-US');

/** A timestamp in the viewer's local time; the fallback when missing or unreadable. */
export function formatDateTime(iso: string | null | undefined, fallback = DASH): string {
  if (!iso) return fallback;
  return formatLocalDateTime(iso, 'en-US') || fallback;
}
