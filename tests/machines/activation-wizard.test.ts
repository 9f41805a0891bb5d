import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { ACTIVATION_MESSAGES } from '../../src/domain/activations';
import { ACTIVATION_WIZARD_MESSAGES, addressProblems, EMPTY_ADDRESS } from '../../src/machines/activation-wizard';
import { CUSTOMER, KIT, NEW_LINE, PLANS, activationFixture } from '../fixtures/activations';
import { ok, refused } from './scripted-actors';
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
  startActivationWizard,
  type Snapshot,
} from './starters/activation-wizard';

type Actor = ReturnType<typeof startActivationWizard>['actor'];
const at = (actor: Actor, value: Parameters<Snapshot['matches']>[0]) => waitFor(actor, (s) => s.matches(value) && !s.hasTag('loading'));

/** Device → (customer) → existing address → plan → nickname → review. */
async function toReview(actor: Actor, preset = false) {
  actor.send(deviceId(KIT));
  actor.send(next);
  if (!preset) {
    await at(actor, { customer: 'ready' });
    actor.send(pickCustomer(CUSTOMER));
    actor.send(next);
  }
  await at(actor, { address: 'existing' });
  actor.send(pickAddress('addr-1'));
  actor.send(next);
  await at(actor, { product: 'ready' });
  actor.send(pickProduct('plan-50'));
  actor.send(next);
  actor.send(nickname('Quay'));
  actor.send(next);
  expect(actor.getSnapshot().value).toBe('review');
}

