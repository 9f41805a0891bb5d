// Field rules the account services share (customers, portal users, one's own profile): a 400 with
// every field's problem, trimmed optional text, a customer's contact fields, and how an account's
// expiry is extended.
import { CUSTOMER_FIELD_LIMITS, CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { BadRequestError, VALIDATION_FAILED_MESSAGE, type FieldError } from '../errors';

const DAY_MS = 86_400_000;

/** A 400 naming the one problem, or "Validation failed" with all of them. */
export function failValidation(errors: FieldError[]): never {
  throw new BadRequestError(errors.length === 1 ? errors[0]!.message : VALIDATION_FAILED_MESSAGE, { errors });
}

/** Trimmed optional text: '' and whitespace become null; undefined stays "not given". */
export const optionalText = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value === null ? null : value.trim() || null;

/** The phone and address given (null clears one), or their problems pushed onto `errors`. */
export function contactFieldsPatch(payload: { phone?: string | null; address?: string | null }, errors: FieldError[]): { phone?: string | null; address?: string | null } {
  const patch: { phone?: string | null; address?: string | null } = {};
  for (const [field, label, max] of [
    ['phone', 'Phone', CUSTOMER_FIELD_LIMITS.phone],
    ['address', 'Address', CUSTOMER_FIELD_LIMITS.address],
  ] as const) {
    const value = optionalText(payload[field]);
    if (value === undefined) continue;
    if (value !== null && value.length > max) errors.push({ path: field, message: CUSTOMER_MESSAGES.tooLong(label, max) });
    else patch[field] = value;
  }
  return patch;
}

/** The new expiry after `days` more, counted from the later of now and the current expiry: extending never shortens an account. */
export function extendedExpiry(current: Date | null, at: Date, days: number): Date {
  return new Date(Math.max(at.getTime(), current?.getTime() ?? 0) + days * DAY_MS);
}
