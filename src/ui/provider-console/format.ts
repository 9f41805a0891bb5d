// How the console writes numbers and dates: usage with one decimal, percentages whole, counts with
// thousands separators, missing values as a dash.
import { formatLocalDateTime } from '../common/relativeTime';

export const DASH = '—';

export const count = (value: number) => value.toLocaleString('en-US');

/** "12.3" — usage figures carry one decimal. */
export const gb = (value: number) => value.toFixed(1);

/** "42%" — percentages are whole. */
export const percent = (value: number) => `${Math.round(value)}%`;

export const milliseconds = (value: number) => `${count(Math.round(value))} ms`;

/** Text, or a dash when the provider gave nothing. */
export const text = (value: string | null | undefined) => (value == null || value === '' ? DASH : value);

/** A calendar date ("2026-11-01") stays as written; a timestamp is shown in local time. */
export function date(value: string | null | undefined): string {
  if (value == null || value === '') return DASH;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return formatLocalDateTime(value) || value;
}

export const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
