// What the customer forms share: reading the server's field errors onto form fields, and the
// failure message of a refused or unanswered request.
import type { ApiResult } from '../api/client';
import type { FieldErrors } from '../domain/customers';

/** The last segment of an error path: "body.email", "/email" and "email" all name `email`. */
function fieldName(path: string): string {
  const last = path.split(/[./[\]]/).filter(Boolean).pop() ?? '';
  // snake_case paths (expiration_days) name the camelCase field.
  return last.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());
}

/**
 * Field errors of a refused request, for the fields the form shows. A 409 is the duplicate email
 * (spec: one account per address) and lands on the email field when the form has one.
 */
export function serverFieldErrors<F extends string>(
  result: Extract<ApiResult<unknown>, { ok: false }>,
  fields: readonly F[],
  duplicateEmailMessage: string,
): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const problem of result.errors ?? []) {
    const field = fieldName(problem.path) as F;
    if (fields.includes(field) && !errors[field]) errors[field] = problem.message;
  }
  if (result.status === 409 && fields.includes('email' as F) && !errors['email' as F]) {
    errors['email' as F] = result.message || duplicateEmailMessage;
  }
  return errors;
}

export const hasErrors = (errors: FieldErrors<string>) => Object.values(errors).some(Boolean);

/** "Failed to …: {message}" when the server said why, else "Failed to …. Please try again." */
export function failureText(action: string, message: string | null | undefined): string {
  const reason = message?.trim();
  return reason ? `Failed to ${action}: ${reason}` : `Failed to ${action}. Please try again.`;
}
