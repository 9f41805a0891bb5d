// Billing → Reconciliation: a leak's fixes (leakFix machine), walked on the machine and through the
// /billing/reconciliation page (billing a top-up at once, marking a line checked, cancelling a line
// after the question), plus a journey pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BILLING_MESSAGES, FIX_LABELS } from '../../../src/domain/billing';
import { LEAK_FIX_TEXTS, leakFixMachine } from '../../../src/machines/leak-fix';
import { KEEP_LINE } from '../../../src/ui/billing/reconciliation/ConfirmFixDialog';
import { RECONCILIATION_TEXTS as T } from '../../../src/ui/billing/reconciliation/parts';
import { ok, refused } from '../../machines/scripted-actors';
import { CYCLE, cancel, confirm, fixButtonName, fixEvent, resolved, startLeakFix, topUpLeak, unassignedLeak } from '../../fixtures/reconciliation';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { leakRow, openReconciliationPage } from './reconciliation-page';

const dialog = () => within(screen.getByRole('dialog', { name: LEAK_FIX_TEXTS.confirmTitle }));
const dialogButton = (name: string) => dialog().getByRole('button', { name }) as HTMLButtonElement;
/** Every fix button on the board. */
const fixButtons = () => screen.queryAllByRole('button', { name: new RegExp(`^(${Object.values(FIX_LABELS).join('|')}): `) }) as HTMLButtonElement[];

export const leakFixModel = defineModel<typeof leakFixMachine, PageScreen>({
  name: 'leak-fix',
  machine: leakFixMachine,
  events: {
    'user.fix': [fixEvent(topUpLeak, 'bill_top_ups'), fixEvent(unassignedLeak, 'mark_checked'), fixEvent(unassignedLeak, 'cancel_line')],
    'user.confirm': [confirm],
    'user.cancel': [cancel],
  },
  actorResults: [
    done('fixLeak', ok(resolved(topUpLeak, 'bill_top_ups'))),
    done('fixLeak', refused(BILLING_MESSAGES.fixNotAllowed)),
    failed('fixLeak', new TypeError('fetch failed')),
  ],
  states: {
    idle: (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.hasTag('open')).toBe(false);
    },
    fixing: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.action).not.toBe('cancel_line');
      expect(s.context.cycle).toBe(CYCLE);
    },
    'dialog.confirming': (s) => {
      expect(s.context.action).toBe('cancel_line');
      expect(s.hasTag('busy')).toBe(false);
    },
    'dialog.fixing': (s) => {
      expect(s.context.action).toBe('cancel_line');
      expect(s.can(cancel)).toBe(false);
    },
    done: (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.fixed?.resolution).not.toBeNull();
    },
  },
  ui: {
    open: (seam) => openReconciliationPage(seam),
    // A leak the page shows as handled offers no fix any more.
    drivable: (snapshot, event) => event.type !== 'user.fix' || snapshot.context.fixed?.key !== event.leak.key,
    events: {
      'user.fix': async ({ user }, event) => user.click(leakRow(event.leak).getByRole('button', { name: fixButtonName(event.leak, event.action) })),
      'user.confirm': async ({ user }) => user.click(dialogButton(FIX_LABELS.cancel_line)),
      'user.cancel': async ({ user }) => user.click(dialogButton(KEEP_LINE)),
    },
    states: {
      idle: ({ context }) => {
        expect(screen.queryByRole('dialog')).toBeNull();
        expect(fixButtons().length).toBeGreaterThan(0);
        for (const fix of fixButtons()) expect(fix.disabled, fix.getAttribute('aria-label') ?? '').toBe(false);
        if (context.failure && context.leak) expect(leakRow(context.leak).getByRole('alert').textContent).toBe(context.failure);
      },
      fixing: ({ context }) => {
        expect(fixButtons().length).toBeGreaterThan(0);
        for (const fix of fixButtons()) expect(fix.disabled).toBe(true);
        expect(leakRow(context.leak!).getByRole('button', { name: fixButtonName(context.leak!, context.action!) }).textContent).toBe(T.working);
      },
      'dialog.confirming': ({ context }) => {
        expect(dialog().getByText(LEAK_FIX_TEXTS.cancelQuestion(unassignedLeak.key))).toBeTruthy();
        if (context.failure) expect(dialog().getByText(context.failure)).toBeTruthy();
        expect(dialogButton(FIX_LABELS.cancel_line).disabled).toBe(false);
      },
      'dialog.fixing': () => {
        expect(dialogButton(T.working).disabled).toBe(true);
        expect(dialogButton(KEEP_LINE).disabled).toBe(true);
      },
      done: ({ context }) => {
        expect(screen.queryByRole('dialog')).toBeNull();
        const row = leakRow(context.fixed!);
        expect(row.getByText(T.handled)).toBeTruthy();
        expect(row.getByText(FIX_LABELS[context.fixed!.resolution!.action])).toBeTruthy();
        expect(row.queryByRole('button')).toBeNull();
      },
    },
  },
});

modelSuite(leakFixModel);

describe('leak fix machine (pinned journeys)', () => {
  it('a cancellation kept, a refused check, then the top-ups billed: one leak handled, two requests', async () => {
    const billed = resolved(topUpLeak, 'bill_top_ups');
    const { actor, called, leakFixed } = startLeakFix([refused(BILLING_MESSAGES.fixNotAllowed), ok(billed)]);
    actor.send(fixEvent(unassignedLeak, 'cancel_line'));
    actor.send(cancel);
    actor.send(fixEvent(unassignedLeak, 'mark_checked'));
    await waitFor(actor, (s) => s.matches('idle') && s.context.failure === BILLING_MESSAGES.fixNotAllowed);
    actor.send(fixEvent(topUpLeak, 'bill_top_ups'));
    const end = await waitFor(actor, (s) => s.matches('done'));
    expect(end.context).toMatchObject({ failure: null, fixed: billed });
    expect(called('fixLeak').map((c) => (c.input as { action: string }).action)).toEqual(['mark_checked', 'bill_top_ups']);
    expect(leakFixed).toHaveBeenCalledExactlyOnceWith(billed);
  });
});
