import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { created, field, fill, refused, startCreate } from './starters/customer-create';

describe('customer create machine (actor)', () => {
  it('opens on an empty form with 365 days, creates the customer with the trimmed payload, and announces it', async () => {
    const { actor, payloads, notifyCreated, customerCreated } = startCreate();
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    actor.send({ type: 'user.open' });
    expect(actor.getSnapshot().context.form).toEqual({ company: '', name: '', email: '', expirationDays: 365 });
    fill(actor);
    actor.send({ type: 'user.expiration', days: 90 });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('done'));
    expect(payloads).toHaveBeenCalledExactlyOnceWith({
      company: 'Northwind Shipping',
      name: 'Nina Park',
      email: 'ops@northwind.example',
      expirationDays: 90,
    });
    expect(notifyCreated).toHaveBeenCalledExactlyOnceWith({ email: created.email, name: created.name, company: created.company });
    expect(customerCreated).toHaveBeenCalledExactlyOnceWith(created);
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
  });

  it('an empty form is refused with every required message and sends nothing', () => {
    const { actor, payloads } = startCreate();
    actor.send({ type: 'user.open' });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({
      company: CUSTOMER_MESSAGES.companyRequired,
      name: CUSTOMER_MESSAGES.nameRequired,
      email: CUSTOMER_MESSAGES.emailRequired,
    });
    expect(payloads).not.toHaveBeenCalled();
  });

  it("a field's error clears when that field is edited, and only that one", () => {
    const { actor } = startCreate();
    actor.send({ type: 'user.open' });
    actor.send(field('email', 'not-an-address'));
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.errors.email).toBe(CUSTOMER_MESSAGES.emailInvalid);
    actor.send(field('email', 'not-an-address@'));
    expect(actor.getSnapshot().context.errors).toEqual({
      company: CUSTOMER_MESSAGES.companyRequired,
      name: CUSTOMER_MESSAGES.nameRequired,
      email: undefined,
    });
  });

  it('a duplicate email (409) lands on the email field, with the failure toast', async () => {
    const { actor, notifyFailure, customerCreated } = startCreate([refused(409, 'A customer with this email address already exists')]);
    fill(actor);
    actor.send({ type: 'user.submit' });
    const snapshot = await waitFor(actor, (s) => s.matches('editing'));
    expect(snapshot.context.errors.email).toBe('A customer with this email address already exists');
    expect(snapshot.context.failure).toBeNull();
    expect(notifyFailure).toHaveBeenCalledWith('Failed to create customer: A customer with this email address already exists');
    expect(customerCreated).not.toHaveBeenCalled();
  });

  it("the server's field errors (400) land on their fields", async () => {
    const { actor } = startCreate([
      refused(400, 'Invalid body', [
        { path: 'body.company', message: 'Company name is required' },
        { path: '/expiration_days', message: 'Account expiration must be between 1 and 3650 days' },
        { path: 'somethingElse', message: 'ignored' },
      ]),
    ]);
    fill(actor);
    actor.send({ type: 'user.submit' });
    const snapshot = await waitFor(actor, (s) => s.matches('editing'));
    expect(snapshot.context.errors).toEqual({
      company: 'Company name is required',
      expirationDays: 'Account expiration must be between 1 and 3650 days',
    });
  });

  it('a refusal with a message fails with "Failed to create customer: {message}"; without one, the generic text', async () => {
    const { actor, notifyFailure } = startCreate([refused(500, 'Mail server unavailable'), refused(502, ''), new TypeError('fetch failed')]);
    fill(actor);
    const failures: Array<string | null> = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      actor.send({ type: 'user.submit' });
      failures.push((await waitFor(actor, (s) => s.matches('failed'))).context.failure);
    }
    expect(failures).toEqual([
      'Failed to create customer: Mail server unavailable',
      CUSTOMER_MESSAGES.createFailedGeneric,
      CUSTOMER_MESSAGES.createFailedGeneric,
    ]);
    expect(notifyFailure.mock.calls.map(([m]) => m)).toEqual(failures);
  });

  it('Cancel is refused while the request runs, and works otherwise', () => {
    const { actor } = startCreate(['hang']);
    fill(actor);
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().can({ type: 'user.cancel' })).toBe(false);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('submitting');

    const second = startCreate();
    second.actor.send({ type: 'user.open' });
    second.actor.send({ type: 'user.cancel' });
    expect(second.actor.getSnapshot().value).toBe('closed');
  });

  it('opening again after a success starts from an empty form', async () => {
    const { actor } = startCreate();
    fill(actor);
    actor.send({ type: 'user.submit' });
    await waitFor(actor, (s) => s.matches('done'));
    actor.send({ type: 'user.open' });
    expect(actor.getSnapshot().context.form).toEqual({ company: '', name: '', email: '', expirationDays: 365 });
  });
});
