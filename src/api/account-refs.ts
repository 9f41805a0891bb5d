// The provider account a list row names, read defensively as src/api/terminals.ts reads it: an
// id that is not a whole number from 1 reads as not known, and so does a missing or blank name.
import { isRecord, pick, str, type Raw } from './normalise';
import type { ProviderAccountRef } from '../domain/provider-accounts';

/** A provider account id is a whole number from 1; anything else reads as not known. */
export function accountIdOf(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/** `accountId` and `accountName` of a row (camelCase or snake_case); null for either not known. */
export function rowAccount(raw: Raw): { accountId: number | null; accountName: string | null } {
  const name = str(pick(raw, 'accountName', 'account_name'));
  return { accountId: accountIdOf(pick(raw, 'accountId', 'account_id')), accountName: name && name.trim() ? name : null };
}

/** A list of `{ id, name }` accounts; entries that cannot be read are left out. */
export function accountRefsOf(value: unknown): ProviderAccountRef[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw) => {
    if (!isRecord(raw)) return [];
    const id = accountIdOf(raw.id);
    const name = str(raw.name);
    return id !== null && name && name.trim() ? [{ id, name }] : [];
  });
}
