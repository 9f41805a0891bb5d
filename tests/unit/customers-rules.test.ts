import { describe, expect, it, vi } from 'vitest';
import {
  CUSTOMER_MESSAGES,
  customerDisplayName,
  customerStatus,
  daysUntilExpiry,
  expiryState,
  validateCreateCustomer,
} from '../../src/domain/customers';
import { newPasswordProblem, PASSWORD_MESSAGES } from '../../src/domain/password';
import { createApi } from '../../src/api';
import {
  customerListSearchParams,
  normaliseCustomer,
  normaliseCustomerUpdate,
  normaliseLineEnding,
  normalisePagination,
  normaliseStats,
} from '../../src/api/customers';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;
const inDays = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();

describe('customer status (spec section 4)', () => {
  it('is Blocked when blocked, whatever else; else Active when active; else Pending', () => {
    expect(customerStatus({ blockedEnabled: true, isActive: true })).toBe('Blocked');
    expect(customerStatus({ blockedEnabled: true, isActive: false })).toBe('Blocked');
    expect(customerStatus({ blockedEnabled: false, isActive: true })).toBe('Active');
    expect(customerStatus({ blockedEnabled: false, isActive: false })).toBe('Pending');
  });
});

describe('account expiry (spec sections 4 and 9)', () => {
  it('no date (or an unreadable one) is "none": the page says "No expiration set"', () => {
    expect(expiryState(null, NOW)).toBe('none');
    expect(expiryState(undefined, NOW)).toBe('none');
    expect(expiryState('', NOW)).toBe('none');
    expect(expiryState('not a date', NOW)).toBe('none');
    expect(daysUntilExpiry(null, NOW)).toBeNull();
  });

  it('0 days left (the moment itself) and any time past is expired', () => {
    expect(expiryState(inDays(0), NOW)).toBe('expired');
    expect(expiryState(inDays(-1), NOW)).toBe('expired');
    expect(expiryState(new Date(NOW.getTime() - 1).toISOString(), NOW)).toBe('expired');
  });

  it('1 to 30 days left is expiring soon; 31 is normal', () => {
    expect(expiryState(new Date(NOW.getTime() + 1).toISOString(), NOW)).toBe('expiringSoon');
    expect(expiryState(inDays(1), NOW)).toBe('expiringSoon');
    expect(daysUntilExpiry(inDays(1), NOW)).toBe(1);
    expect(expiryState(inDays(30), NOW)).toBe('expiringSoon');
    expect(daysUntilExpiry(inDays(30), NOW)).toBe(30);
    expect(expiryState(inDays(31), NOW)).toBe('normal');
    expect(expiryState(inDays(365), NOW)).toBe('normal');
  });

  it('days left round up: a part day counts as a day', () => {
    expect(daysUntilExpiry(new Date(NOW.getTime() + 1.5 * DAY).toISOString(), NOW)).toBe(2);
    expect(daysUntilExpiry(inDays(-2), NOW)).toBe(-2);
  });
});

