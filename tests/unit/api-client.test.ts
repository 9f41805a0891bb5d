import { describe, expect, it, vi } from 'vitest';
import { createApi, NetworkError } from '../../src/api';
import { normaliseAdminUser, normaliseCustomerProfile } from '../../src/api/normalise';

function fakeFetch(status: number, body: unknown) {
  return vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' },
    }),
  );
}

function apiWith(fetch: typeof globalThis.fetch, token: string | null = 'tok') {
  const onUnauthorized = vi.fn();
  const api = createApi({ baseURL: 'http://portal.test/api/v1', fetch, getToken: () => token, onUnauthorized });
  return { api, onUnauthorized };
}

describe('api client', () => {
  it('sends the session token as a bearer header and reads a success envelope', async () => {
    const fetch = fakeFetch(200, { success: true, data: { totalCustomers: 3 }, message: 'ok' });
    const { api } = apiWith(fetch as never);
    const result = await api.client.request('/dashboard/summary');
    expect(result).toEqual({ ok: true, status: 200, data: { totalCustomers: 3 }, message: 'ok' });
    const [, init] = fetch.mock.calls[0]!;
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer tok');
  });

  it('treats success:false as a failure even with a 200', async () => {
    const { api } = apiWith(fakeFetch(200, { success: false, message: 'Nope' }) as never);
    expect(await api.client.request('/x')).toEqual({ ok: false, status: 200, message: 'Nope' });
  });

  it('returns error bodies as data with the server message and field errors', async () => {
    const errors = [{ path: 'email', message: 'Required' }];
    const { api } = apiWith(fakeFetch(400, { success: false, message: 'Invalid body', errors }) as never);
    expect(await api.client.request('/x', { method: 'POST', body: {} })).toEqual({ ok: false, status: 400, message: 'Invalid body', errors });
  });

  it('gives a status message when the body is not an envelope', async () => {
    const { api } = apiWith(fakeFetch(502, 'Bad gateway') as never);
    expect(await api.client.request('/x')).toMatchObject({ ok: false, status: 502, message: 'Request failed with status 502' });
  });

  it('funnels a 401 on an authenticated request to the session once', async () => {
    const { api, onUnauthorized } = apiWith(fakeFetch(401, { success: false, message: 'Invalid or expired token' }) as never);
    await api.client.request('/auth/me');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not treat a refused sign-in (no token sent) as a lost session', async () => {
    const { api, onUnauthorized } = apiWith(fakeFetch(401, { success: false, message: 'Invalid email or password' }) as never);
    const outcome = await api.auth.loginAdmin({ email: 'a@b.c', password: 'x' });
    expect(outcome).toEqual({ ok: false, status: 401, message: 'Invalid email or password' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('rethrows network failures as NetworkError', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    const { api } = apiWith(fetch as never);
    await expect(api.client.request('/x')).rejects.toBeInstanceOf(NetworkError);
  });

  it('normalises a customer login answer into a camelCase profile with dates defaulted', async () => {
    const { api } = apiWith(
      fakeFetch(200, {
        success: true,
        message: 'Login successful',
        data: { token: 'ct', customer: { uuid: 'c-1', email: 'c@x.io', name: 'C', company: 'X', is_active: true } },
      }) as never,
      null,
    );
    const outcome = await api.auth.loginCustomer({ email: 'c@x.io', password: 'pw' });
    if (!outcome.ok || 'mfaRequired' in outcome) throw new Error(`expected a signed-in outcome: ${JSON.stringify(outcome)}`);
    expect(outcome.userType).toBe('customer');
    expect(outcome.profile).toMatchObject({ uuid: 'c-1', company: 'X', isActive: true });
    expect(Date.parse(outcome.profile.createdAt)).not.toBeNaN();
  });
});

describe('normalisers', () => {
  it('accept snake_case and camelCase and reject records without uuid or email', () => {
    expect(normaliseAdminUser({ uuid: 'u', email: 'e@x', role: 'admin', mfa_enabled: true })).toMatchObject({ role: 'admin', mfaEnabled: true });
    expect(normaliseAdminUser({ uuid: 'u', email: 'e@x', role: 'root' })?.role).toBe('user');
    expect(normaliseAdminUser({ email: 'e@x' })).toBeNull();
    // The session profile's roles and permissions: unknown permissions dropped, manage implying read.
    expect(
      normaliseAdminUser({ uuid: 'u', email: 'e@x', roles: [{ id: 'r', key: 'billing', name: 'Billing' }], permissions: ['billing:manage', 'root:all'] }),
    ).toMatchObject({ roles: [{ id: 'r', key: 'billing', name: 'Billing' }], permissions: ['billing:read', 'billing:manage'] });
    expect(normaliseAdminUser({ uuid: 'u', email: 'e@x' })).toMatchObject({ roles: [], permissions: [] });
    expect(normaliseCustomerProfile('nope')).toBeNull();
    expect(normaliseCustomerProfile({ uuid: 'c', email: 'e@x', createdAt: '2020-01-01' }, () => 'NOW')).toMatchObject({
      company: '',
      createdAt: '2020-01-01',
      updatedAt: 'NOW',
    });
  });
});

describe('aborted requests', () => {
  // Regression: under StrictMode the dashboard showed "An unexpected error occurred" because the
  // AbortError of the first (stopped) mount reached the revived actor.
  it('never settle, so no actor hears an AbortError', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      return new Response('{}');
    });
    const { api } = apiWith(fetch as never);
    const controller = new AbortController();
    const outcome = Promise.race([
      api.client.request('/x', { signal: controller.signal }).then(
        () => 'resolved',
        () => 'rejected',
      ),
      new Promise((resolve) => setTimeout(() => resolve('still pending'), 50)),
    ]);
    controller.abort();
    expect(await outcome).toBe('still pending');
  });
});
