// Reading the provider accounts' answers: an account the client cannot read is skipped, the
// provider's verdict on a connection test is data (200 either way), and a delete's empty answer,
// 200 or 204, is a success.
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { createActor, toPromise } from 'xstate';
import { createProviderAccountsApi, loadAccountRefs, normaliseAccountRefs, normaliseConnectionTest, normaliseProviderAccounts } from '../../src/api/provider-accounts';
import { refusedTest, simulatedAccount, starlinkAccount } from '../fixtures/provider-accounts';

function apiAnswering(status: number, body: unknown) {
  const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: body === undefined ? {} : { 'content-type': 'application/json' } }));
  const client = createApiClient({ getToken: () => 't', onUnauthorized: () => {}, fetch: fetch as unknown as typeof globalThis.fetch });
  return { fetch, client, api: createProviderAccountsApi(client) };
}

describe('provider accounts API', () => {
  it('keeps the accounts it can read and skips one without an id, a known kind or a known status', () => {
    expect(normaliseProviderAccounts([starlinkAccount, { ...starlinkAccount, id: 'x' }, { ...starlinkAccount, kind: 'pending' }, { ...starlinkAccount, status: 'odd' }, simulatedAccount])).toEqual([
      starlinkAccount,
      simulatedAccount,
    ]);
    expect(normaliseProviderAccounts({ accounts: [] })).toBeNull();
  });

  it("reads the provider's refusal of a connection test as data, in its words", async () => {
    const { api, fetch } = apiAnswering(200, { success: true, message: refusedTest.message, data: refusedTest });
    expect(await api.test(3)).toMatchObject({ ok: true, data: refusedTest });
    expect(fetch.mock.calls[0]![0]).toContain('/provider-accounts/3/test');
    expect(normaliseConnectionTest({ ok: false })).toBeNull();
  });

  it('a delete answered with an empty 204 or a 200 envelope is done; a 409 carries the reason', async () => {
    expect(await apiAnswering(204, undefined).api.remove(1)).toMatchObject({ ok: true, data: null });
    expect(await apiAnswering(200, { success: true, message: 'Provider account deleted', data: null }).api.remove(1)).toMatchObject({ ok: true, data: null });
    expect(await apiAnswering(409, { success: false, message: 'This account still holds 156 service lines: disable it instead.' }).api.remove(1)).toMatchObject({
      ok: false,
      status: 409,
      message: 'This account still holds 156 service lines: disable it instead.',
    });
  });

  it('reads the accounts\' references for a list\'s Account column and filter, skipping one without a whole id or a name', async () => {
    expect(normaliseAccountRefs([{ id: 1, name: 'Demo US' }, { id: 0, name: 'Zero' }, { id: 2, name: ' ' }, { id: 3 }, { id: 4, name: 'Demo Brasil' }])).toEqual([
      { id: 1, name: 'Demo US' },
      { id: 4, name: 'Demo Brasil' },
    ]);
    const { client, fetch } = apiAnswering(200, { success: true, message: 'ok', data: [{ id: 1, name: 'Demo US' }] });
    expect(await toPromise(createActor(loadAccountRefs(client)).start())).toEqual({ ok: true, data: [{ id: 1, name: 'Demo US' }] });
    expect(fetch.mock.calls[0]![0]).toContain('/provider-accounts/refs');
    const refused = apiAnswering(403, { success: false, message: 'Forbidden' });
    expect(await toPromise(createActor(loadAccountRefs(refused.client)).start())).toEqual({ ok: false, message: 'Forbidden' });
  });
});
