// "Add Terminal" (activationWizard machine): its generated paths walked on the machine and through
// the wizard opened from /terminals (no customer) and from a customer's terminals page (that
// customer preset, the customer step skipped).
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { ACTIVATION_MESSAGES } from '../../../src/domain/activations';
import {
  ACTIVATION_WIZARD_MESSAGES,
  EMPTY_ADDRESS,
  activationWizardMachine,
  type ActivationWizardInput,
  type AddressField,
} from '../../../src/machines/activation-wizard';
import { ACTIVATION_WIZARD_TEXTS as T, ADDRESS_FIELD_LABELS, productLabel } from '../../../src/ui/terminals/ActivationWizard';
import { ADDRESSES, CUSTOMER, NEW_LINE, PLANS, activationFixture } from '../../fixtures/activations';
import { terminalRowWire } from '../../fixtures/terminals-client';
import { fleetHealth } from '../../fixtures/terminals-ui';
import { ok, refused } from '../../machines/scripted-actors';
import {
  addressField,
  addressSearch,
  back,
  close,
  confirm,
  customerSearch,
  deviceId,
  existingAddress,
  newAddress,
  next,
  nickname,
  pickAddress,
  pickCustomer,
  pickProduct,
  resume,
  retry,
} from '../../machines/starters/activation-wizard';
import { defineModel, done, failed, type UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { PAGE_CUSTOMER, PAGE_PATH, customerPageAnswers, muteExpectedFetchLogs } from './customer-terminals-page';

const KIT = 'KIT00012345';
const PRESET = { uuid: PAGE_CUSTOMER.uuid, name: PAGE_CUSTOMER.name };
const fromTerminals: ActivationWizardInput = { customer: null };
const fromCustomer: ActivationWizardInput = { customer: PRESET };
const LONG_NICKNAME = 'x'.repeat(101);
const STOPPED = activationFixture({}, 'attach');
const COMPLETED = activationFixture();
const WORDS = 'The provider is not answering';
/** The new address the paths type, field by field: the four the form requires. */
const NEW_ADDRESS: Partial<Record<AddressField, string>> = {
  addressLine1: '1 Quay Road',
  formattedAddress: '1 Quay Road, Portsmouth',
  latitude: '50.8',
  longitude: '-1.09',
};

const rows = [terminalRowWire()];
const ok200 = (data: unknown) => ({ body: { success: true, message: 'ok', data } });

const wizard = () => within(screen.getByRole('dialog', { name: T.header }));
const button = (name: string) => wizard().getByRole('button', { name }) as HTMLButtonElement;
/** The footer's Close (the dialog's own close icon is named Close too). */
const footerClose = () => wizard().getAllByRole('button', { name: T.close }).at(-1)!;
async function paste(page: PageScreen, label: string, value: string) {
  const input = wizard().getByLabelText(label);
  await page.user.click(input);
  await page.user.clear(input);
  if (value) {
    await page.user.click(input);
    await page.user.paste(value);
  }
}
const radio = (label: string) => wizard().getByLabelText(label) as HTMLInputElement;

const ui = {
  open: async (seam, input) => {
    muteExpectedFetchLogs();
    const preset = input!.customer !== null;
    const page = preset
      ? openPage(PAGE_PATH, seam, customerPageAnswers())
      : openPage('/terminals', seam, {
          'GET /api/v1/terminals': ok200({ results: rows, totalCount: rows.length, page: 1, limit: 25 }),
          'GET /api/v1/terminals/health': ok200(fleetHealth({ total: rows.length })),
        });
    await page.user.click(await screen.findByRole('button', { name: 'Add Terminal' }, { timeout: 5000 }));
    return page;
  },
  events: {
    'user.deviceId': async (page, event) => paste(page, T.device, event.value),
    'user.customerSearch': async (page, event) => paste(page, T.customerSearch, event.value),
    'user.customer': async ({ user }, event) => user.click(radio(event.customer?.name ?? T.noCustomer)),
    'user.addressSearch': async (page, event) => paste(page, T.addressSearch, event.value),
    'user.address': async ({ user }, event) => user.click(radio(ADDRESSES.find((a) => a.addressReferenceId === event.addressReferenceId)!.formattedAddress)),
    'user.newAddress': async ({ user }) => user.click(button(T.enterNew)),
    'user.existingAddress': async ({ user }) => user.click(button(T.useExisting)),
    'user.addressField': async (page, event) => paste(page, ADDRESS_FIELD_LABELS[event.field], event.value),
    'user.product': async ({ user }, event) => user.click(radio(productLabel(PLANS.find((p) => p.productReferenceId === event.productReferenceId)!))),
    'user.nickname': async (page, event) => paste(page, T.nickname, event.value),
    'user.retry': async ({ user }) => user.click(button(T.retry)),
    'user.next': async ({ user }) => user.click(button(T.next)),
    'user.back': async ({ user }) => user.click(button(T.back)),
    'user.confirm': async ({ user }) => user.click(button(T.activate)),
    'user.resume': async ({ user }) => user.click(button(T.resume)),
    'user.close': async ({ user }) => user.click(footerClose()),
  },
  states: {
    device: ({ context }) => {
      expect((wizard().getByLabelText(T.device) as HTMLInputElement).value).toBe(context.deviceId);
      if (context.deviceError) expect(wizard().getByText(context.deviceError)).toBeTruthy();
      else expect(wizard().queryByText(ACTIVATION_MESSAGES.deviceInvalid)).toBeNull();
      expect(wizard().queryByRole('button', { name: T.back })).toBeNull();
    },
    'customer.loading': () => expect(wizard().getByRole('status').textContent).toContain(T.loadingCustomers),
    'customer.failed': ({ context }) => expect(wizard().getByRole('alert').textContent).toContain(context.customersError!),
    'customer.ready': ({ context }) => {
      expect(radio(CUSTOMER.name).checked).toBe(context.customer?.uuid === CUSTOMER.uuid);
      expect(radio(T.noCustomer).checked).toBe(context.customer === null);
    },
    'address.loading': () => expect(wizard().getByRole('status').textContent).toContain(T.loadingAddresses),
    'address.failed': ({ context }) => {
      expect(wizard().getByRole('alert').textContent).toContain(context.addressesError!);
      expect(button(T.enterNew)).toBeTruthy();
    },
    'address.existing': ({ context }) => {
      for (const a of ADDRESSES) expect(radio(a.formattedAddress).checked).toBe(a.addressReferenceId === context.addressReferenceId);
      if (context.addressError) expect(wizard().getByText(context.addressError)).toBeTruthy();
      else expect(wizard().queryByText(ACTIVATION_WIZARD_MESSAGES.addressRequired)).toBeNull();
    },
    'address.new': ({ context }) => {
      for (const field of Object.keys(ADDRESS_FIELD_LABELS) as AddressField[]) {
        const input = wizard().getByLabelText(ADDRESS_FIELD_LABELS[field]) as HTMLInputElement;
        expect(input.value).toBe(context.addressForm[field]);
        expect(input.getAttribute('aria-invalid')).toBe(context.addressErrors[field] ? 'true' : null);
      }
    },
    'product.loading': () => expect(wizard().getByRole('status').textContent).toContain(T.loadingPlans),
    'product.failed': ({ context }) => expect(wizard().getByRole('alert').textContent).toContain(context.plansError!),
    'product.ready': ({ context }) => {
      for (const p of PLANS) expect(radio(productLabel(p)).checked).toBe(p.productReferenceId === context.productReferenceId);
      if (context.productError) expect(wizard().getByText(context.productError)).toBeTruthy();
    },
    nickname: ({ context }) => {
      const input = wizard().getByLabelText(T.nickname) as HTMLInputElement;
      expect(input.value).toBe(context.nickname);
      expect(input.getAttribute('aria-invalid')).toBe(context.nicknameError ? 'true' : null);
    },
    review: ({ context }) => {
      const review = wizard().getByLabelText('Review');
      expect(review.textContent).toContain(KIT);
      expect(review.textContent).toContain(context.customer?.name ?? 'None');
      expect(button(T.activate).disabled).toBe(false);
      if (context.failure) expect(wizard().getByRole('alert').textContent).toContain(context.failure);
      else expect(wizard().queryByRole('alert')).toBeNull();
    },
    'running.starting': () => {
      expect(wizard().getByRole('status').textContent).toContain(T.running);
      expect(wizard().queryByRole('button', { name: T.close })).toBeNull();
    },
    'running.resuming': () => {
      expect(wizard().getByRole('status').textContent).toContain(T.running);
      expect(wizard().queryByRole('button', { name: T.resume })).toBeNull();
    },
    done: () => {
      expect(wizard().getByText(`${T.doneTitle} on service line ${NEW_LINE}`)).toBeTruthy();
      expect(within(wizard().getByRole('list', { name: T.stepsLabel })).getAllByText('done')).toHaveLength(7);
    },
    stopped: ({ context }) => {
      expect(wizard().getByRole('alert').textContent).toContain(STOPPED.error!);
      if (context.failure) expect(wizard().getByRole('alert').textContent).toContain(context.failure);
      expect(within(wizard().getByRole('list', { name: T.stepsLabel })).getAllByText('not done')).toHaveLength(4);
      expect(button(T.resume).disabled).toBe(false);
    },
    closed: () => expect(screen.queryByRole('dialog', { name: T.header })).toBeNull(),
  },
  drivable: (snapshot, event) => {
    const c = snapshot.context;
    switch (event.type) {
      // A control reports a change only: choosing what is already chosen sends nothing.
      case 'user.deviceId':
        return event.value !== c.deviceId;
      case 'user.customerSearch':
        return event.value !== c.customerSearch;
      case 'user.customer':
        return event.customer?.uuid !== c.customer?.uuid;
      case 'user.addressSearch':
        return event.value !== c.addressSearch;
      case 'user.address':
        return event.addressReferenceId !== c.addressReferenceId;
      case 'user.addressField':
        return event.value !== c.addressForm[event.field];
      case 'user.product':
        return event.productReferenceId !== c.productReferenceId;
      case 'user.nickname':
        return event.value !== c.nickname;
      default:
        return true;
    }
  },
} satisfies UiModel<typeof activationWizardMachine, PageScreen>;

const STOP_WORDS = new Set([
  null,
  `Failed to activate the terminal: ${WORDS}`,
  'Failed to activate the terminal. Please try again.',
  `Failed to resume the activation: ${WORDS}`,
  'Failed to resume the activation. Please try again.',
]);

export const activationWizardModel = defineModel<typeof activationWizardMachine, PageScreen>({
  name: 'activation-wizard',
  machine: activationWizardMachine,
  inputs: [fromTerminals, fromCustomer],
  events: {
    'user.deviceId': [deviceId(KIT)],
    'user.customerSearch': [customerSearch('harb')],
    'user.customer': [pickCustomer(CUSTOMER)],
    'user.addressSearch': [addressSearch('quay')],
    'user.address': [pickAddress('addr-1')],
    'user.newAddress': [newAddress],
    'user.existingAddress': [existingAddress],
    'user.addressField': [
      addressField('addressLine1', NEW_ADDRESS.addressLine1!),
      addressField('formattedAddress', NEW_ADDRESS.formattedAddress!),
      addressField('latitude', NEW_ADDRESS.latitude!),
      addressField('longitude', NEW_ADDRESS.longitude!),
    ],
    'user.product': [pickProduct('plan-50')],
    'user.nickname': [nickname('Quay'), nickname(LONG_NICKNAME)],
    'user.retry': [retry],
    'user.next': [next],
    'user.back': [back],
    'user.confirm': [confirm],
    'user.resume': [resume],
    'user.close': [close],
  },
  actorResults: [
    done('loadCustomers', ok([CUSTOMER])),
    failed('loadCustomers', new TypeError('fetch failed')),
    done('loadCustomers', refused(WORDS)),
    done('loadAddresses', ok(ADDRESSES)),
    failed('loadAddresses', new TypeError('fetch failed')),
    done('loadAddresses', refused(WORDS)),
    done('loadPlans', ok(PLANS)),
    failed('loadPlans', new TypeError('fetch failed')),
    done('loadPlans', refused(WORDS)),
    done('startActivation', ok(COMPLETED)),
    done('startActivation', ok(STOPPED)),
    done('startActivation', refused(WORDS)),
    failed('startActivation', new TypeError('fetch failed')),
    done('resumeActivation', ok(COMPLETED)),
    done('resumeActivation', ok(STOPPED)),
    done('resumeActivation', refused(WORDS)),
    failed('resumeActivation', new TypeError('fetch failed')),
  ],
  states: {
    device: (s) => {
      expect(['', KIT]).toContain(s.context.deviceId);
      expect(s.context.deviceError === null || s.context.deviceId === '').toBe(true);
    },
    'customer.loading': (s) => {
      expect(s.hasTag('loading')).toBe(true);
      expect(s.context.presetCustomer).toBeNull();
    },
    'customer.failed': (s) => expect([WORDS, ACTIVATION_WIZARD_MESSAGES.customersFailed]).toContain(s.context.customersError),
    'customer.ready': (s) => expect(s.context.customers).toEqual([CUSTOMER]),
    'address.loading': (s) => expect(s.hasTag('loading')).toBe(true),
    'address.failed': (s) => expect([WORDS, ACTIVATION_WIZARD_MESSAGES.addressesFailed]).toContain(s.context.addressesError),
    'address.existing': (s) => {
      expect(s.context.addresses).toEqual(ADDRESSES);
      expect(s.context).toMatchObject({ addressMode: 'existing', addressForm: EMPTY_ADDRESS });
    },
    'address.new': (s) => {
      expect(s.context).toMatchObject({ addressMode: 'new', addressReferenceId: null, addressError: null });
    },
    'product.loading': (s) => expect(s.hasTag('loading')).toBe(true),
    'product.failed': (s) => expect([WORDS, ACTIVATION_WIZARD_MESSAGES.plansFailed]).toContain(s.context.plansError),
    'product.ready': (s) => expect(s.context.plans).toEqual(PLANS),
    nickname: (s) => expect(s.context.productReferenceId).toBe('plan-50'),
    review: (s) => {
      expect(s.context.deviceId).toBe(KIT);
      expect(s.context.nicknameError).toBeNull();
      expect(STOP_WORDS).toContain(s.context.failure);
    },
    'running.starting': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
      expect(s.context.failure).toBeNull();
    },
    'running.resuming': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.activation?.id).toBe(STOPPED.id);
    },
    done: (s) => {
      expect(s.context.activation).toEqual(COMPLETED);
      expect(s.can(close)).toBe(true);
    },
    stopped: (s) => {
      expect(s.context.activation).toEqual(STOPPED);
      expect(STOP_WORDS).toContain(s.context.failure);
      expect(s.can(resume)).toBe(true);
    },
    closed: (s) => expect(s.status).toBe('done'),
  },
  ui,
});

modelSuite(activationWizardModel);
