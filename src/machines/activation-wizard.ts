/**
 * "Add Terminal": a kit (or dish) serial taken to an active, named service line, step by step.
 * The page starts it when the dialog opens (with `customer` when opened from a customer's page)
 * and drops it when it reaches `closed`.
 *
 *   device            the kit or dish serial, checked with DEVICE_ID_PATTERN (`deviceError`), and the
 *                     provider account to activate under when the portal has several (`accountId`)
 *   customer.loading  the customers matching `customerSearch` are asked for        (tag: loading)
 *   customer.ready    pick one, or none (the customer is optional)
 *   customer.failed   why they could not be loaded; Try Again
 *                     (skipped, forwards and back, when the input presets the customer)
 *   address.loading   the account's addresses matching `addressSearch`            (tag: loading)
 *   address.failed    why they could not be loaded; Try Again, or enter a new one
 *   address.existing  pick one of them (searchable)
 *   address.new       a new address (switching ways starts the other afresh): lines, locality, region, postal code, formatted address,
 *                     latitude and longitude, checked with `addressProblems` (`addressErrors`)
 *   product.loading   the plans sold on the account                               (tag: loading)
 *   product.failed    why they could not be loaded; Try Again
 *   product.ready     pick one (with its price)
 *   nickname          optional, at most ACTIVATION_NICKNAME_MAX_LENGTH
 *   review            everything chosen; Activate. A refused start comes back here with the
 *                     server's words (`failure`, and a toast)
 *   running.starting  POST /activations                                           (tag: busy)
 *   running.resuming  POST /activations/{id}/resume                               (tag: busy)
 *   done              every step with its state and the new service line (`activation`)
 *   stopped           the steps done and not done, the error; Resume, Close. A refused resume
 *                     stays here with the server's words (`failure`)
 *   closed            final: the page drops the actor
 *
 * Back goes one form step back, leaving the step it leaves as it was before the user came to it
 * (the steps before keep their choices); Close leaves from any step but the running ones. A started
 * activation that answers `failed` is not a refusal: it is the record of a stop, so `running`
 * writes its answers out (three ways: completed, failed, refused) rather than through
 * `submittingStates`, whose shape has two. Effects: the load and request actors, `activated`
 * (the page refreshes its list), `notifySuccess` and `notifyFailure` (toasts).
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  ACTIVATION_MESSAGES,
  ACTIVATION_NICKNAME_MAX_LENGTH,
  DEVICE_ID_PATTERN,
  type ActivationPayload,
  type ActivationWire,
  type NewAddressInput,
} from '../domain/activations';
import { failureText } from './customer-forms';
import type { LoadOutcome } from './resource';

export interface ActivationCustomer {
  uuid: string;
  name: string;
}

export interface ActivationAddress {
  addressReferenceId: string;
  formattedAddress: string;
  locality: string | null;
  region: string | null;
}

export interface ActivationProduct {
  productReferenceId: string;
  name: string;
  monthlyDataGB: number;
  price: number | null;
  currency: string;
}

export interface ActivationWizardInput {
  /** Opened from a customer's page: that customer, and the customer step is skipped. */
  customer: ActivationCustomer | null;
}

export type AddressField = 'addressLine1' | 'addressLine2' | 'locality' | 'region' | 'postalCode' | 'formattedAddress' | 'latitude' | 'longitude';
export type AddressForm = Record<AddressField, string>;
export type AddressErrors = Partial<Record<AddressField, string>>;

export const EMPTY_ADDRESS: AddressForm = {
  addressLine1: '',
  addressLine2: '',
  locality: '',
  region: '',
  postalCode: '',
  formattedAddress: '',
  latitude: '',
  longitude: '',
};

export const ACTIVATION_WIZARD_MESSAGES = {
  customersFailed: 'Failed to load the customers',
  addressesFailed: 'Failed to load the account’s addresses',
  plansFailed: 'Failed to load the plans',
  addressRequired: 'Choose one of the account’s addresses or enter a new one',
  addressLineRequired: 'Address line is required',
  formattedRequired: 'Formatted address is required',
  latitudeRange: 'Latitude must be a number from -90 to 90',
  longitudeRange: 'Longitude must be a number from -180 to 180',
  productRequired: 'Choose a plan',
} as const;

