import { describe, expect, it } from 'vitest';
import { isMfaRequiredOutcome } from '../../src/api/auth';
import { UNEXPECTED_RESPONSE } from '../../src/api/client';
import { apiAnswering, envelope } from '../fixtures/api-fetch';

const adminWire = { uuid: 'u-1', email: 'admin@example.com', name: 'Ada Admin', role: 'admin', is_active: true, mfa_enabled: true };
const customerWire = { uuid: 'c-1', email: 'ops@northwind.example', name: 'Nina Park', company: 'Northwind', is_active: true };

describe('auth api: the code step', () => {
  it('answers an MFA challenge from the admin login as mfaRequired, without a token', async () => {
    const { api, sent } = apiAnswering(200, envelope({ mfaRequired: true, challenge: 'ch-1' }, 'Multi-factor authentication code required'));
    const outcome = await api.auth.loginAdmin({ email: 'admin@example.com', password: 'pw' });
    expect(outcome).toEqual({ ok: true, mfaRequired: true, challenge: 'ch-1' });
    expect(isMfaRequiredOutcome(outcome)).toBe(true);
    expect(sent()).toMatchObject({ method: 'POST', path: '/api/v1/auth/login' });
  });

  it('takes an MFA answer without a challenge as unexpected', async () => {
    const { api } = apiAnswering(200, envelope({ mfaRequired: true }));
    expect(await api.auth.loginAdmin({ email: 'a@b.example', password: 'pw' })).toEqual({ ok: false, status: 200, message: UNEXPECTED_RESPONSE });
  });

  it('still signs an admin without MFA straight in', async () => {
    const { api } = apiAnswering(200, envelope({ user: adminWire, token: 'jwt' }));
    const outcome = await api.auth.loginAdmin({ email: 'admin@example.com', password: 'pw' });
    expect(isMfaRequiredOutcome(outcome)).toBe(false);
    expect(outcome).toMatchObject({ ok: true, token: 'jwt', userType: 'admin', profile: { uuid: 'u-1', mfaEnabled: true } });
  });

  it('sends the challenge and code to POST /auth/login/mfa without a bearer and signs in with the answer', async () => {
    const { api, sent, fetch } = apiAnswering(200, envelope({ user: adminWire, token: 'jwt-2' }));
    const outcome = await api.auth.loginMfa('admin', { challenge: 'ch-1', code: '123456' });
    expect(sent()).toMatchObject({ method: 'POST', path: '/api/v1/auth/login/mfa', body: { challenge: 'ch-1', code: '123456' } });
    expect(new Headers(fetch.mock.calls[0]![1]?.headers).get('authorization')).toBeNull();
    expect(outcome).toMatchObject({ ok: true, token: 'jwt-2', userType: 'admin', profile: { email: 'admin@example.com' } });
  });

  it('answers a wrong code as a refusal with the server message', async () => {
    const { api } = apiAnswering(401, { success: false, message: 'Invalid verification code. Please try again.' });
    expect(await api.auth.loginMfa('admin', { challenge: 'ch-1', code: '000000' })).toEqual({
      ok: false,
      status: 401,
      message: 'Invalid verification code. Please try again.',
    });
  });
});

describe('auth api: the customer code step', () => {
  it('answers an MFA challenge from the customer login as mfaRequired', async () => {
    const { api, sent } = apiAnswering(200, envelope({ mfaRequired: true, challenge: 'ch-c' }));
    expect(await api.auth.loginCustomer({ email: 'ops@northwind.example', password: 'pw' })).toEqual({ ok: true, mfaRequired: true, challenge: 'ch-c' });
    expect(sent()).toMatchObject({ method: 'POST', path: '/api/v1/customers/auth/login' });
  });

  it('sends a customer challenge to POST /customers/auth/login/mfa and signs the customer in', async () => {
    const { api, sent, fetch } = apiAnswering(200, envelope({ customer: customerWire, token: 'jwt-c' }));
    const outcome = await api.auth.loginMfa('customer', { challenge: 'ch-c', code: 'ABCD-EFGH' });
    expect(sent()).toMatchObject({ method: 'POST', path: '/api/v1/customers/auth/login/mfa', body: { challenge: 'ch-c', code: 'ABCD-EFGH' } });
    expect(new Headers(fetch.mock.calls[0]![1]?.headers).get('authorization')).toBeNull();
    expect(outcome).toMatchObject({ ok: true, token: 'jwt-c', userType: 'customer', profile: { uuid: 'c-1', company: 'Northwind' } });
  });
});

