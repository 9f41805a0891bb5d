// Billing → Reconciliation through the whole client (composition root, router, session, the board
// resource, the leak fix machine, the views) against a fake of the portal API at the fetch seam
// that keeps the board's leaks and marks them handled when a fix is posted.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { AdminUser } from '../../src/domain/auth';
import { FIX_LABELS, LEAK_KINDS, LEAK_LABELS, cycleOf, shiftCycle, type FixAction, type ReconciliationWire } from '../../src/domain/billing';
import { LEAK_FIX_TEXTS } from '../../src/machines/leak-fix';
import { KEEP_LINE } from '../../src/ui/billing/reconciliation/ConfirmFixDialog';
import { RECONCILIATION_TEXTS as T } from '../../src/ui/billing/reconciliation/parts';
import { adminProfile, userProfile } from '../machines/fixtures';
import { CYCLE, boardWire, byKind, fixButtonName, handledLeak, smallUnassignedLeak, topUpLeak, unassignedLeak } from '../fixtures/reconciliation';
import { enteredDialog } from './dialogs';
import { openSignedInAt } from './open-app';
import { fakePortalApi } from '../model/framework/screen';
import { envelope, refusalBody } from '../fixtures/api-fetch';

/** The portal API over the tests' one fake, keeping the board: a posted fix marks its leak handled. */
function boardApi(profile: AdminUser = adminProfile, initial: ReconciliationWire = boardWire(), accounts: { id: number; name: string }[] = [{ id: 1, name: 'Demo US' }]) {
  let board = initial;
  const bodies: Array<[string, unknown]> = [];
  const accountOf = (url: URL) => accounts.find((a) => String(a.id) === url.searchParams.get('account_id')) ?? accounts[0]!;
  const portal = fakePortalApi(
    {
      'GET /api/v1/provider-accounts/refs': { body: envelope(accounts) },
      'GET /api/v1/billing/reconciliation': ({ url }) => ({ body: envelope({ ...board, cycle: url.searchParams.get('cycle') ?? board.cycle, account: accountOf(url) }) }),
      'POST /api/v1/billing/reconciliation/fix': ({ body }) => {
        bodies.push(['POST /api/v1/billing/reconciliation/fix', body]);
        const fix = body as { kind: string; key: string; action: FixAction };
        const leak = board.leaks.find((l) => l.kind === fix.kind && l.key === fix.key);
        if (!leak) return { status: 404, body: refusalBody('This leak is no longer on the board') };
        const fixed = { ...leak, resolution: { action: fix.action, at: '2026-11-26T10:00:00.000Z', by: profile.name, note: null } };
        const leaks = board.leaks.map((l) => (l === leak ? fixed : l));
        board = { ...board, leaks, byKind: byKind(leaks), openLeakMinor: board.openLeakMinor - leak.amountMinor };
        return { body: envelope({ leak: fixed }) };
      },
      'POST /api/v1/billing/invoices/import': ({ body }) => {
        if (body !== undefined) bodies.push(['POST /api/v1/billing/invoices/import', body]);
        board = { ...board, invoice: { invoiceId: 'INV-2026-10', amountMinor: 1_260_000, status: 'Outstanding' }, costEstimated: false };
        return { body: envelope({ imported: 1, updated: 0 }) };
      },
    },
    profile,
  );
  return { ...portal, bodies };
}

const section = async (kind: (typeof LEAK_KINDS)[number]) => within(await screen.findByRole('region', { name: LEAK_LABELS[kind] }, { timeout: 5000 }));
const card = (title: string) => within(screen.getByRole('region', { name: title }));