describe('activation wizard: the form steps', () => {
  it('refuses a serial that is not a kit, dish or terminal id, and takes a kit serial', () => {
    const { actor } = startActivationWizard();
    actor.send(next);
    expect(actor.getSnapshot().context.deviceError).toBe(ACTIVATION_MESSAGES.deviceInvalid);
    actor.send(deviceId('KIT123'));
    expect(actor.getSnapshot().context.deviceError).toBeNull();
    actor.send(next);
    expect(actor.getSnapshot().matches('device')).toBe(true);
    actor.send(deviceId(` ${KIT} `));
    actor.send(next);
    expect(actor.getSnapshot().matches('customer')).toBe(true);
  });

  it('searches customers, may choose none, and Try Again after a failed load', async () => {
    const { actor, called } = startActivationWizard({ customers: [new TypeError('fetch failed'), ok([CUSTOMER])] });
    actor.send(deviceId(KIT));
    actor.send(next);
    const failed = await at(actor, { customer: 'failed' });
    expect(failed.context.customersError).toBe(ACTIVATION_WIZARD_MESSAGES.customersFailed);
    actor.send(retry);
    await at(actor, { customer: 'ready' });
    actor.send(customerSearch('harb'));
    await at(actor, { customer: 'ready' });
    expect(called('loadCustomers').map((c) => c.input)).toEqual(['', '', 'harb']);
    actor.send(pickCustomer(CUSTOMER));
    actor.send(pickCustomer(null));
    expect(actor.getSnapshot().context.customer).toBeNull();
    actor.send(back);
    expect(actor.getSnapshot().matches('device')).toBe(true);
  });

  it('skips the customer step, both ways, when the page presets the customer', async () => {
    const { actor, called } = startActivationWizard({}, CUSTOMER);
    actor.send(deviceId(KIT));
    actor.send(next);
    await at(actor, { address: 'existing' });
    expect(called('loadCustomers')).toEqual([]);
    actor.send(back);
    expect(actor.getSnapshot().matches('device')).toBe(true);
    expect(actor.getSnapshot().context.customer).toEqual(CUSTOMER);
  });

  it("reads the chosen provider account's addresses and plans, and starts the activation on it", async () => {
    const { actor, called } = startActivationWizard({}, CUSTOMER);
    actor.send({ type: 'user.deviceId', value: KIT, accountId: 2 });
    actor.send(next);
    await at(actor, { address: 'existing' });
    actor.send(pickAddress('addr-1'));
    actor.send(next);
    await at(actor, { product: 'ready' });
    expect(called('loadAddresses').map((c) => c.input)).toEqual([{ search: '', accountId: 2 }]);
    expect(called('loadPlans').map((c) => c.input)).toEqual([2]);
  });

  it('asks for an address, searches them, and checks a new one', async () => {
    const { actor, called } = startActivationWizard();
    actor.send(deviceId(KIT));
    actor.send(next);
    await at(actor, { customer: 'ready' });
    actor.send(next);
    await at(actor, { address: 'existing' });
    actor.send(next);
    expect(actor.getSnapshot().context.addressError).toBe(ACTIVATION_WIZARD_MESSAGES.addressRequired);
    actor.send(pickAddress('nowhere'));
    expect(actor.getSnapshot().context.addressReferenceId).toBeNull();
    actor.send(addressSearch('quay'));
    await at(actor, { address: 'existing' });
    expect(called('loadAddresses').map((c) => c.input)).toEqual([
      { search: '', accountId: null },
      { search: 'quay', accountId: null },
    ]);
    actor.send(newAddress);
    actor.send(addressField('latitude', '91'));
    actor.send(next);
    expect(actor.getSnapshot().context.addressErrors).toEqual({
      addressLine1: ACTIVATION_WIZARD_MESSAGES.addressLineRequired,
      formattedAddress: ACTIVATION_WIZARD_MESSAGES.formattedRequired,
      latitude: ACTIVATION_WIZARD_MESSAGES.latitudeRange,
      longitude: ACTIVATION_WIZARD_MESSAGES.longitudeRange,
    });
    actor.send(addressField('latitude', '50.8'));
    expect(actor.getSnapshot().context.addressErrors).toEqual({});
    actor.send(existingAddress);
    const existing = await at(actor, { address: 'existing' });
    expect(existing.context).toMatchObject({ addressMode: 'existing', addressForm: EMPTY_ADDRESS });
  });

  it('addressProblems: required fields and the coordinates’ ranges', () => {
    const good = { ...EMPTY_ADDRESS, addressLine1: '1 Quay Road', formattedAddress: '1 Quay Road, Portsmouth', latitude: '-90', longitude: '180' };
    expect(addressProblems(good)).toEqual({});
    expect(addressProblems({ ...good, longitude: '-180.5' })).toEqual({ longitude: ACTIVATION_WIZARD_MESSAGES.longitudeRange });
    expect(addressProblems({ ...good, latitude: 'north' })).toEqual({ latitude: ACTIVATION_WIZARD_MESSAGES.latitudeRange });
  });

  it('requires a plan, limits the nickname, and Back walks the steps back', async () => {
    const { actor } = startActivationWizard({ plans: [refused('No provider'), ok(PLANS)] });
    actor.send(deviceId(KIT));
    actor.send(next);
    await at(actor, { customer: 'ready' });
    actor.send(next);
    await at(actor, { address: 'existing' });
    actor.send(pickAddress('addr-2'));
    actor.send(next);
    const failed = await at(actor, { product: 'failed' });
    expect(failed.context.plansError).toBe('No provider');
    actor.send(retry);
    await at(actor, { product: 'ready' });
    actor.send(next);
    expect(actor.getSnapshot().context.productError).toBe(ACTIVATION_WIZARD_MESSAGES.productRequired);
    actor.send(pickProduct('plan-1tb'));
    actor.send(next);
    actor.send(nickname('x'.repeat(101)));
    actor.send(next);
    expect(actor.getSnapshot().context.nicknameError).toBe(ACTIVATION_MESSAGES.nicknameTooLong);
    actor.send(back);
    expect(actor.getSnapshot().matches({ product: 'ready' })).toBe(true);
    actor.send(back);
    const again = await at(actor, { address: 'existing' });
    expect(again.context.addressReferenceId).toBe('addr-2');
  });
});

