// "Add Terminal" through the whole client (composition root, router, session, the terminals page and
// a customer's terminals page, the activationWizard actor, the view) against a fake of the portal API
// at the fetch seam that activates kits as the server would.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { AdminUser } from '../../src/domain/auth';
import { ACTIVATION_MESSAGES, type ActivationWire } from '../../src/domain/activations';
import { ACTIVATION_WIZARD_MESSAGES } from '../../src/machines/activation-wizard';
import { ACTIVATION_WIZARD_TEXTS as T, ADDRESS_FIELD_LABELS, productLabel } from '../../src/ui/terminals/ActivationWizard';
import { adminProfile, profileWithRoles } from '../machines/fixtures';
import { ADDRESSES, KIT, NEW_LINE, PLANS, activationFixture } from '../fixtures/activations';
import { terminalRowWire } from '../fixtures/terminals-client';
import { fleetHealth } from '../fixtures/terminals-ui';
import { PAGE_CUSTOMER, PAGE_PATH, customerPageAnswers } from '../model/machines/customer-terminals-page';
import { fill } from './fill';
import { openSignedInAt } from './open-app';

const rows = [terminalRowWire()];

interface FakeOptions {
  profile?: AdminUser;
  /** What each POST /activations (then each resume) answers, in turn. */
  starts?: ActivationWire[];
  resumes?: ActivationWire[];
  /** The portal's provider accounts (absent: the list cannot be read, as with one account). */
  accounts?: Array<{ id: number; name: string }>;
}

function fakePortalApi({ profile = adminProfile, starts = [activationFixture()], resumes = [activationFixture()], accounts }: FakeOptions = {}) {
  const bodies: Array<[string, unknown]> = [];
  const calls: string[] = [];
  const page = customerPageAnswers();
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, status = 200) => json(status, { success: true, message: 'ok', data });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(`${call}${url.search}`);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    if (body !== undefined) bodies.push([call, body]);
    if (call === 'GET /api/v1/auth/me') return ok({ user: profile });
    if (call === 'GET /api/v1/provider-accounts/refs' && accounts) return ok(accounts);
    if (call === 'GET /api/v1/terminals') return ok({ results: rows, totalCount: rows.length, page: 1, limit: 25 });
    if (call === 'GET /api/v1/terminals/health') return ok(fleetHealth({ total: rows.length }));
    if (call === 'GET /api/v1/customers') return ok({ customers: [], pagination: { total: 0, page: 1, limit: 50, pages: 0 } });
    if (call === 'GET /api/v1/activations/addresses') return ok(ADDRESSES);
    if (call === 'GET /api/v1/subscriptions/plans') return ok(PLANS);
    if (call === 'POST /api/v1/activations') return ok(starts.shift() ?? activationFixture(), 201);
    if (call === 'POST /api/v1/activations/act-1/resume') return ok(resumes.shift() ?? activationFixture());
    const answer = page[call];
    if (answer) {
      const { status = 200, body: out } = typeof answer === 'function' ? answer({ url, body }) : answer;
      return json(status, out);
    }
    return json(404, { success: false, message: `Route not found: ${call}` });
  });
  return { fetch, bodies, calls };
}

const wizard = () => within(screen.getByRole('dialog', { name: T.header }));
type Opened = ReturnType<typeof openSignedInAt>;
/** Replaces what the wizard's field holds with `value`, pasted in one input (see fill.ts). */
async function type(view: Opened, label: string, value: string) {
  const input = wizard().getByLabelText(label);
  await view.user.clear(input);
  await fill(view.user, input, value);
}
const click = (view: Opened, name: string) => view.user.click(wizard().getByRole('button', { name }));
/** From the serial typed to Activate: no customer, the first address and plan, no nickname. */
async function submitFromDevice(view: Opened) {
  await type(view, T.device, KIT);
  await click(view, T.next);
  await wizard().findByRole('radio', { name: T.noCustomer }, { timeout: 5000 });
  await click(view, T.next);
  await view.user.click(await wizard().findByRole('radio', { name: ADDRESSES[0]!.formattedAddress }));
  await click(view, T.next);
  await view.user.click(await wizard().findByRole('radio', { name: productLabel(PLANS[0]!) }));
  await click(view, T.next);
  await click(view, T.next);
  await click(view, T.activate);
}
/** The same, to the answer that the line is active. */
async function activateFromDevice(view: Opened) {
  await submitFromDevice(view);
  await wizard().findByText(`${T.doneTitle} on service line ${NEW_LINE}`, {}, { timeout: 5000 });
}