describe('auth api: forgot password', () => {
  it('posts the address to /auth/forgot-password without a bearer and reads the 202 as done', async () => {
    const { api, sent, fetch } = apiAnswering(202, envelope({}, 'If an account exists for that address…'));
    expect(await api.auth.forgotPassword({ email: 'ana@example.com' })).toMatchObject({ ok: true, status: 202 });
    expect(sent()).toMatchObject({ method: 'POST', path: '/api/v1/auth/forgot-password', body: { email: 'ana@example.com' } });
    expect(new Headers(fetch.mock.calls[0]![1]?.headers).get('authorization')).toBeNull();
  });

  it('answers a 429 as a refusal with the server message', async () => {
    const { api } = apiAnswering(429, { success: false, message: 'Too many password reset requests from this address. Try again in 15 minutes.' });
    expect(await api.auth.forgotPassword({ email: 'ana@example.com' })).toMatchObject({ ok: false, status: 429, message: expect.stringMatching(/^Too many/) });
  });
});

describe('mfa api: the account kind picks the routes', () => {
  it('sends a customer set-up, verify and disable to /customers/mfa and a portal user\'s to /auth/mfa', async () => {
    const customer = apiAnswering(200, envelope({ backupCodes: ['AAAA-BBBB'] }));
    expect(await customer.api.mfa.for('customer').verify('123456')).toMatchObject({ ok: true, data: { backupCodes: ['AAAA-BBBB'] } });
    expect(customer.sent()).toMatchObject({ method: 'POST', path: '/api/v1/customers/mfa/verify', body: { code: '123456' } });
    const admin = apiAnswering(200, envelope({ mfaEnabled: false }));
    await admin.api.mfa.for('admin').disable({ password: 'pw' });
    expect(admin.sent()).toMatchObject({ method: 'POST', path: '/api/v1/auth/mfa/disable' });
    const legacy = apiAnswering(200, envelope({ mfaEnabled: false }));
    await legacy.api.mfa.disable({ password: 'pw' });
    expect(legacy.sent()).toMatchObject({ path: '/api/v1/auth/mfa/disable' });
  });
});

describe('auth api: own profile and password', () => {
  it('updates an admin profile with PUT /users/profile and a customer one with PUT /customers/profile', async () => {
    const admin = apiAnswering(200, envelope({ user: { ...adminWire, name: 'Ada L.' } }));
    expect(await admin.api.auth.updateProfile('admin', { name: 'Ada L.' })).toMatchObject({ ok: true, data: { name: 'Ada L.' } });
    expect(admin.sent()).toMatchObject({ method: 'PUT', path: '/api/v1/users/profile', body: { name: 'Ada L.' } });

    const customer = apiAnswering(200, envelope({ customer: { ...customerWire, phone: '+351 1' } }));
    expect(await customer.api.auth.updateProfile('customer', { name: 'Nina Park', phone: '+351 1' })).toMatchObject({ ok: true, data: { phone: '+351 1', company: 'Northwind' } });
    expect(customer.sent()).toMatchObject({ method: 'PUT', path: '/api/v1/customers/profile', body: { name: 'Nina Park', phone: '+351 1' } });
  });

  it('changes a password on the account type path and answers the profile and the fresh token', async () => {
    const payload = { currentPassword: 'old-password', newPassword: 'new-password' };
    const admin = apiAnswering(200, envelope({ user: adminWire, token: 'fresh' }, 'Password changed successfully'));
    expect(await admin.api.auth.changePassword('admin', payload)).toMatchObject({ ok: true, data: { token: 'fresh', profile: { uuid: 'u-1' } } });
    expect(admin.sent()).toMatchObject({ method: 'PUT', path: '/api/v1/users/change-password', body: payload });

    const customer = apiAnswering(200, envelope({ customer: customerWire }));
    expect(await customer.api.auth.changePassword('customer', payload)).toMatchObject({ ok: true, data: { token: null, profile: { uuid: 'c-1' } } });
    expect(customer.sent().path).toBe('/api/v1/customers/change-password');
  });

  it('answers a wrong current password as a refusal', async () => {
    const { api } = apiAnswering(400, { success: false, message: 'Current password is incorrect' });
    expect(await api.auth.changePassword('admin', { currentPassword: 'x', newPassword: 'new-password' })).toEqual({
      ok: false,
      status: 400,
      message: 'Current password is incorrect',
    });
  });
});
