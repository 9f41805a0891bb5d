// The two pure steps of an audit entry on its way to a reader: secrets out, changed fields marked.
import { describe, expect, it } from 'vitest';
import { auditDiff, auditValueText, changedFields, isAuditDay, isSecretKey, REDACTED, redactAuditValue } from '../../src/domain/audit';

describe('auditDiff', () => {
  it('marks the fields whose values differ and keeps the ones that did not change', () => {
    expect(auditDiff({ email: 'a@x.io', name: 'Old', company: 'Acme' }, { email: 'a@x.io', name: 'New', company: 'Acme' })).toEqual([
      { field: 'email', before: 'a@x.io', after: 'a@x.io', changed: false },
      { field: 'name', before: 'Old', after: 'New', changed: true },
      { field: 'company', before: 'Acme', after: 'Acme', changed: false },
    ]);
  });

  it('counts a field on one side only as changed, in the order the fields first appear', () => {
    expect(auditDiff({ a: 1 }, { b: 2, a: 1 })).toEqual([
      { field: 'a', before: 1, after: 1, changed: false },
      { field: 'b', after: 2, changed: true },
    ]);
    expect(auditDiff(null, { status: 'cancelled' })).toEqual([{ field: 'status', after: 'cancelled', changed: true }]);
    expect(auditDiff({ status: 'pending' }, undefined)).toEqual([{ field: 'status', before: 'pending', changed: true }]);
  });

  it('compares nested objects and arrays by value, not by reference', () => {
    expect(changedFields({ levels: [80, 90], range: { from: 1 } }, { levels: [80, 90], range: { from: 1 } })).toEqual([]);
    expect(changedFields({ levels: [80, 90] }, { levels: [80, 95] })).toEqual(['levels']);
    expect(changedFields({ range: { from: 1 } }, { range: { from: 1, to: 2 } })).toEqual(['range']);
    expect(changedFields({ v: null }, { v: 0 })).toEqual(['v']);
  });

  it('treats a bare value as one field named value', () => {
    expect(auditDiff('old', 'new')).toEqual([{ field: 'value', before: 'old', after: 'new', changed: true }]);
    expect(auditDiff(null, null)).toEqual([]);
  });
});

describe('redactAuditValue', () => {
  it('leaves out password hashes, MFA secrets, tokens and backup codes at any depth', () => {
    const redacted = redactAuditValue({
      email: 'a@x.io',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$abc$def',
      mfa_secret: 'JBSWY3DPEHPK3PXP',
      nested: { token: 'abc123', refreshToken: 'r', backupCodes: ['1111-2222'], apiKey: 'k', list: [{ password: 'p', kept: 1 }] },
    });
    expect(redacted).toEqual({ email: 'a@x.io', nested: { list: [{ kept: 1 }] } });
    expect(JSON.stringify(redacted)).not.toMatch(/argon2|JBSWY3|abc123|1111-2222|passwordHash|mfa_secret/);
  });

  it('hides a hash or a JWT whatever its key', () => {
    expect(redactAuditValue({ note: '$2b$10$abcdefghijklmnopqrstuv' })).toEqual({ note: REDACTED });
    expect(redactAuditValue(['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig'])).toEqual([REDACTED]);
  });

  it('keeps the times, hints, counts and flags about secrets, and everything else', () => {
    const shown = { passwordSetupExpiresAt: '2026-01-01T00:00:00.000Z', secretHint: '…a1b2', backupCodes: 10, hasPassword: true, proof: 'password', name: 'Ana', resetToken: null };
    expect(redactAuditValue(shown)).toEqual(shown);
    expect(isSecretKey('passwordHash')).toBe(true);
    expect(isSecretKey('password_setup_expires_at')).toBe(true);
    expect(isSecretKey('passwordSetupExpiresAt')).toBe(false);
    expect(isSecretKey('topUp')).toBe(false);
  });
});

describe('auditValueText and isAuditDay', () => {
  it('prints text as it is and anything else as JSON', () => {
    expect(auditValueText('Ana')).toBe('Ana');
    expect(auditValueText(3)).toBe('3');
    expect(auditValueText({ a: [1] })).toBe('{"a":[1]}');
    expect(auditValueText(null)).toBe('null');
    expect(auditValueText(undefined)).toBe('');
  });

  it('accepts only days that exist', () => {
    expect(isAuditDay('2026-02-28')).toBe(true);
    expect(isAuditDay('2024-02-29')).toBe(true);
    expect(isAuditDay('2026-02-30')).toBe(false);
    expect(isAuditDay('2026-2-1')).toBe(false);
    expect(isAuditDay('2026-02-01T00:00')).toBe(false);
  });
});