describe('activation wizard: running', () => {
  it('sends the chosen kit, customer, address, plan and nickname; done names the new line and refreshes the page', async () => {
    const { actor, called, activated, notifySuccess } = startActivationWizard();
    await toReview(actor);
    actor.send(confirm);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(close)).toBe(false);
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(called('startActivation').map((c) => c.input)).toEqual([
      { deviceId: KIT, customerUuid: CUSTOMER.uuid, addressReferenceId: 'addr-1', productReferenceId: 'plan-50', nickname: 'Quay' },
    ]);
    expect(done.context.activation?.serviceLineNumber).toBe(NEW_LINE);
    expect(activated).toHaveBeenCalledExactlyOnceWith(activationFixture());
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ACTIVATION_MESSAGES.completed(NEW_LINE));
    actor.send(close);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('sends a new address with its lines and coordinates', async () => {
    const { actor, called } = startActivationWizard({}, CUSTOMER);
    actor.send(deviceId(KIT));
    actor.send(next);
    await at(actor, { address: 'existing' });
    actor.send(newAddress);
    for (const [field, value] of [
      ['addressLine1', '1 Quay Road'],
      ['locality', 'Portsmouth'],
      ['region', 'Hampshire'],
      ['postalCode', 'PO1 1AA'],
      ['formattedAddress', '1 Quay Road, Portsmouth PO1 1AA'],
      ['latitude', '50.8'],
      ['longitude', '-1.09'],
    ] as const)
      actor.send(addressField(field, value));
    actor.send(next);
    await at(actor, { product: 'ready' });
    actor.send(pickProduct('plan-50'));
    actor.send(next);
    actor.send(next);
    actor.send(back);
    actor.send(back);
    actor.send(back);
    expect(actor.getSnapshot().matches({ address: 'new' })).toBe(true);
    // Back left the plan step as it was before: the plan is chosen again.
    expect(actor.getSnapshot().context.productReferenceId).toBeNull();
    actor.send(next);
    await at(actor, { product: 'ready' });
    actor.send(pickProduct('plan-50'));
    actor.send(next);
    actor.send(next);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('done'));
    expect(called('startActivation')[0]!.input).toEqual({
      deviceId: KIT,
      customerUuid: CUSTOMER.uuid,
      newAddress: {
        addressLines: ['1 Quay Road'],
        locality: 'Portsmouth',
        region: 'Hampshire',
        postalCode: 'PO1 1AA',
        formattedAddress: '1 Quay Road, Portsmouth PO1 1AA',
        latitude: 50.8,
        longitude: -1.09,
      },
      productReferenceId: 'plan-50',
      nickname: null,
    });
  });

  it('a refused start goes back to the review with the server’s words; no answer too', async () => {
    const { actor, notifyFailure } = startActivationWizard({ start: [refused(ACTIVATION_MESSAGES.inProgress), new TypeError('fetch failed')] });
    await toReview(actor);
    actor.send(confirm);
    const refusedAt = await waitFor(actor, (s) => s.matches('review') && s.context.failure !== null);
    expect(refusedAt.context.failure).toBe(`Failed to activate the terminal: ${ACTIVATION_MESSAGES.inProgress}`);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('review') && s.context.failure === 'Failed to activate the terminal. Please try again.');
    expect(notifyFailure).toHaveBeenCalledTimes(2);
  });

  it('a failed activation stops with the steps done and its error; Resume continues it to done', async () => {
    const stopped = activationFixture({}, 'attach');
    const { actor, called, activated, notifyFailure } = startActivationWizard({
      start: [ok(stopped)],
      resume: [refused(ACTIVATION_MESSAGES.notResumable), ok(stopped), ok(activationFixture())],
    });
    await toReview(actor);
    actor.send(confirm);
    const at1 = await waitFor(actor, (s) => s.matches('stopped'));
    expect(at1.context.activation).toEqual(stopped);
    expect(notifyFailure).toHaveBeenLastCalledWith(ACTIVATION_MESSAGES.failed);
    expect(activated).not.toHaveBeenCalled();
    actor.send(resume);
    const at2 = await waitFor(actor, (s) => s.matches('stopped') && s.context.failure !== null);
    expect(at2.context.failure).toBe(`Failed to resume the activation: ${ACTIVATION_MESSAGES.notResumable}`);
    actor.send(resume);
    await waitFor(actor, (s) => s.matches('stopped') && s.context.failure === null && called('resumeActivation').length === 2);
    actor.send(resume);
    await waitFor(actor, (s) => s.matches('done'));
    expect(called('resumeActivation').map((c) => c.input)).toEqual(['act-1', 'act-1', 'act-1']);
    expect(activated).toHaveBeenCalledOnce();
  });

  it('Close leaves from any form step, and from stopped', async () => {
    const first = startActivationWizard();
    first.actor.send(close);
    expect(first.actor.getSnapshot().status).toBe('done');
    const second = startActivationWizard({ start: [ok(activationFixture({}, 'line'))] });
    await toReview(second.actor);
    second.actor.send(confirm);
    await waitFor(second.actor, (s) => s.matches('stopped'));
    second.actor.send(close);
    expect(second.actor.getSnapshot().value).toBe('closed');
  });
});