const inRange = (value: string, limit: number) => {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  return Number.isFinite(n) && Math.abs(n) <= limit;
};

/** What is wrong with a new address (empty when nothing is). */
export function addressProblems(form: AddressForm): AddressErrors {
  const problems: AddressErrors = {};
  if (form.addressLine1.trim() === '') problems.addressLine1 = ACTIVATION_WIZARD_MESSAGES.addressLineRequired;
  if (form.formattedAddress.trim() === '') problems.formattedAddress = ACTIVATION_WIZARD_MESSAGES.formattedRequired;
  if (!inRange(form.latitude, 90)) problems.latitude = ACTIVATION_WIZARD_MESSAGES.latitudeRange;
  if (!inRange(form.longitude, 180)) problems.longitude = ACTIVATION_WIZARD_MESSAGES.longitudeRange;
  return problems;
}

export const deviceProblem = (deviceId: string) => (DEVICE_ID_PATTERN.test(deviceId.trim()) ? null : ACTIVATION_MESSAGES.deviceInvalid);
export const nicknameProblem = (nickname: string) =>
  nickname.trim().length > ACTIVATION_NICKNAME_MAX_LENGTH ? ACTIVATION_MESSAGES.nicknameTooLong : null;

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

export function newAddressOf(form: AddressForm): NewAddressInput {
  return {
    addressLines: [form.addressLine1, form.addressLine2].map((l) => l.trim()).filter((l) => l !== ''),
    locality: orNull(form.locality),
    region: orNull(form.region),
    postalCode: orNull(form.postalCode),
    formattedAddress: form.formattedAddress.trim(),
    latitude: Number(form.latitude),
    longitude: Number(form.longitude),
  };
}

export interface ActivationWizardContext {
  /** From the input: the customer step is skipped. */
  presetCustomer: ActivationCustomer | null;
  deviceId: string;
  deviceError: string | null;
  /** The provider account chosen on the first step; null: the server's first enabled account. */
  accountId: number | null;
  customer: ActivationCustomer | null;
  customerSearch: string;
  customers: ActivationCustomer[];
  customersError: string | null;
  addressSearch: string;
  addresses: ActivationAddress[];
  addressesError: string | null;
  /** The address the activation uses: an existing one, or the new form. */
  addressMode: 'existing' | 'new';
  addressReferenceId: string | null;
  addressForm: AddressForm;
  addressErrors: AddressErrors;
  /** No existing address chosen. */
  addressError: string | null;
  plans: ActivationProduct[];
  plansError: string | null;
  productReferenceId: string | null;
  productError: string | null;
  nickname: string;
  nicknameError: string | null;
  /** The record as the server last answered it. */
  activation: ActivationWire | null;
  /** Why the last start or resume was refused (shown in the step as well as the toast). */
  failure: string | null;
}

export type ActivationWizardEvent =
  /** The first step's fields: the serial as typed, and the account when the picker changes it. */
  | { type: 'user.deviceId'; value: string; accountId?: number }
  | { type: 'user.customerSearch'; value: string }
  | { type: 'user.customer'; customer: ActivationCustomer | null }
  | { type: 'user.addressSearch'; value: string }
  | { type: 'user.address'; addressReferenceId: string }
  | { type: 'user.newAddress' }
  | { type: 'user.existingAddress' }
  | { type: 'user.addressField'; field: AddressField; value: string }
  | { type: 'user.product'; productReferenceId: string }
  | { type: 'user.nickname'; value: string }
  | { type: 'user.retry' }
  | { type: 'user.next' }
  | { type: 'user.back' }
  | { type: 'user.confirm' }
  | { type: 'user.resume' }
  | { type: 'user.close' };

export type ActivationOutcome = LoadOutcome<ActivationWire>;