describe('create-customer validation (spec section 5)', () => {
  const valid = { company: 'Northwind Shipping', name: 'Nina Park', email: 'ops@northwind.example', expirationDays: 365 };

  it('a complete form has no errors', () => {
    expect(validateCreateCustomer(valid)).toEqual({});
  });

  it('each required field has its own message, blanks count as empty', () => {
    expect(validateCreateCustomer({ ...valid, company: '  ' })).toEqual({ company: CUSTOMER_MESSAGES.companyRequired });
    expect(validateCreateCustomer({ ...valid, name: '' })).toEqual({ name: CUSTOMER_MESSAGES.nameRequired });
    expect(validateCreateCustomer({ ...valid, email: ' ' })).toEqual({ email: CUSTOMER_MESSAGES.emailRequired });
    expect(CUSTOMER_MESSAGES.companyRequired).toBe('Company name is required');
    expect(CUSTOMER_MESSAGES.nameRequired).toBe('Admin representative name is required');
    expect(CUSTOMER_MESSAGES.emailRequired).toBe('Admin email address is required');
  });

  it('an email must look like an address', () => {
    for (const email of ['ops', 'ops@northwind', 'ops @northwind.example', '@northwind.example']) {
      expect(validateCreateCustomer({ ...valid, email }).email).toBe('Please enter a valid email address');
    }
    expect(validateCreateCustomer({ ...valid, email: ' ops@northwind.example ' })).toEqual({});
  });

  it('expiration days are whole days from 1 to 3650', () => {
    const message = 'Account expiration must be between 1 and 3650 days';
    expect(validateCreateCustomer({ ...valid, expirationDays: 0 }).expirationDays).toBe(message);
    expect(validateCreateCustomer({ ...valid, expirationDays: 3651 }).expirationDays).toBe(message);
    expect(validateCreateCustomer({ ...valid, expirationDays: 1.5 }).expirationDays).toBe(message);
    expect(validateCreateCustomer({ ...valid, expirationDays: 1 })).toEqual({});
    expect(validateCreateCustomer({ ...valid, expirationDays: 3650 })).toEqual({});
  });

  it('over-long names are refused with the length message', () => {
    expect(validateCreateCustomer({ ...valid, company: 'c'.repeat(161) }).company).toBe('Company name must be at most 160 characters');
    expect(validateCreateCustomer({ ...valid, name: 'n'.repeat(121) }).name).toBe('Name must be at most 120 characters');
  });

  it('the success and failure texts read as the spec says', () => {
    expect(CUSTOMER_MESSAGES.created('ops@northwind.example')).toBe('Customer created successfully! Password setup link sent to ops@northwind.example');
    expect(CUSTOMER_MESSAGES.createdDescription('Nina Park', 'Northwind Shipping')).toBe('Nina Park from Northwind Shipping has been added.');
    expect(CUSTOMER_MESSAGES.createFailed('Nope')).toBe('Failed to create customer: Nope');
    expect(CUSTOMER_MESSAGES.fetchFailed('Nope')).toBe('Failed to fetch customers: Nope');
  });

  it('a customer without a name shows "Customer" and the last 8 characters of the uuid', () => {
    expect(customerDisplayName({ name: '  ', uuid: '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f' })).toBe('Customer 4c5d6e7f');
    expect(customerDisplayName({ name: 'Nina Park', uuid: 'x' })).toBe('Nina Park');
  });
});

describe('new password rules (spec section 5)', () => {
  it('all fields are required, then they must match, then be at least 8 characters', () => {
    expect(newPasswordProblem('', '')).toBe(PASSWORD_MESSAGES.allRequired);
    expect(newPasswordProblem('abcdefgh', '')).toBe('Please fill in all password fields');
    expect(newPasswordProblem('abcdefgh', 'abcdefgi')).toBe('New passwords do not match');
    expect(newPasswordProblem('abcdefg', 'abcdefg')).toBe('Password must be at least 8 characters long');
    expect(newPasswordProblem('abcdefgh', 'abcdefgh')).toBeNull();
  });

  it('an absurdly long password is refused', () => {
    const long = 'x'.repeat(1025);
    expect(newPasswordProblem(long, long)).toBe(PASSWORD_MESSAGES.tooLong);
  });

  it('every field the form shows counts for "all required"', () => {
    expect(newPasswordProblem('abcdefgh', 'abcdefgh', ['', 'abcdefgh', 'abcdefgh'])).toBe(PASSWORD_MESSAGES.allRequired);
  });
});

