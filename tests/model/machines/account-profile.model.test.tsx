// My Account → Profile (accountProfile machine, /my/account): its generated paths walked on the
// machine and through the customer's account page, plus a journey pinned by hand.
import { configure, screen, within } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { CustomerProfile } from '../../../src/domain/auth';
import { CUSTOMER_MESSAGES } from '../../../src/domain/customers';
import { SESSION_STORAGE_KEY, serialisePersistedSession } from '../../../src/domain/session';
import { accountProfileMachine, profileForm, type AccountProfileField } from '../../../src/machines/account-profile';
import type { SaveOutcome } from '../../../src/machines/user-form';
import { AppRoot } from '../../../src/routes/AppRoot';
import { createTestApp } from '../../ui/open-app';
import { customerProfile } from '../../machines/fixtures';
import { scriptedActors } from '../../machines/scripted-actors';
import { renderStrict } from '../../ui/render';
import { defineModel, done, failed, type ModelSeam, type OpenedScreen } from '../framework/model';
import { fakePortalApi } from '../framework/screen';
import { modelSuite } from '../framework/suite';

configure({ asyncUtilTimeout: 5_000 });

const LABELS: Record<AccountProfileField, string> = { name: 'Full Name', company: 'Company', phone: 'Phone', address: 'Address' };
const field = (name: AccountProfileField, value: string) => ({ type: 'user.field', field: name, value }) as const;
const saved: SaveOutcome<CustomerProfile> = { ok: true, data: { ...customerProfile, name: 'Nina Park-Lee' } };
const fieldRefusal: SaveOutcome<CustomerProfile> = { ok: false, status: 400, message: 'Validation failed', errors: [{ path: 'phone', message: 'Phone must be at most 40 characters' }] };
const plainRefusal: SaveOutcome<CustomerProfile> = { ok: false, status: 403, message: 'Your account has been blocked.' };

/** The whole client at /my/account, signed in as the fixture customer, over a fake API. */
function openAccount(seam: ModelSeam) {
  localStorage.clear();
  localStorage.setItem(SESSION_STORAGE_KEY, serialisePersistedSession({ token: 'customer-token', profile: customerProfile, userType: 'customer', isAuthenticated: true }));
  const api = fakePortalApi({ 'GET /api/v1/customers/auth/me': { body: { success: true, message: 'ok', data: { customer: customerProfile } } } });
  const history = createMemoryHistory({ initialEntries: ['/my/account'] });
  const app = createTestApp({ storage: localStorage, history, fetch: api.fetch as typeof globalThis.fetch, seam, inspect: seam.inspect });
  const view = renderStrict(<AppRoot app={app} />);
  return {
    ...view,
    app,
    close() {
      view.unmount();
      app.session.stop();
    },
  } satisfies OpenedScreen & Record<string, unknown>;
}
type AccountScreen = ReturnType<typeof openAccount>;

const form = () => within(screen.getByRole('form', { name: 'Profile' }));

export const accountProfileModel = defineModel<typeof accountProfileMachine, AccountScreen>({
  name: 'account-profile',
  machine: accountProfileMachine,
  input: { profile: customerProfile },
  events: {
    // A new name, and an empty company (the client refuses it).
    'user.field': [field('name', 'Nina Park-Lee'), field('company', '')],
    'user.submit': [{ type: 'user.submit' }],
  },
  actorResults: [done('saveProfile', saved), done('saveProfile', fieldRefusal), done('saveProfile', plainRefusal), failed('saveProfile', new TypeError('fetch failed'))],
  states: {
    editing: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      // A field error and a failure that is no field's never show together.
      if (Object.values(snapshot.context.errors).some(Boolean)) expect(snapshot.context.failure).toBeNull();
    },
    saving: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(snapshot.context.form.company.trim()).not.toBe('');
    },
  },
  ui: {
    open: (seam) => openAccount(seam),
    events: {
      'user.field': async ({ user }, event) => {
        const input = (await screen.findByRole('form', { name: 'Profile' })) && form().getByLabelText(LABELS[event.field]);
        await user.click(input);
        await user.clear(input);
        if (event.value) await user.paste(event.value);
      },
      'user.submit': async ({ user }) => user.click(form().getByRole('button', { name: 'Save Changes' })),
    },
    states: {
      editing: (snapshot) => {
        for (const [name, label] of Object.entries(LABELS) as Array<[AccountProfileField, string]>) {
          expect(form().getByLabelText(label)).toHaveProperty('value', snapshot.context.form[name]);
          expect(form().getByLabelText(label)).toHaveProperty('disabled', false);
          const error = snapshot.context.errors[name];
          if (error) expect(form().getByText(error)).toBeTruthy();
        }
        if (snapshot.context.failure) expect(form().getByRole('alert').textContent).toBe(snapshot.context.failure);
        else expect(form().queryByRole('alert')).toBeNull();
      },
      saving: () => {
        expect(form().getByRole('button', { name: 'Saving...' })).toHaveProperty('disabled', true);
        expect(form().getByLabelText('Full Name')).toHaveProperty('disabled', true);
      },
    },
  },
});

modelSuite(accountProfileModel);

describe('account profile (pinned journeys)', () => {
  it('pinned: an empty company is refused locally, a field refusal lands on its field, then the save hands the profile on', async () => {
    const { answer, called } = scriptedActors();
    const profileSaved = vi.fn();
    const actor = createActor(
      accountProfileMachine.provide({
        actors: { saveProfile: answer('saveProfile', [fieldRefusal, saved]) },
        actions: { profileSaved: (_, profile) => profileSaved(profile) },
      }),
      { input: { profile: customerProfile } },
    ).start();
    expect(actor.getSnapshot().context.form).toEqual(profileForm(customerProfile));
    actor.send(field('company', ' '));
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.errors.company).toBe(CUSTOMER_MESSAGES.companyRequired);
    expect(called('saveProfile')).toHaveLength(0);
    actor.send(field('company', 'Northwind Shipping'));
    actor.send(field('phone', ' +1 555 0100 '));
    actor.send({ type: 'user.submit' });
    const refusedOnce = await waitFor(actor, (s) => s.matches('editing') && s.context.errors.phone !== undefined);
    expect(refusedOnce.context.errors.phone).toBe('Phone must be at most 40 characters');
    actor.send({ type: 'user.submit' });
    await waitFor(actor, (s) => s.matches('editing') && profileSaved.mock.calls.length === 1);
    expect(called('saveProfile').map((c) => c.input)).toEqual([
      { name: customerProfile.name, company: 'Northwind Shipping', phone: '+1 555 0100', address: null },
      { name: customerProfile.name, company: 'Northwind Shipping', phone: '+1 555 0100', address: null },
    ]);
    expect(profileSaved).toHaveBeenCalledWith(saved.ok ? saved.data : null);
    expect(actor.getSnapshot().context.form.name).toBe('Nina Park-Lee');
  });
});