describe('Add Terminal: the activation wizard', () => {
  it('activates a kit for a customer (from their page) at a new address, and the page refreshes', async () => {
    const api = fakePortalApi({ starts: [activationFixture({ customer: { uuid: PAGE_CUSTOMER.uuid, name: PAGE_CUSTOMER.name } })] });
    const view = openSignedInAt(PAGE_PATH, api.fetch);
    await view.user.click(await screen.findByRole('button', { name: 'Add Terminal' }, { timeout: 5000 }));
    await type(view, T.device, KIT);
    await click(view, T.next);
    // The customer step is skipped: the page's customer is the one.
    await wizard().findByRole('radio', { name: ADDRESSES[0]!.formattedAddress });
    await click(view, T.enterNew);
    const fields: [keyof typeof ADDRESS_FIELD_LABELS, string][] = [
      ['addressLine1', '1 Quay Road'],
      ['locality', 'Portsmouth'],
      ['region', 'Hampshire'],
      ['postalCode', 'PO1 1AA'],
      ['formattedAddress', '1 Quay Road, Portsmouth PO1 1AA'],
      ['latitude', '50.8'],
      ['longitude', '-1.09'],
    ];
    for (const [field, value] of fields) await type(view, ADDRESS_FIELD_LABELS[field], value);
    await click(view, T.next);
    await view.user.click(await wizard().findByRole('radio', { name: productLabel(PLANS[1]!) }));
    expect(wizard().getByText(/\$250\.00 a month/)).toBeTruthy();
    await click(view, T.next);
    await type(view, T.nickname, 'Quay');
    await click(view, T.next);
    const review = wizard().getByLabelText('Review');
    expect(review.textContent).toContain(PAGE_CUSTOMER.name);
    expect(review.textContent).toContain('1 Quay Road, Portsmouth PO1 1AA (new)');
    const usageCalls = api.calls.filter((c) => c.startsWith(`GET /api/v1/terminals/customers/${PAGE_CUSTOMER.uuid}/usage/page?`)).length;
    await click(view, T.activate);
    expect(await wizard().findByText(`${T.doneTitle} on service line ${NEW_LINE}`, {}, { timeout: 5000 })).toBeTruthy();
    expect(api.bodies.find(([call]) => call === 'POST /api/v1/activations')![1]).toEqual({
      deviceId: KIT,
      customerUuid: PAGE_CUSTOMER.uuid,
      newAddress: {
        addressLines: ['1 Quay Road'],
        locality: 'Portsmouth',
        region: 'Hampshire',
        postalCode: 'PO1 1AA',
        formattedAddress: '1 Quay Road, Portsmouth PO1 1AA',
        latitude: 50.8,
        longitude: -1.09,
      },
      productReferenceId: 'plan-1tb',
      nickname: 'Quay',
    });
    expect(within(wizard().getByRole('list', { name: T.stepsLabel })).getAllByText('done')).toHaveLength(7);
    // The customer's usage is asked for again.
    await waitFor(() =>
      expect(api.calls.filter((c) => c.startsWith(`GET /api/v1/terminals/customers/${PAGE_CUSTOMER.uuid}/usage/page?`)).length).toBeGreaterThan(usageCalls),
    );
    await view.user.click(wizard().getAllByRole('button', { name: T.close }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: T.header })).toBeNull());
  });

  it('a stopped activation shows what was done and the error; Resume finishes it and the list refreshes', async () => {
    const api = fakePortalApi({ starts: [activationFixture({}, 'attach')], resumes: [activationFixture()] });
    const view = openSignedInAt('/terminals', api.fetch);
    await view.user.click(await screen.findByRole('button', { name: 'Add Terminal' }, { timeout: 5000 }));
    await submitFromDevice(view);
    const alert = await wizard().findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toContain('The provider refused to attach the kit');
    const steps = within(wizard().getByRole('list', { name: T.stepsLabel }));
    expect(steps.getAllByText('done')).toHaveLength(3);
    expect(steps.getAllByText('not done')).toHaveLength(4);
    expect(await screen.findByText(ACTIVATION_MESSAGES.failed)).toBeTruthy();
    const listCalls = api.calls.filter((c) => c.startsWith('GET /api/v1/terminals?')).length;
    await click(view, T.resume);
    expect(await wizard().findByText(`${T.doneTitle} on service line ${NEW_LINE}`, {}, { timeout: 5000 })).toBeTruthy();
    expect(api.calls).toContain('POST /api/v1/activations/act-1/resume');
    await waitFor(() => expect(api.calls.filter((c) => c.startsWith('GET /api/v1/terminals?')).length).toBeGreaterThan(listCalls));
  });

  it('with two provider accounts the first step asks which to activate under, and the activation names the one chosen', async () => {
    const api = fakePortalApi({ accounts: [{ id: 1, name: 'Demo US' }, { id: 2, name: 'Demo Brasil' }] });
    const view = openSignedInAt('/terminals', api.fetch);
    await view.user.click(await screen.findByRole('button', { name: 'Add Terminal' }, { timeout: 5000 }));
    const picker = (await wizard().findByLabelText('Provider account')) as HTMLInputElement;
    await waitFor(() => expect(picker.value).toBe('Demo US'));
    await view.user.click(picker.closest('.p-dropdown')!);
    await view.user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Demo Brasil' }));
    await waitFor(() => expect(picker.value).toBe('Demo Brasil'));
    await activateFromDevice(view);
    // Its addresses and plans are the chosen account's.
    expect(api.calls).toContain('GET /api/v1/activations/addresses?account_id=2');
    expect(api.calls).toContain('GET /api/v1/subscriptions/plans?account_id=2');
    expect(api.bodies.find(([call]) => call === 'POST /api/v1/activations')![1]).toMatchObject({ deviceId: KIT, accountId: 2 });
  });

  it('with one provider account there is no account to ask for, and the activation names none', async () => {
    const api = fakePortalApi({ accounts: [{ id: 1, name: 'Demo US' }] });
    const view = openSignedInAt('/terminals', api.fetch);
    await view.user.click(await screen.findByRole('button', { name: 'Add Terminal' }, { timeout: 5000 }));
    await waitFor(() => expect(api.calls.filter((c) => c === 'GET /api/v1/provider-accounts/refs').length).toBeGreaterThan(1));
    expect(wizard().queryByLabelText('Provider account')).toBeNull();
    await activateFromDevice(view);
    expect(api.bodies.find(([call]) => call === 'POST /api/v1/activations')![1]).not.toHaveProperty('accountId');
  });

  it('says what is wrong: the serial, the address, the coordinates, the plan, the nickname', async () => {
    const api = fakePortalApi();
    const view = openSignedInAt('/terminals', api.fetch);
    await view.user.click(await screen.findByRole('button', { name: 'Add Terminal' }, { timeout: 5000 }));
    await type(view, T.device, 'KIT12');
    await click(view, T.next);
    expect(wizard().getByText(ACTIVATION_MESSAGES.deviceInvalid)).toBeTruthy();
    expect(wizard().getByLabelText(T.device).getAttribute('aria-invalid')).toBe('true');
    await type(view, T.device, KIT);
    await click(view, T.next);
    await wizard().findByRole('radio', { name: T.noCustomer }, { timeout: 5000 });
    await click(view, T.next);
    await wizard().findByRole('radio', { name: ADDRESSES[0]!.formattedAddress });
    await click(view, T.next);
    expect(wizard().getByText(ACTIVATION_WIZARD_MESSAGES.addressRequired)).toBeTruthy();
    await click(view, T.enterNew);
    await type(view, ADDRESS_FIELD_LABELS.latitude, '91');
    await type(view, ADDRESS_FIELD_LABELS.longitude, '-181');
    await click(view, T.next);
    for (const message of [
      ACTIVATION_WIZARD_MESSAGES.addressLineRequired,
      ACTIVATION_WIZARD_MESSAGES.formattedRequired,
      ACTIVATION_WIZARD_MESSAGES.latitudeRange,
      ACTIVATION_WIZARD_MESSAGES.longitudeRange,
    ])
      expect(wizard().getByText(message)).toBeTruthy();
    await click(view, T.useExisting);
    await view.user.click(await wizard().findByRole('radio', { name: ADDRESSES[1]!.formattedAddress }));
    await click(view, T.next);
    await wizard().findByRole('radio', { name: productLabel(PLANS[0]!) });
    await click(view, T.next);
    expect(wizard().getByText(ACTIVATION_WIZARD_MESSAGES.productRequired)).toBeTruthy();
    await view.user.click(wizard().getByRole('radio', { name: productLabel(PLANS[0]!) }));
    await click(view, T.next);
    const input = wizard().getByLabelText(T.nickname);
    await view.user.click(input);
    await view.user.paste('x'.repeat(101));
    await click(view, T.next);
    expect(wizard().getByText(ACTIVATION_MESSAGES.nicknameTooLong)).toBeTruthy();
    expect(api.calls.some((c) => c.startsWith('POST'))).toBe(false);
  });

  it('is not offered to a portal user whose roles do not manage the lifecycle', async () => {
    // Support changes terminals (sync, assign) but not the lifecycle.
    const user = profileWithRoles('support');
    const view = openSignedInAt('/terminals', fakePortalApi({ profile: user }).fetch, { profile: user });
    expect(await screen.findByRole('button', { name: 'Sync from the provider' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Terminal' })).toBeNull();
    view.unmount();
    openSignedInAt(PAGE_PATH, fakePortalApi({ profile: user }).fetch, { profile: user });
    expect(await screen.findByRole('button', { name: 'Assign Terminals' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Terminal' })).toBeNull();
  });
});