describe('customers API: what goes out and how answers are read', () => {
  it('sends is_active for active and inactive, and status for every filter but all (spec section 5)', () => {
    expect(customerListSearchParams({ page: 2, limit: 10, search: ' acme ', status: 'active' })).toEqual({
      page: 2,
      limit: 10,
      search: 'acme',
      is_active: true,
      status: 'active',
    });
    expect(customerListSearchParams({ status: 'inactive' })).toMatchObject({ is_active: false, status: 'inactive', page: 1, limit: 10 });
    expect(customerListSearchParams({ status: 'expiring_soon', search: '  ' })).toMatchObject({
      is_active: undefined,
      status: 'expiring_soon',
      search: undefined,
    });
    expect(customerListSearchParams({ status: 'all' })).toMatchObject({ is_active: undefined, status: undefined });
  });

  it('reads a snake_case customer into the camelCase shape, company defaulting to empty', () => {
    const now = () => '2026-11-20T12:00:00.000Z';
    expect(
      normaliseCustomer(
        {
          uuid: 'u-1',
          email: 'a@b.example',
          name: 'A',
          is_active: true,
          blocked_enabled: true,
          blocked_reason: 'Fraud',
          blocked_at: '2026-11-01T00:00:00.000Z',
          mfa_enabled: true,
          account_expires_at: '2027-01-01T00:00:00.000Z',
          last_login: null,
          has_password: true,
        },
        now,
      ),
    ).toEqual({
      uuid: 'u-1',
      email: 'a@b.example',
      name: 'A',
      company: '',
      phone: null,
      address: null,
      isActive: true,
      blockedEnabled: true,
      blockedReason: 'Fraud',
      blockedAt: '2026-11-01T00:00:00.000Z',
      mfaEnabled: true,
      accountExpiresAt: '2027-01-01T00:00:00.000Z',
      lastLogin: null,
      createdAt: now(),
      updatedAt: now(),
      hasPassword: true,
    });
    expect(normaliseCustomer({ name: 'no uuid', email: 'a@b.example' })).toBeNull();
    expect(normaliseCustomer('nope')).toBeNull();
  });

  it('derives missing paging figures and zero stats', () => {
    expect(normalisePagination({ total: 23 }, 10, { page: 3, limit: 10 })).toEqual({ total: 23, page: 3, limit: 10, pages: 3 });
    expect(normalisePagination(undefined, 4)).toEqual({ total: 4, page: 1, limit: 10, pages: 1 });
    expect(normaliseStats({ total: 5, mfa_enabled: 2, expiringSoon: 1 })).toEqual({
      total: 5,
      active: 0,
      pending: 0,
      mfaEnabled: 2,
      blocked: 0,
      expiringSoon: 1,
      expired: 0,
    });
  });

  it('the list skips rows it cannot read, and the password-setup calls carry no bearer token', async () => {
    const fetch = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
      const url = new URL(String(input));
      const body = url.pathname.endsWith('/customers')
        ? { success: true, message: 'ok', data: { customers: [{ uuid: 'u', email: 'a@b.example' }, { broken: true }], pagination: { total: 1, page: 1, limit: 10, pages: 1 } } }
        : { success: false, message: 'This password setup link has expired.' };
      return new Response(JSON.stringify(body), { status: url.pathname.endsWith('/customers') ? 200 : 410, headers: { 'content-type': 'application/json' } });
    });
    const onUnauthorized = vi.fn();
    const api = createApi({ baseURL: 'http://portal.test/api/v1', fetch: fetch as never, getToken: () => 'admin-token', onUnauthorized });

    const list = await api.customers.list({ page: 1, limit: 10, status: 'blocked' });
    expect(list.ok && list.data.customers.map((c) => c.uuid)).toEqual(['u']);
    const listUrl = new URL(String(fetch.mock.calls[0]![0]));
    expect(Object.fromEntries(listUrl.searchParams)).toEqual({ page: '1', limit: '10', status: 'blocked' });
    expect(new Headers(fetch.mock.calls[0]![1]?.headers).get('authorization')).toBe('Bearer admin-token');

    const check = await api.passwordSetup.check('tok/with space');
    expect(check).toEqual({ ok: false, status: 410, message: 'This password setup link has expired.' });
    expect(new URL(String(fetch.mock.calls[1]![0])).pathname).toBe('/api/v1/password-setup/tok%2Fwith%20space');
    expect(new Headers(fetch.mock.calls[1]![1]?.headers).get('authorization')).toBeNull();
  });
});