describe('Reconciliation board', () => {
  it('with two provider accounts asks whose board to read, keeps the account in the address, fixes on that account\'s board, and names what is billed in another currency', async () => {
    const two = [{ id: 1, name: 'Demo US' }, { id: 2, name: 'Demo Brasil' }];
    const api = boardApi(adminProfile, boardWire({ otherCurrencies: [{ currency: 'BRL', lines: 2, billedMinor: 51_000 }] }), two);
    const { user, location } = openSignedInAt(`/billing/reconciliation?cycle=${CYCLE}`, api.fetch);
    const picker = (await screen.findByLabelText('Account', {}, { timeout: 5000 })) as HTMLInputElement;
    await waitFor(() => expect(picker.value).toBe('Demo US'));
    expect(screen.getByText(T.otherCurrencies('USD', [{ currency: 'BRL', lines: 2, billedMinor: 51_000 }]))).toBeTruthy();
    await user.click(picker.closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Demo Brasil' }));
    await waitFor(() => expect(api.calls).toContain(`GET /api/v1/billing/reconciliation?cycle=${CYCLE}&account_id=2`));
    expect(location()).toContain('account=2');
    await user.click(await (await section('unassigned')).findByRole('button', { name: fixButtonName(unassignedLeak, 'mark_checked') }));
    await waitFor(() => expect(api.bodies).toContainEqual(['POST /api/v1/billing/reconciliation/fix', expect.objectContaining({ key: unassignedLeak.key, accountId: 2 })]));
  });

  it('with one provider account shows no account to choose and asks for the board as before', async () => {
    const api = boardApi();
    openSignedInAt(`/billing/reconciliation?cycle=${CYCLE}`, api.fetch);
    await section('unassigned');
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/provider-accounts/refs'));
    expect(screen.queryByLabelText('Account')).toBeNull();
    const asked = api.calls.filter((c) => c.startsWith('GET /api/v1/billing/reconciliation'));
    expect(new Set(asked)).toEqual(new Set([`GET /api/v1/billing/reconciliation?cycle=${CYCLE}`]));
  });

  it('asks for the current cycle by default, says the cost is an estimate, and shows the totals with a negative margin in red', async () => {
    const api = boardApi();
    openSignedInAt('/billing/reconciliation', api.fetch);
    expect(await screen.findByText(T.estimateBanner, {}, { timeout: 5000 })).toBeTruthy();
    expect(api.calls).toContain(`GET /api/v1/billing/reconciliation?cycle=${cycleOf(new Date())}`);
    expect(card(T.providerCost).getByText('USD 12500.00')).toBeTruthy();
    expect(card(T.providerCost).getByText(T.estimate)).toBeTruthy();
    expect(card(T.billed).getByText('USD 12000.00')).toBeTruthy();
    expect(card(T.billed).getByText(T.statements(14))).toBeTruthy();
    expect(card(T.margin).getByText('USD -500.00').className).toContain('amount-negative');
    expect(card(T.atStake).getByText('USD 249.00')).toBeTruthy();
    expect(card(T.atStake).getByText(T.openLeaks(7))).toBeTruthy();
  });

  it('shows a section per kind with its count and amount, the largest leak first and the handled one last, muted, with who handled it', async () => {
    const api = boardApi();
    openSignedInAt(`/billing/reconciliation?cycle=${CYCLE}`, api.fetch);
    for (const kind of LEAK_KINDS) await section(kind);
    const unassigned = await section('unassigned');
    expect(unassigned.getByText(T.kindSummary(2, 'USD 77.00'))).toBeTruthy();
    expect((await section('below_cost')).getByText(T.kindSummary(1, 'USD 10.00'))).toBeTruthy();
    expect((await section('missing_from_invoice')).getByText(T.kindSummary(1, 'USD 0.00'))).toBeTruthy();
    const rows = unassigned.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([unassignedLeak.key, smallUnassignedLeak.key, handledLeak.key]);
    expect(rows[2]!.className).toContain('leak-resolved');
    expect(within(rows[2]!).getByText(FIX_LABELS.mark_checked)).toBeTruthy();
    expect(within(rows[2]!).getByText(/^by Ana Lima, /)).toBeTruthy();
    expect(within(rows[2]!).queryByRole('button')).toBeNull();
    expect(screen.getByRole('img', { name: /^Amount at stake per kind of leak: No customer: USD 77.00/ })).toBeTruthy();
  });

  it('a fix posts the cycle, the leak and the action, and the leak then shows what was done, by whom and when', async () => {
    const api = boardApi();
    const { user } = openSignedInAt(`/billing/reconciliation?cycle=${CYCLE}`, api.fetch);
    const topUps = await section('unbilled_top_up');
    await user.click(topUps.getByRole('button', { name: fixButtonName(topUpLeak, 'bill_top_ups') }));
    await waitFor(() => expect(api.bodies).toContainEqual(['POST /api/v1/billing/reconciliation/fix', { cycle: CYCLE, kind: 'unbilled_top_up', key: topUpLeak.key, action: 'bill_top_ups' }]));
    const row = await waitFor(() => {
      const found = topUps.getByText(topUpLeak.detail).closest('tr') as HTMLElement;
      expect(found.className).toContain('leak-resolved');
      return within(found);
    });
    expect(row.getByText(T.handled)).toBeTruthy();
    expect(row.getByText(FIX_LABELS.bill_top_ups)).toBeTruthy();
    expect(row.getByText(/^by Ana Lima, /)).toBeTruthy();
    expect(row.queryByRole('button')).toBeNull();
    // The board reloads: the top-ups are no longer at stake.
    await waitFor(() => expect(card(T.atStake).getByText('USD 199.00')).toBeTruthy());
  });

  it('cancelling a line asks first: keeping it sends nothing, confirming sends the fix', async () => {
    const api = boardApi();
    const { user } = openSignedInAt(`/billing/reconciliation?cycle=${CYCLE}`, api.fetch);
    const unassigned = await section('unassigned');
    await user.click(unassigned.getByRole('button', { name: fixButtonName(unassignedLeak, 'cancel_line') }));
    let dialog = within(await enteredDialog(LEAK_FIX_TEXTS.confirmTitle));
    expect(dialog.getByText(LEAK_FIX_TEXTS.cancelQuestion(unassignedLeak.key))).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: KEEP_LINE }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.bodies).toEqual([]);

    await user.click(unassigned.getByRole('button', { name: fixButtonName(unassignedLeak, 'cancel_line') }));
    dialog = within(await enteredDialog(LEAK_FIX_TEXTS.confirmTitle));
    await user.click(dialog.getByRole('button', { name: FIX_LABELS.cancel_line }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.bodies).toEqual([['POST /api/v1/billing/reconciliation/fix', { cycle: CYCLE, kind: 'unassigned', key: unassignedLeak.key, action: 'cancel_line' }]]);
    const row = within(unassigned.getByText(unassignedLeak.key).closest('tr') as HTMLElement);
    expect(await row.findByText(T.handled)).toBeTruthy();
    expect(row.getByText(FIX_LABELS.cancel_line)).toBeTruthy();
  });

  it('moves to the previous cycle from the link, with the cycle in the address', async () => {
    const api = boardApi();
    const { user, location } = openSignedInAt(`/billing/reconciliation?cycle=${CYCLE}`, api.fetch);
    await section('unassigned');
    await user.click(screen.getByRole('button', { name: T.previousCycle }));
    const previous = shiftCycle(CYCLE, -1);
    await waitFor(() => expect(location()).toBe(`/billing/reconciliation?cycle=${previous}`));
    await waitFor(() => expect(api.calls).toContain(`GET /api/v1/billing/reconciliation?cycle=${previous}`));
  });

  it('imports the invoices and reloads: the estimate banner goes once the invoice is in', async () => {
    const api = boardApi();
    const { user } = openSignedInAt(`/billing/reconciliation?cycle=${CYCLE}`, api.fetch);
    await screen.findByText(T.estimateBanner, {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: T.importInvoices }));
    await waitFor(() => expect(api.calls).toContain('POST /api/v1/billing/invoices/import'));
    await waitFor(() => expect(screen.queryByText(T.estimateBanner)).toBeNull());
    expect(card(T.providerCost).getByText(T.invoice('INV-2026-10', 'Outstanding'))).toBeTruthy();
  });

  it('a portal user who is not an administrator reads the board and is offered neither fixes nor the import', async () => {
    const reader: AdminUser = userProfile;
    const api = boardApi(reader);
    openSignedInAt(`/billing/reconciliation?cycle=${CYCLE}`, api.fetch, { profile: reader });
    await section('unassigned');
    expect(screen.queryByRole('button', { name: T.importInvoices })).toBeNull();
    for (const label of Object.values(FIX_LABELS)) expect(screen.queryByRole('button', { name: new RegExp(`^${label}`) }), label).toBeNull();
    expect(screen.getByText(FIX_LABELS.mark_checked)).toBeTruthy();
  });
});
