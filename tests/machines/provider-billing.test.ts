import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { PROVIDER_BILLING_MESSAGES, PROVIDER_BILLING_TEXTS } from '../../src/domain/provider-billing';
import { NEWEST, OLDER, billingFixture, invoiceFixture } from '../fixtures/provider-billing';
import { ok, refused } from './scripted-actors';
import { billing, closeInvoice, invoice, openInvoice, refresh, retry, retryInvoice, startProviderBilling } from './starters/provider-billing';

type Actor = ReturnType<typeof startProviderBilling>['actor'];
const ready = (actor: Actor) => waitFor(actor, (s) => s.matches({ ready: { overview: 'idle' } }));
const invoiceIn = (actor: Actor, step: 'none' | 'loading' | 'shown' | 'failed') => waitFor(actor, (s) => s.matches({ ready: { invoice: step } }));

describe('provider billing machine: the balances and invoices', () => {
  it('loads them, then shows them with no invoice open', async () => {
    const { actor, called } = startProviderBilling();
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    const snapshot = await ready(actor);
    expect(snapshot.context).toMatchObject({ billing, error: null });
    expect(snapshot.matches({ ready: { invoice: 'none' } })).toBe(true);
    expect(called('loadBilling')).toHaveLength(1);
  });

  it.each([
    ['a refusal keeps the server’s words', refused('The provider did not answer in time'), 'The provider did not answer in time'],
    ['a refusal without words', refused(' '), PROVIDER_BILLING_MESSAGES.loadFailed],
    ['a bug in the load', new TypeError('boom'), PROVIDER_BILLING_MESSAGES.loadFailed],
  ])('%s, and Try Again loads again', async (_name, answer, message) => {
    const { actor, called } = startProviderBilling({ billing: [answer, ok(billing)] });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context).toMatchObject({ billing: null, error: message });
    expect(failed.can(refresh)).toBe(false);
    expect(failed.can(openInvoice(NEWEST))).toBe(false);
    actor.send(retry);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect((await ready(actor)).context).toMatchObject({ billing, error: null });
    expect(called('loadBilling')).toHaveLength(2);
  });

  it('Refresh reloads in place: the data stays on screen while it runs, and Refresh is not offered again meanwhile', async () => {
    const { actor } = startProviderBilling({ billing: [ok(billing), 'hang'] });
    await ready(actor);
    actor.send(refresh);
    const refreshing = actor.getSnapshot();
    expect(refreshing.hasTag('refreshing')).toBe(true);
    expect(refreshing.context.billing).toEqual(billing);
    expect(refreshing.can(refresh)).toBe(false);
  });

  it('a refresh’s answer replaces the balances and invoices', async () => {
    const paid = billingFixture({ balances: [{ currency: 'USD', dueAmount: 0 }] });
    const { actor } = startProviderBilling({ billing: [ok(billing), ok(paid)] });
    await ready(actor);
    actor.send(refresh);
    const after = await waitFor(actor, (s) => s.matches({ ready: { overview: 'idle' } }) && s.context.billing === paid);
    expect(after.context.error).toBeNull();
  });

  it('a failed refresh keeps the balances and invoices with its reason; the next success clears it', async () => {
    const { actor } = startProviderBilling({ billing: [ok(billing), refused('Provider unavailable'), new TypeError('boom'), ok(billing)] });
    await ready(actor);
    actor.send(refresh);
    expect((await waitFor(actor, (s) => s.matches({ ready: { overview: 'idle' } }) && s.context.error !== null)).context).toMatchObject({
      billing,
      error: 'Provider unavailable',
    });
    actor.send(refresh);
    expect((await waitFor(actor, (s) => s.matches({ ready: { overview: 'idle' } }) && s.context.error !== 'Provider unavailable')).context.error).toBe(
      PROVIDER_BILLING_MESSAGES.loadFailed,
    );
    actor.send(refresh);
    expect((await waitFor(actor, (s) => s.matches({ ready: { overview: 'idle' } }) && s.context.error === null)).context.billing).toEqual(billing);
  });
});