describe('customers API: blocking and ending their lines', () => {
  const wire = { uuid: 'u-1', email: 'a@b.example', name: 'A', blockedEnabled: true, blockedReason: 'Fraud' };

  it('sends the flag only when asked, and reads the customer and what became of each line', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(
        JSON.stringify({
          success: true,
          message: 'Customer updated',
          data: {
            customer: wire,
            lineEndings: [
              { serviceLineNumber: 'AST-1', outcome: 'scheduled' },
              { serviceLineNumber: 'AST-2', outcome: 'already_ending' },
              { serviceLineNumber: 'AST-3', outcome: 'failed', message: 'Service line AST-3 is not active' },
            ],
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      ),
    );
    const api = createApi({ baseURL: 'http://portal.test/api/v1', fetch: fetch as never, getToken: () => 'admin-token', onUnauthorized: vi.fn() });

    const result = await api.customers.block('u/1', { reason: 'Fraud', endLines: true });
    expect(result.ok && result.data.customer).toMatchObject({ uuid: 'u-1', blockedEnabled: true, blockedReason: 'Fraud' });
    expect(result.ok && result.data.lineEndings).toEqual([
      { serviceLineNumber: 'AST-1', outcome: 'scheduled' },
      { serviceLineNumber: 'AST-2', outcome: 'already_ending' },
      { serviceLineNumber: 'AST-3', outcome: 'failed', message: 'Service line AST-3 is not active' },
    ]);
    const [url, init] = fetch.mock.calls[0]!;
    expect(new URL(String(url)).pathname).toBe('/api/v1/customers/u%2F1');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({ blocked_enabled: true, blocked_reason: 'Fraud', end_lines_at_cycle_end: true });

    await api.customers.block('u-1', { reason: 'Fraud' });
    await api.customers.block('u-1', { reason: 'Fraud', endLines: false });
    for (const call of fetch.mock.calls.slice(1)) expect(JSON.parse(String(call[1]?.body))).toEqual({ blocked_enabled: true, blocked_reason: 'Fraud' });
  });

  it('a refusal passes through; an answer without a readable customer is unexpected', async () => {
    const answers = [
      { status: 403, body: { success: false, message: 'Only portal users with the admin role can do this.' } },
      { status: 200, body: { success: true, message: 'ok', data: { lineEndings: [] } } },
    ];
    const fetch = vi.fn(async () => {
      const { status, body } = answers.shift()!;
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    });
    const api = createApi({ baseURL: 'http://portal.test/api/v1', fetch: fetch as never, getToken: () => 'admin-token', onUnauthorized: vi.fn() });
    expect(await api.customers.block('u-1', { reason: 'Fraud', endLines: true })).toEqual({
      ok: false,
      status: 403,
      message: 'Only portal users with the admin role can do this.',
    });
    const unreadable = await api.customers.block('u-1', { reason: 'Fraud', endLines: true });
    expect(unreadable.ok).toBe(false);
    expect(unreadable.ok ? null : unreadable.status).toBe(200);
  });

  it('reads snake_case endings, no endings as none, skips one without a line, and reads an unknown outcome as failed', () => {
    expect(normaliseCustomerUpdate({ customer: wire })?.lineEndings).toEqual([]);
    expect(normaliseCustomerUpdate({ customer: wire, lineEndings: 'nope' })?.lineEndings).toEqual([]);
    // An older server answers the customer itself.
    expect(normaliseCustomerUpdate(wire)).toMatchObject({ customer: { uuid: 'u-1' }, lineEndings: [] });
    expect(
      normaliseCustomerUpdate({
        customer: wire,
        line_endings: [
          { service_line_number: 'AST-1', outcome: 'scheduled' },
          { outcome: 'scheduled' },
          'AST-2',
          { serviceLineNumber: 'AST-3', outcome: 'postponed', message: 'Provider said later' },
          { serviceLineNumber: 'AST-4', outcome: 'failed', message: 42 },
        ],
      })?.lineEndings,
    ).toEqual([
      { serviceLineNumber: 'AST-1', outcome: 'scheduled' },
      { serviceLineNumber: 'AST-3', outcome: 'failed', message: 'Provider said later' },
      { serviceLineNumber: 'AST-4', outcome: 'failed' },
    ]);
    expect(normaliseCustomerUpdate({ customer: { name: 'no uuid' }, lineEndings: [] })).toBeNull();
    expect(normaliseLineEnding(null)).toBeNull();
  });
});
