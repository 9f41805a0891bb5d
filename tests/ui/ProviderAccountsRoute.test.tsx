// The provider accounts page through the whole client (composition root, router, session, the
// account list, the provider accounts machine, the views) against a fake of the portal API at the
// fetch seam that keeps the accounts it was told about.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUser } from '../../src/domain/auth';
import type { ProviderAccountWire } from '../../src/domain/provider-accounts';
import { TABLE_REGION_LABEL } from '../../src/ui/primereact-a11y';
import { PROVIDER_ACCOUNT_TEXTS as T } from '../../src/ui/provider-accounts/parts';
import { profileWithRoles } from '../machines/fixtures';
import { AUTH_REFUSED, STILL_HOLDS, disabledAccount, providerAccountWire, refusedTest, simulatedAccount, simulatedChoices, starlinkAccount } from '../fixtures/provider-accounts';
import { enteredDialog } from './dialogs';
import { fill } from './fill';
import { openSignedInAt } from './open-app';

function fakePortalApi(profile: AdminUser) {
  const accounts: ProviderAccountWire[] = [starlinkAccount, simulatedAccount, disabledAccount];
  const bodies: Array<[string, unknown]> = [];
  let nextId = 10;
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, status = 200) => json(status, { success: true, message: 'ok', data });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (body !== undefined) bodies.push([call, body]);
    if (call === 'GET /api/v1/auth/me') return ok({ user: profile });
    if (call === 'GET /api/v1/provider-accounts') return ok(accounts);
    if (call === 'GET /api/v1/provider-accounts/simulated') return ok(simulatedChoices);
    if (call === 'POST /api/v1/provider-accounts') {
      const added = providerAccountWire({ ...body, id: nextId++, hasSecret: Boolean(body.clientSecret), accountNumber: null, currency: null, lineCount: 0, terminalCount: 0, lastSyncAt: null });
      accounts.push(added);
      return ok(added, 201);
    }
    if (call === `POST /api/v1/provider-accounts/${starlinkAccount.id}/test`) {
      // The provider refused: the account is now marked, and the list says so when it reloads.
      accounts[0] = { ...accounts[0]!, status: 'auth_failed', statusMessage: AUTH_REFUSED };
      return ok(refusedTest);
    }
    if (call === `DELETE /api/v1/provider-accounts/${starlinkAccount.id}`) return json(409, { success: false, message: STILL_HOLDS });
    return json(404, { success: false, message: `Route not found: ${call}` });
  });
  return { fetch, bodies, accounts };
}

const table = async () => within(await screen.findByRole('table', { name: T.tableLabel }, { timeout: 5000 }));
/** The row of the account called `name` (its name is the row's bold first cell). */
const rowOf = async (name: string) => within((await table()).getByText(name, { selector: 'strong' }).closest('tr')!);

