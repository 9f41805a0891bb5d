import { describe, expect, it } from 'vitest';
import { pickLoginError, safeRedirectTarget } from '../../src/domain/login';
import { INVALID_CREDENTIALS_MESSAGE } from '../../src/domain/auth';

describe('pickLoginError', () => {
  it('prefers the admin message, then the customer message, then the generic one', () => {
    expect(pickLoginError('Admin says', 'Customer says')).toBe('Admin says');
    expect(pickLoginError(null, 'Customer says')).toBe('Customer says');
    expect(pickLoginError('   ', undefined)).toBe(INVALID_CREDENTIALS_MESSAGE);
    expect(pickLoginError(undefined, '')).toBe(INVALID_CREDENTIALS_MESSAGE);
  });
});

describe('safeRedirectTarget', () => {
  it.each([
    ['/customers', '/customers'],
    ['/customer/terminals/abc?month=2025-3#usage', '/customer/terminals/abc?month=2025-3#usage'],
    ['/users/../settings', '/settings'],
  ])('accepts the same-origin path %s', (input, expected) => {
    expect(safeRedirectTarget(input)).toBe(expected);
  });

  it.each([
    'https://evil.example/home',
    '//evil.example/home',
    '/\\evil.example',
    'javascript:alert(1)',
    'customers',
    '',
    '/login',
    '/login?redirect=/x',
    '/ho\u0000me',
    42,
    null,
    undefined,
  ])('refuses %j', (input) => {
    expect(safeRedirectTarget(input)).toBeNull();
  });
});
