import { describe, expect, it } from 'vitest';
import { accountId, greetingName, lastLoginLabel } from '../../src/domain/dashboard';

describe('dashboard display rules', () => {
  it('greets by name, falling back to "Enterprise Admin"', () => {
    expect(greetingName({ name: 'Ana Lima' })).toBe('Ana Lima');
    expect(greetingName({ name: '  ' })).toBe('Enterprise Admin');
    expect(greetingName(null)).toBe('Enterprise Admin');
  });

  it('shows ACC- plus the first 8 characters of the uuid in upper case, else ACC-DEMO123', () => {
    expect(accountId({ uuid: '3f0c2a9e-1111-4222-8333-944455556666' })).toBe('ACC-3F0C2A9E');
    expect(accountId(undefined)).toBe('ACC-DEMO123');
  });

  it('takes last login from updatedAt, falling back to "Just now"', () => {
    expect(lastLoginLabel({ updatedAt: '2026-11-20T10:00:00.000Z' }, (iso) => `at ${iso}`)).toBe('at 2026-11-20T10:00:00.000Z');
    expect(lastLoginLabel({ updatedAt: 'not a date' })).toBe('Just now');
    expect(lastLoginLabel(null)).toBe('Just now');
  });
});
