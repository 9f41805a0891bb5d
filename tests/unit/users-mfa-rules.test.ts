import { describe, expect, it } from 'vitest';
import { USER_FIELD_LIMITS, USER_MESSAGES, canToggleActive, userStatus, validateUserForm } from '../../src/domain/users';
import { isCompleteMfaCode, isMfaCodeOrBackupCode, sanitiseMfaCode } from '../../src/domain/mfa';

describe('userStatus', () => {
  it.each([
    [{ blockedEnabled: true, isActive: true }, 'Blocked'],
    [{ blockedEnabled: true, isActive: false }, 'Blocked'],
    [{ blockedEnabled: false, isActive: true }, 'Active'],
    [{ blockedEnabled: false, isActive: false }, 'Inactive'],
  ] as const)('%o reads %s: blocked wins over active', (user, status) => {
    expect(userStatus(user)).toBe(status);
  });
});

describe('canToggleActive', () => {
  it('refuses admin-role users and allows the others', () => {
    expect(canToggleActive({ role: 'admin' })).toBe(false);
    expect(canToggleActive({ role: 'user' })).toBe(true);
  });
});

describe('validateUserForm', () => {
  const valid = { name: 'Lia Souza', email: 'lia.souza@example.com', roleIds: ['role-admin_read_only'] };

  it('a complete form has no problems, with or without a password', () => {
    expect(validateUserForm(valid, 'create')).toEqual({});
    expect(validateUserForm({ ...valid, password: '' }, 'create')).toEqual({});
    expect(validateUserForm({ ...valid, password: 'eight ch' }, 'create')).toEqual({});
  });

  it('blank name and email are required, whitespace counts as blank', () => {
    expect(validateUserForm({ ...valid, name: '  ', email: ' ' }, 'create')).toEqual({
      name: USER_MESSAGES.nameRequired,
      email: USER_MESSAGES.emailRequired,
    });
  });

  it('a name past its limit is too long; the limit itself is fine', () => {
    expect(validateUserForm({ ...valid, name: 'x'.repeat(USER_FIELD_LIMITS.name + 1) }, 'edit')).toEqual({ name: USER_MESSAGES.nameTooLong });
    expect(validateUserForm({ ...valid, name: 'x'.repeat(USER_FIELD_LIMITS.name) }, 'edit')).toEqual({});
  });

  it.each(['lia', 'lia@example', 'lia souza@example.com', `${'a'.repeat(250)}@example.com`])('"%s" is not a valid email', (email) => {
    expect(validateUserForm({ ...valid, email }, 'create')).toEqual({ email: USER_MESSAGES.emailInvalid });
  });

  it('at least one role is required; several are fine', () => {
    expect(validateUserForm({ ...valid, roleIds: [] }, 'create')).toEqual({ roles: USER_MESSAGES.rolesRequired });
    expect(validateUserForm({ ...valid, roleIds: ['role-billing', 'role-technical'] }, 'edit')).toEqual({});
  });

  it('a short password is refused when creating and ignored when editing', () => {
    expect(validateUserForm({ ...valid, password: 'seven c' }, 'create')).toEqual({ password: USER_MESSAGES.passwordTooShort });
    expect(validateUserForm({ ...valid, password: 'seven c' }, 'edit')).toEqual({});
  });
});

describe('sanitiseMfaCode', () => {
  it.each([
    ['123456', '123456'],
    ['12 34 56', '123456'],
    ['12a3-4b', '1234'],
    ['1234567890', '123456'],
    ['abc', ''],
  ])('keeps of "%s" the digits "%s", at most six', (typed, kept) => {
    expect(sanitiseMfaCode(typed)).toBe(kept);
  });
});

describe('isCompleteMfaCode', () => {
  it('is true at exactly six digits only', () => {
    expect(isCompleteMfaCode('123456')).toBe(true);
    for (const code of ['', '12345', '1234567', '12345a', ' 123456']) expect(isCompleteMfaCode(code)).toBe(false);
  });
});

describe('isMfaCodeOrBackupCode', () => {
  it.each(['123456', ' 123456 ', 'ABCD-EFGH', 'abcdefgh', 'AB2C-DE3F'])('accepts "%s"', (code) => {
    expect(isMfaCodeOrBackupCode(code)).toBe(true);
  });

  it.each(['', '12345', '1234567', 'ABCD-EFG', 'ABCD--EFGH', 'AB1C-DE0F', 'ABCD EFGH'])('refuses "%s"', (code) => {
    expect(isMfaCodeOrBackupCode(code)).toBe(false);
  });
});
