// Starts the activationWizard machine with scripted answers for its loads and requests, and
// recorded effects: shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { ActivationPayload } from '../../../src/domain/activations';
import {
  activationWizardMachine,
  type ActivationAddress,
  type ActivationCustomer,
  type ActivationOutcome,
  type ActivationProduct,
  type AddressField,
  type AddressQuery,
} from '../../../src/machines/activation-wizard';
import type { LoadOutcome } from '../../../src/machines/resource';
import { ADDRESSES, CUSTOMER, PLANS, activationFixture } from '../../fixtures/activations';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export interface Answers {
  customers?: ReadonlyArray<Answer<LoadOutcome<ActivationCustomer[]>>>;
  addresses?: ReadonlyArray<Answer<LoadOutcome<ActivationAddress[]>>>;
  plans?: ReadonlyArray<Answer<LoadOutcome<ActivationProduct[]>>>;
  start?: ReadonlyArray<Answer<ActivationOutcome>>;
  resume?: ReadonlyArray<Answer<ActivationOutcome>>;
}

export function startActivationWizard(answers: Answers = {}, customer: ActivationCustomer | null = null) {
  const { calls, called, answer } = scriptedActors();
  const activated = vi.fn();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const actor = createActor(
    activationWizardMachine.provide({
      actors: {
        loadCustomers: answer<LoadOutcome<ActivationCustomer[]>, string>('loadCustomers', answers.customers ?? [ok([CUSTOMER])]),
        loadAddresses: answer<LoadOutcome<ActivationAddress[]>, AddressQuery>('loadAddresses', answers.addresses ?? [ok(ADDRESSES)]),
        loadPlans: answer<LoadOutcome<ActivationProduct[]>, number | null>('loadPlans', answers.plans ?? [ok(PLANS)]),
        startActivation: answer<ActivationOutcome, ActivationPayload>('startActivation', answers.start ?? [ok(activationFixture())]),
        resumeActivation: answer<ActivationOutcome, string>('resumeActivation', answers.resume ?? [ok(activationFixture())]),
      },
      actions: {
        activated: (_, activation) => activated(activation),
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
      },
    }),
    { input: { customer } },
  ).start();
  return { actor, calls, called, activated, notifySuccess, notifyFailure };
}

export type Snapshot = SnapshotFrom<typeof activationWizardMachine>;

export const next = { type: 'user.next' } as const;
export const back = { type: 'user.back' } as const;
export const confirm = { type: 'user.confirm' } as const;
export const resume = { type: 'user.resume' } as const;
export const close = { type: 'user.close' } as const;
export const retry = { type: 'user.retry' } as const;
export const newAddress = { type: 'user.newAddress' } as const;
export const existingAddress = { type: 'user.existingAddress' } as const;
export const deviceId = (value: string) => ({ type: 'user.deviceId', value }) as const;
export const customerSearch = (value: string) => ({ type: 'user.customerSearch', value }) as const;
export const pickCustomer = (customer: ActivationCustomer | null) => ({ type: 'user.customer', customer }) as const;
export const addressSearch = (value: string) => ({ type: 'user.addressSearch', value }) as const;
export const pickAddress = (addressReferenceId: string) => ({ type: 'user.address', addressReferenceId }) as const;
export const addressField = (field: AddressField, value: string) => ({ type: 'user.addressField', field, value }) as const;
export const pickProduct = (productReferenceId: string) => ({ type: 'user.product', productReferenceId }) as const;
export const nickname = (value: string) => ({ type: 'user.nickname', value }) as const;
