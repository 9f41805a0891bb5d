// Activating a terminal: a kit (or dish) serial taken from the box to an active, named line,
// optionally assigned to a customer, through the provider's steps. The record keeps each step as
// it completes, so a failure part-way stops with what was done and Resume continues from there.
// Shared by the server (answers, validation) and the client (the wizard's texts).

/** In the order they run. `address` is done at once when an existing address was chosen. */
export const ACTIVATION_STEPS = ['terminal', 'address', 'line', 'attach', 'nickname', 'store', 'assign'] as const;
export type ActivationStep = (typeof ACTIVATION_STEPS)[number];

export const ACTIVATION_STEP_LABELS: Record<ActivationStep, string> = {
  terminal: 'Add the terminal to the account',
  address: 'Service address',
  line: 'Create the service line',
  attach: 'Put the terminal on the line',
  nickname: 'Name the line',
  store: 'Add it to the inventory',
  assign: 'Assign it to the customer',
};

export type ActivationStatus = 'running' | 'failed' | 'completed';

/** A kit serial (KIT + 8 digits), a dish serial (4 letters or digits + 8 digits) or a user terminal id. */
export const DEVICE_ID_PATTERN = /^(KIT\d{8}|[0-9A-Z]{4}\d{8}|[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8})$/i;
export const ACTIVATION_NICKNAME_MAX_LENGTH = 100;

export interface NewAddressInput {
  addressLines: string[];
  locality?: string | null;
  administrativeArea?: string | null;
  region?: string | null;
  postalCode?: string | null;
  formattedAddress: string;
  latitude: number;
  longitude: number;
}

/** `POST /activations`: one of `addressReferenceId` (an address of the account) or `newAddress`. */
export interface ActivationPayload {
  deviceId: string;
  customerUuid?: string | null;
  /** The provider account to activate under; absent: the first enabled account. */
  accountId?: number | null;
  addressReferenceId?: string | null;
  newAddress?: NewAddressInput | null;
  productReferenceId: string;
  nickname?: string | null;
}

export interface ActivationStepWire {
  step: ActivationStep;
  label: string;
  /** ISO time the step completed, or null. */
  doneAt: string | null;
  /** Skipped: nothing to do (no nickname, no customer, an existing address). */
  skipped: boolean;
}

export interface ActivationWire {
  id: string;
  deviceId: string;
  status: ActivationStatus;
  steps: ActivationStepWire[];
  customer: { uuid: string; name: string } | null;
  productReferenceId: string;
  nickname: string | null;
  addressReferenceId: string | null;
  userTerminalId: string | null;
  serviceLineNumber: string | null;
  /** Why the last run stopped (the provider's words where it gave some). */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `GET /activations/addresses`: an address of the account to put a new line at. */
export interface ActivationAddressWire {
  addressReferenceId: string;
  formattedAddress: string | null;
  locality: string | null;
  region: string | null;
}
/** At most this many addresses are answered; the search narrows them. */
export const ACTIVATION_ADDRESSES_LIMIT = 50;
export const ACTIVATION_ADDRESS_SEARCH_MAX_LENGTH = 100;

export const ACTIVATION_MESSAGES = {
  completed: (line: string) => `Terminal activated on ${line}`,
  failed: 'The activation stopped part-way: resume it once the cause is fixed',
  deviceInvalid: 'Enter a kit serial (KIT and 8 digits), a dish serial or a user terminal id',
  addressChoice: 'Choose one of the account’s addresses or enter a new one',
  productUnknown: 'That product is not sold on this account',
  customerUnknown: 'Customer not found',
  customerBlocked: 'The customer is blocked: unblock them first',
  customerExpired: 'The customer’s account has expired: extend it first',
  inProgress: 'This kit already has an activation in progress: resume it',
  unknownAccount: 'No provider account with that id',
  addressOtherAccount: 'That address belongs to another provider account: choose one of this account\u2019s addresses',
  notFound: 'Activation not found',
  notResumable: 'This activation is running or already done',
  alreadyOnLine: (line: string) => `This kit is already on service line ${line}`,
  nicknameTooLong: `Nickname must be at most ${ACTIVATION_NICKNAME_MAX_LENGTH} characters`,
} as const;