describe('provider billing machine: an invoice', () => {
  it('opens the invoice asked for, shows its lines, and closes', async () => {
    const { actor, called } = startProviderBilling();
    await ready(actor);
    actor.send(openInvoice(NEWEST));
    expect(actor.getSnapshot().hasTag('loadingInvoice')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ invoiceId: NEWEST, invoice: null });
    const shown = await invoiceIn(actor, 'shown');
    expect(shown.context).toMatchObject({ invoiceId: NEWEST, invoice, invoiceError: null });
    expect(called('loadInvoice').map((c) => c.input)).toEqual([NEWEST]);
    actor.send(closeInvoice);
    expect(actor.getSnapshot().matches({ ready: { invoice: 'none' } })).toBe(true);
    expect(actor.getSnapshot().can(closeInvoice)).toBe(false);
  });

  it.each([
    ['an unknown invoice keeps the server’s words', refused(PROVIDER_BILLING_MESSAGES.invoiceNotFound), PROVIDER_BILLING_MESSAGES.invoiceNotFound],
    ['a refusal without words', refused(''), PROVIDER_BILLING_TEXTS.invoiceLoadFailed],
    ['a bug in the load', new TypeError('boom'), PROVIDER_BILLING_TEXTS.invoiceLoadFailed],
  ])('%s, and Try Again asks for the same invoice again', async (_name, answer, message) => {
    const { actor, called } = startProviderBilling({ invoice: [answer, ok(invoice)] });
    await ready(actor);
    actor.send(openInvoice(NEWEST));
    expect((await invoiceIn(actor, 'failed')).context).toMatchObject({ invoiceId: NEWEST, invoice: null, invoiceError: message });
    actor.send(retryInvoice);
    expect(actor.getSnapshot().context.invoiceError).toBeNull();
    expect((await invoiceIn(actor, 'shown')).context.invoice).toEqual(invoice);
    expect(called('loadInvoice').map((c) => c.input)).toEqual([NEWEST, NEWEST]);
  });

  it('opening another invoice while one loads cancels the first: its request is aborted and only the second is shown', async () => {
    const older = invoiceFixture({ invoiceId: OLDER });
    const { actor, called } = startProviderBilling({ invoice: ['hang', ok(older)] });
    await ready(actor);
    actor.send(openInvoice(NEWEST));
    await waitFor(actor, () => called('loadInvoice').length === 1);
    actor.send(openInvoice(OLDER));
    const shown = await invoiceIn(actor, 'shown');
    expect(shown.context).toMatchObject({ invoiceId: OLDER, invoice: older });
    expect(called('loadInvoice').map((c) => c.input)).toEqual([NEWEST, OLDER]);
    expect(called('loadInvoice').map((c) => c.signal.aborted)).toEqual([true, false]);
  });

  it('closing while an invoice loads aborts its request', async () => {
    const { actor, called } = startProviderBilling({ invoice: ['hang'] });
    await ready(actor);
    actor.send(openInvoice(NEWEST));
    await waitFor(actor, () => called('loadInvoice').length === 1);
    actor.send(closeInvoice);
    expect(actor.getSnapshot().matches({ ready: { invoice: 'none' } })).toBe(true);
    expect(called('loadInvoice')[0]!.signal.aborted).toBe(true);
  });

  it('a shown invoice stays open through a refresh of the balances and invoices', async () => {
    const { actor, called } = startProviderBilling();
    await ready(actor);
    actor.send(openInvoice(NEWEST));
    await invoiceIn(actor, 'shown');
    actor.send(refresh);
    expect(actor.getSnapshot().matches({ ready: { overview: 'refreshing', invoice: 'shown' } })).toBe(true);
    const after = await ready(actor);
    expect(after.matches({ ready: { invoice: 'shown' } })).toBe(true);
    expect(called('loadInvoice')).toHaveLength(1);
    expect(called('loadBilling')).toHaveLength(2);
  });
});
