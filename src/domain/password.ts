// New-password rules (spec section 5 "Change password"), used by every form that sets a password
// and enforced by the server too.
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

export const PASSWORD_MESSAGES = {
  allRequired: 'Please fill in all password fields',
  mismatch: 'New passwords do not match',
  tooShort: 'Password must be at least 8 characters long',
  tooLong: 'Password is too long',
} as const;

/** The first rule a new password breaks, or null. `fields` are every field the form shows. */
export function newPasswordProblem(newPassword: string, confirmPassword: string, fields: readonly string[] = [newPassword, confirmPassword]): string | null {
  if (fields.some((f) => f.length === 0)) return PASSWORD_MESSAGES.allRequired;
  if (newPassword !== confirmPassword) return PASSWORD_MESSAGES.mismatch;
  if (newPassword.length < MIN_PASSWORD_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (newPassword.length > MAX_PASSWORD_LENGTH) return PASSWORD_MESSAGES.tooLong;
  return null;
}