describe('provider accounts page', () => {
  it('lists every account with its kind, numbers and status', async () => {
    const profile = profileWithRoles('technical');
    openSignedInAt('/customers/provider-accounts', fakePortalApi(profile).fetch, { profile });
    expect(await screen.findByRole('heading', { level: 1, name: 'Provider accounts' })).toBeTruthy();
    const us = await rowOf('United States (USD)');
    expect(us.getByText('Starlink')).toBeTruthy();
    expect(us.getByText('ACC-1000001')).toBeTruthy();
    expect(us.getByText('USD')).toBeTruthy();
    expect(us.getByText('156')).toBeTruthy();
    expect(us.getByText('160')).toBeTruthy();
    expect(us.getByText('Active')).toBeTruthy();
    const br = await rowOf('Brazil (BRL)');
    expect(br.getByText('Built-in simulator')).toBeTruthy();
    // The simulated account is named as the simulator names it, once its list is read.
    expect(await br.findByText('Brazil (BRL)', { selector: 'small' })).toBeTruthy();
    const old = await rowOf('Old entity');
    expect(old.getByText('Disabled')).toBeTruthy();
    expect(old.getByRole('button', { name: `${T.enable}: Old entity` })).toBeTruthy();
    expect(us.getByRole('button', { name: `${T.disable}: United States (USD)` })).toBeTruthy();
    // The table scrolls in the shared region a keyboard reaches.
    const region = screen.getByRole('region', { name: TABLE_REGION_LABEL });
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(within(region).getByRole('table', { name: T.tableLabel })).toBeTruthy();
  });

  it('an administrator adds a Starlink account; the request carries the form, the new row shows', async () => {
    const user = userEvent.setup();
    const profile = profileWithRoles('technical');
    const api = fakePortalApi(profile);
    openSignedInAt('/customers/provider-accounts', api.fetch, { profile });
    await table();
    await user.click(screen.getByRole('button', { name: T.addAccount }));
    const form = within(await enteredDialog(T.addTitle));
    await fill(user, await form.findByLabelText('Name'), 'Europe (EUR)');
    expect((form.getByLabelText(T.kindLabels.starlink) as HTMLInputElement).checked).toBe(true);
    await fill(user, form.getByLabelText('API URL'), 'http://api.example.com');
    await user.click(form.getByRole('button', { name: T.add }));
    // Checked here first: plain http is only for this machine, and the rest is required.
    expect(form.getByText('Enter an https:// URL (http:// only for localhost)')).toBeTruthy();
    expect(form.getByText('Enter the client secret')).toBeTruthy();
    expect(api.bodies).toEqual([]);
    await user.clear(form.getByLabelText('API URL'));
    await fill(user, form.getByLabelText('API URL'), 'https://eu.api.example.com/');
    expect(form.getByText('Optional. Blank: https://eu.api.example.com/auth/connect/token')).toBeTruthy();
    await fill(user, form.getByLabelText('Client ID'), 'reseller-eu');
    const secret = form.getByLabelText('Client secret') as HTMLInputElement;
    expect(secret.type).toBe('password');
    await fill(user, secret, 'very-secret');
    await fill(user, form.getByLabelText('Sync every N minutes'), '60');
    await user.click(form.getByRole('button', { name: T.add }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: T.addTitle })).toBeNull());
    expect(api.bodies).toEqual([
      [
        'POST /api/v1/provider-accounts',
        {
          name: 'Europe (EUR)',
          kind: 'starlink',
          apiUrl: 'https://eu.api.example.com/',
          tokenUrl: null,
          clientId: 'reseller-eu',
          clientSecret: 'very-secret',
          requestsPerMinute: 240,
          syncIntervalMinutes: 60,
        },
      ],
    ]);
    expect(await (await table()).findByText('Europe (EUR)')).toBeTruthy();
  });

  it('an administrator adds a simulated account from the dropdown; the one in use cannot be picked', async () => {
    const user = userEvent.setup();
    const profile = profileWithRoles('technical');
    const api = fakePortalApi(profile);
    openSignedInAt('/customers/provider-accounts', api.fetch, { profile });
    await table();
    await user.click(screen.getByRole('button', { name: T.addAccount }));
    const form = within(await enteredDialog(T.addTitle));
    await user.click(await form.findByLabelText(T.kindLabels.simulator));
    await user.click((form.getByLabelText(T.simulatedAccount) as HTMLElement).closest('.p-dropdown')!);
    const options = within(await screen.findByRole('listbox'));
    const used = options.getByRole('option', { name: `${T.simulatedOption('Brazil (BRL)', 'BRL', 40)}: ${T.usedBy('Brazil (BRL)')}` });
    expect(used.getAttribute('data-p-disabled')).toBe('true');
    await user.click(options.getByRole('option', { name: T.simulatedOption('Mexico (MXN)', 'MXN', 25) }));
    // Picking it names the account, as the name was still empty.
    await waitFor(() => expect((form.getByLabelText('Name') as HTMLInputElement).value).toBe('Mexico (MXN)'));
    expect(form.queryByLabelText('Client secret')).toBeNull();
    await user.click(form.getByRole('button', { name: T.add }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: T.addTitle })).toBeNull());
    expect(api.bodies).toEqual([
      ['POST /api/v1/provider-accounts', { name: 'Mexico (MXN)', kind: 'simulator', simulatorAccount: 'mx', requestsPerMinute: 240, syncIntervalMinutes: null }],
    ]);
  });

  it("Test connection shows the provider's refusal in its words, and the row then says Authentication failed", async () => {
    const user = userEvent.setup();
    const profile = profileWithRoles('technical');
    openSignedInAt('/customers/provider-accounts', fakePortalApi(profile).fetch, { profile });
    const us = await rowOf('United States (USD)');
    await user.click(us.getByRole('button', { name: `${T.test}: United States (USD)` }));
    // The toast (react-hot-toast's live status) carries the provider's words.
    await waitFor(() => expect(screen.queryAllByRole('status').map((s) => s.textContent)).toContain(AUTH_REFUSED));
    const after = await rowOf('United States (USD)');
    expect(await after.findByText('Authentication failed')).toBeTruthy();
    expect(after.getByText(AUTH_REFUSED)).toBeTruthy();
  });

  it("a delete the server refuses (the account still holds lines) keeps the question open with the server's words", async () => {
    const user = userEvent.setup();
    const profile = profileWithRoles('technical');
    openSignedInAt('/customers/provider-accounts', fakePortalApi(profile).fetch, { profile });
    const us = await rowOf('United States (USD)');
    await user.click(us.getByRole('button', { name: `${T.delete}: United States (USD)` }));
    const question = within(await enteredDialog(T.deleteTitle));
    expect(question.getByText(T.deleteQuestion('United States (USD)'))).toBeTruthy();
    await user.click(question.getByRole('button', { name: T.delete }));
    expect(await question.findByText(STILL_HOLDS)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: T.deleteTitle })).toBeTruthy();
  });

  it('a reader sees the accounts without Add account or any row action', async () => {
    const profile = profileWithRoles('support');
    openSignedInAt('/customers/provider-accounts', fakePortalApi(profile).fetch, { profile });
    const rows = await table();
    expect(rows.getByText('United States (USD)')).toBeTruthy();
    expect(rows.queryAllByRole('button').filter((b) => !b.getAttribute('aria-label')?.startsWith('More about'))).toEqual([]);
    expect(screen.queryByRole('button', { name: T.addAccount })).toBeNull();
    expect(screen.getByText(T.readOnly)).toBeTruthy();
  });
});