/** The request the review sends. */
export function payloadOf(c: ActivationWizardContext): ActivationPayload {
  return {
    deviceId: c.deviceId.trim(),
    customerUuid: c.customer?.uuid ?? null,
    ...(c.accountId !== null ? { accountId: c.accountId } : {}),
    ...(c.addressMode === 'new' ? { newAddress: newAddressOf(c.addressForm) } : { addressReferenceId: c.addressReferenceId }),
    productReferenceId: c.productReferenceId ?? '',
    nickname: orNull(c.nickname),
  };
}

/** The addresses asked for: the search typed, on the chosen account (null: the portal's one account). */
export interface AddressQuery {
  search: string;
  accountId: number | null;
}

const activationWizardSetup = setup({
  types: {
    context: {} as ActivationWizardContext,
    events: {} as ActivationWizardEvent,
    input: {} as ActivationWizardInput,
  },
  actors: {
    loadCustomers: fromPromise<LoadOutcome<ActivationCustomer[]>, string>(async () => {
      throw new Error('loadCustomers is provided by the app');
    }),
    loadAddresses: fromPromise<LoadOutcome<ActivationAddress[]>, AddressQuery>(async () => {
      throw new Error('loadAddresses is provided by the app');
    }),
    loadPlans: fromPromise<LoadOutcome<ActivationProduct[]>, number | null>(async () => {
      throw new Error('loadPlans is provided by the app');
    }),
    startActivation: fromPromise<ActivationOutcome, ActivationPayload>(async () => {
      throw new Error('startActivation is provided by the app');
    }),
    resumeActivation: fromPromise<ActivationOutcome, string>(async () => {
      throw new Error('resumeActivation is provided by the app');
    }),
  },
  actions: {
    // Choosing an account leaves the serial, and what was said about it, as they were.
    storeDeviceId: assign(({ context }, edit: { value: string; accountId?: number }) => ({
      deviceId: edit.value,
      deviceError: edit.value === context.deviceId ? context.deviceError : null,
      accountId: edit.accountId ?? context.accountId,
    })),
    storeDeviceError: assign(({ context }) => ({ deviceError: deviceProblem(context.deviceId) })),
    storeCustomerSearch: assign((_, value: string) => ({ customerSearch: value })),
    storeCustomers: assign((_, customers: ActivationCustomer[]) => ({ customers, customersError: null })),
    storeCustomersError: assign((_, message: string) => ({ customersError: message.trim() || ACTIVATION_WIZARD_MESSAGES.customersFailed })),
    storeCustomer: assign((_, customer: ActivationCustomer | null) => ({ customer })),
    storeAddressSearch: assign((_, value: string) => ({ addressSearch: value })),
    storeAddresses: assign((_, addresses: ActivationAddress[]) => ({ addresses, addressesError: null })),
    storeAddressesError: assign((_, message: string) => ({ addressesError: message.trim() || ACTIVATION_WIZARD_MESSAGES.addressesFailed })),
    storeAddress: assign((_, addressReferenceId: string) => ({ addressReferenceId, addressError: null })),
    storeAddressError: assign({ addressError: ACTIVATION_WIZARD_MESSAGES.addressRequired }),
    // The problems show until the form is edited, and come back with the next Next.
    storeAddressField: assign(({ context }, { field, value }: { field: AddressField; value: string }) => ({
      addressForm: { ...context.addressForm, [field]: value },
      addressErrors: {},
    })),
    storeAddressErrors: assign(({ context }) => ({ addressErrors: addressProblems(context.addressForm) })),
    // One address at a time: choosing the other way starts it afresh.
    useExistingAddress: assign({ addressMode: 'existing' as const }),
    clearNewAddress: assign({ addressForm: EMPTY_ADDRESS, addressErrors: {} }),
    useNewAddress: assign({ addressMode: 'new' as const, addressReferenceId: null, addressError: null, addresses: [], addressesError: null, addressSearch: '' }),
    // Back leaves the step it leaves as it was before the user came to it.
    resetCustomerStep: assign(({ context }) => ({ customer: context.presetCustomer })),
    resetAddressStep: assign({
      addressMode: 'existing' as const,
      addresses: [],
      addressReferenceId: null,
      addressError: null,
      addressForm: EMPTY_ADDRESS,
      addressErrors: {},
    }),
    resetProductStep: assign({ plans: [], plansError: null, productReferenceId: null, productError: null }),
    resetNicknameStep: assign({ nickname: '', nicknameError: null }),
    leaveCustomers: assign({ customerSearch: '', customers: [], customersError: null }),
    leaveAddresses: assign({ addressSearch: '', addressesError: null }),
    storePlans: assign((_, plans: ActivationProduct[]) => ({ plans, plansError: null })),
    storePlansError: assign((_, message: string) => ({ plansError: message.trim() || ACTIVATION_WIZARD_MESSAGES.plansFailed })),
    storeProduct: assign((_, productReferenceId: string) => ({ productReferenceId, productError: null })),
    storeProductError: assign({ productError: ACTIVATION_WIZARD_MESSAGES.productRequired }),
    storeNickname: assign((_, value: string) => ({ nickname: value, nicknameError: null })),
    storeNicknameError: assign(({ context }) => ({ nicknameError: nicknameProblem(context.nickname) })),
    storeActivation: assign((_, activation: ActivationWire) => ({ activation })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    activated: (_, _activation: ActivationWire) => {},
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
  },
  guards: {
    isLoaded: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
    isCompleted: (_, outcome: ActivationOutcome) => outcome.ok && outcome.data.status === 'completed',
    isStopped: (_, outcome: ActivationOutcome) => outcome.ok,
    isDeviceValid: ({ context }) => deviceProblem(context.deviceId) === null,
    hasPresetCustomer: ({ context }) => context.presetCustomer !== null,
    /** A valid serial, and the customer preset: the customer step is skipped. */
    isDeviceValidForPreset: ({ context }) => deviceProblem(context.deviceId) === null && context.presetCustomer !== null,
    hasAddress: ({ context }) => context.addresses.some((a) => a.addressReferenceId === context.addressReferenceId),
    isAddressValid: ({ context }) => Object.keys(addressProblems(context.addressForm)).length === 0,
    isNewAddress: ({ context }) => context.addressMode === 'new',
    isKnownAddress: ({ context }, id: string) => context.addresses.some((a) => a.addressReferenceId === id),
    hasProduct: ({ context }) => context.plans.some((p) => p.productReferenceId === context.productReferenceId),
    isKnownProduct: ({ context }, id: string) => context.plans.some((p) => p.productReferenceId === id),
    isNicknameValid: ({ context }) => nicknameProblem(context.nickname) === null,
  },
});

const close = { 'user.close': { target: '#activationWizard.closed' } } as const;
const refusal = (output: ActivationOutcome) => failureText('activate the terminal', output.ok ? null : output.message);
const lineOf = (output: ActivationOutcome) => (output.ok ? (output.data.serviceLineNumber ?? '') : '');
const resumeRefusal = (output: ActivationOutcome) => failureText('resume the activation', output.ok ? null : output.message);

/**
 * What a start or a resume that got an answer leads to: the activation done, or stopped part-way
 * (both are answers with the activation; a refusal is the caller's fallback).
 */
const answered = [
  {
    guard: { type: 'isCompleted', params: ({ event }: { event: { output: ActivationOutcome } }) => event.output },
    target: '#activationWizard.done',
    actions: [
      { type: 'storeActivation', params: ({ event }: { event: { output: ActivationOutcome } }) => (event.output as { data: ActivationWire }).data },
      { type: 'activated', params: ({ event }: { event: { output: ActivationOutcome } }) => (event.output as { data: ActivationWire }).data },
      { type: 'notifySuccess', params: ({ event }: { event: { output: ActivationOutcome } }) => ACTIVATION_MESSAGES.completed(lineOf(event.output)) },
    ],
  },
  {
    guard: { type: 'isStopped', params: ({ event }: { event: { output: ActivationOutcome } }) => event.output },
    target: '#activationWizard.stopped',
    actions: [
      { type: 'storeActivation', params: ({ event }: { event: { output: ActivationOutcome } }) => (event.output as { data: ActivationWire }).data },
      { type: 'notifyFailure', params: ACTIVATION_MESSAGES.failed },
    ],
  },
] as const;

export const activationWizardMachine = activationWizardSetup.createMachine({
  id: 'activationWizard',
  context: ({ input }) => ({
    presetCustomer: input.customer,
    deviceId: '',
    deviceError: null,
    accountId: null,
    customer: input.customer,
    customerSearch: '',
    customers: [],
    customersError: null,
    addressSearch: '',
    addresses: [],
    addressesError: null,
    addressMode: 'existing',
    addressReferenceId: null,
    addressForm: EMPTY_ADDRESS,
    addressErrors: {},
    addressError: null,
    plans: [],
    plansError: null,
    productReferenceId: null,
    productError: null,
    nickname: '',
    nicknameError: null,
    activation: null,
    failure: null,
  }),
  initial: 'device',
  states: {
    device: {
      on: {
        'user.deviceId': { actions: { type: 'storeDeviceId', params: ({ event }) => event } },
        'user.next': [
          { guard: 'isDeviceValidForPreset', target: 'address' },
          { guard: 'isDeviceValid', target: 'customer' },
          { actions: 'storeDeviceError' },
        ],
        ...close,
      },
    },

    customer: {
      initial: 'loading',
      // Each visit lists the customers afresh, unfiltered; what the last one loaded goes.
      exit: 'leaveCustomers',
      on: {
        'user.customerSearch': { target: '.loading', reenter: true, actions: { type: 'storeCustomerSearch', params: ({ event }) => event.value } },
        'user.next': 'address',
        'user.back': { target: 'device', actions: 'resetCustomerStep' },
        ...close,
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadCustomers',
            src: 'loadCustomers',
            input: ({ context }) => context.customerSearch.trim(),
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'ready',
                actions: { type: 'storeCustomers', params: ({ event }) => (event.output.ok ? event.output.data : []) },
              },
              { target: 'failed', actions: { type: 'storeCustomersError', params: ({ event }) => (event.output.ok ? '' : event.output.message) } },
            ],
            onError: { target: 'failed', actions: { type: 'storeCustomersError', params: ACTIVATION_WIZARD_MESSAGES.customersFailed } },
          },
        },
        failed: { on: { 'user.retry': 'loading' } },
        ready: {
          on: { 'user.customer': { actions: { type: 'storeCustomer', params: ({ event }) => event.customer } } },
        },
      },
    },

    address: {
      initial: 'loading',
      // Each visit to the existing addresses lists them afresh, unfiltered.
      exit: 'leaveAddresses',
      on: {
        'user.back': [
          { guard: 'hasPresetCustomer', target: 'device', actions: 'resetAddressStep' },
          { target: 'customer', actions: 'resetAddressStep' },
        ],
        ...close,
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadAddresses',
            src: 'loadAddresses',
            input: ({ context }) => ({ search: context.addressSearch.trim(), accountId: context.accountId }),
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'existing',
                actions: { type: 'storeAddresses', params: ({ event }) => (event.output.ok ? event.output.data : []) },
              },
              { target: 'failed', actions: { type: 'storeAddressesError', params: ({ event }) => (event.output.ok ? '' : event.output.message) } },
            ],
            onError: { target: 'failed', actions: { type: 'storeAddressesError', params: ACTIVATION_WIZARD_MESSAGES.addressesFailed } },
          },
        },
        failed: {
          on: {
            'user.retry': 'loading',
            'user.newAddress': { target: 'new', actions: 'useNewAddress' },
          },
        },
        existing: {
          entry: 'useExistingAddress',
          on: {
            'user.addressSearch': { target: 'loading', actions: { type: 'storeAddressSearch', params: ({ event }) => event.value } },
            'user.address': {
              guard: { type: 'isKnownAddress', params: ({ event }) => event.addressReferenceId },
              actions: { type: 'storeAddress', params: ({ event }) => event.addressReferenceId },
            },
            'user.newAddress': { target: 'new', actions: 'useNewAddress' },
            'user.next': [{ guard: 'hasAddress', target: '#activationWizard.product' }, { actions: 'storeAddressError' }],
          },
        },
        new: {
          on: {
            'user.addressField': { actions: { type: 'storeAddressField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
            'user.existingAddress': { target: 'loading', actions: 'clearNewAddress' },
            'user.next': [{ guard: 'isAddressValid', target: '#activationWizard.product' }, { actions: 'storeAddressErrors' }],
          },
        },
      },
    },

    product: {
      initial: 'loading',
      on: {
        'user.back': [
          { guard: 'isNewAddress', target: 'address.new', actions: 'resetProductStep' },
          { target: 'address', actions: 'resetProductStep' },
        ],
        ...close,
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadPlans',
            src: 'loadPlans',
            // The plans sold on the chosen account (null: the portal's one account).
            input: ({ context }) => context.accountId,
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'ready',
                actions: { type: 'storePlans', params: ({ event }) => (event.output.ok ? event.output.data : []) },
              },
              { target: 'failed', actions: { type: 'storePlansError', params: ({ event }) => (event.output.ok ? '' : event.output.message) } },
            ],
            onError: { target: 'failed', actions: { type: 'storePlansError', params: ACTIVATION_WIZARD_MESSAGES.plansFailed } },
          },
        },
        failed: { on: { 'user.retry': 'loading' } },
        ready: {
          on: {
            'user.product': {
              guard: { type: 'isKnownProduct', params: ({ event }) => event.productReferenceId },
              actions: { type: 'storeProduct', params: ({ event }) => event.productReferenceId },
            },
            'user.next': [{ guard: 'hasProduct', target: '#activationWizard.nickname' }, { actions: 'storeProductError' }],
          },
        },
      },
    },

    nickname: {
      on: {
        'user.nickname': { actions: { type: 'storeNickname', params: ({ event }) => event.value } },
        'user.next': [{ guard: 'isNicknameValid', target: 'review' }, { actions: 'storeNicknameError' }],
        'user.back': { target: 'product.ready', actions: 'resetNicknameStep' },
        ...close,
      },
    },

    review: {
      on: {
        'user.confirm': 'running.starting',
        'user.back': { target: 'nickname', actions: 'clearFailure' },
        ...close,
      },
    },

    running: {
      tags: ['busy'],
      entry: 'clearFailure',
      initial: 'starting',
      states: {
        starting: {
          invoke: {
            id: 'startActivation',
            src: 'startActivation',
            input: ({ context }) => payloadOf(context),
            onDone: [
              ...answered,
              {
                target: '#activationWizard.review',
                actions: [
                  { type: 'storeFailure', params: ({ event }) => refusal(event.output) },
                  { type: 'notifyFailure', params: ({ event }) => refusal(event.output) },
                ],
              },
            ],
            onError: {
              target: '#activationWizard.review',
              actions: [
                { type: 'storeFailure', params: failureText('activate the terminal', null) },
                { type: 'notifyFailure', params: failureText('activate the terminal', null) },
              ],
            },
          },
        },
        resuming: {
          invoke: {
            id: 'resumeActivation',
            src: 'resumeActivation',
            input: ({ context }) => context.activation!.id,
            onDone: [
              ...answered,
              {
                target: '#activationWizard.stopped',
                actions: [
                  { type: 'storeFailure', params: ({ event }) => resumeRefusal(event.output) },
                  { type: 'notifyFailure', params: ({ event }) => resumeRefusal(event.output) },
                ],
              },
            ],
            onError: {
              target: '#activationWizard.stopped',
              actions: [
                { type: 'storeFailure', params: failureText('resume the activation', null) },
                { type: 'notifyFailure', params: failureText('resume the activation', null) },
              ],
            },
          },
        },
      },
    },

    done: { on: { ...close } },

    stopped: { on: { 'user.resume': 'running.resuming', ...close } },

    closed: { type: 'final' },
  },
});

export type ActivationWizardMachine = typeof activationWizardMachine;
