import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { CHANGING_TEXT, ChangePlanDialog, PLANS_LOADING_TEXT, type ChangePlanDialogProps } from '../../src/ui/subscriptions/ChangePlanDialog';
import { plan1TB, plan50, SL, subscription } from '../fixtures/subscriptions-client';
import { renderStrict } from './render';

function renderDialog(props: Partial<ChangePlanDialogProps> = {}) {
  const callbacks = { onChoose: vi.fn(), onNext: vi.fn(), onBack: vi.fn(), onConfirm: vi.fn(), onCancel: vi.fn() };
  const all: ChangePlanDialogProps = {
    visible: true,
    subscription: subscription(),
    step: 'choose',
    plans: [plan50, plan1TB],
    chosen: null,
    error: null,
    busy: false,
    ...callbacks,
    ...props,
  };
  return { ...renderStrict(<ChangePlanDialog {...all} />), ...callbacks };
}

const dialog = () => screen.getByRole('dialog', { name: 'Change Plan' });
const button = (name: string) => within(dialog()).getByRole('button', { name }) as HTMLButtonElement;

describe('ChangePlanDialog', () => {
  it('shows the terminal, its current plan, and the loading text while plans load', () => {
    renderDialog({ step: 'loading', plans: [] });
    expect(within(dialog()).getByText(`UT-0001A2B3 · ${SL}`)).toBeTruthy();
    expect(within(dialog()).getByText('50 GB', { selector: 'dd' })).toBeTruthy();
    expect(within(dialog()).getByRole('status').textContent).toContain(PLANS_LOADING_TEXT);
    expect(button('Next').disabled).toBe(true);
  });

  it('lists the offered plans with data and price; the current one is marked and cannot be chosen', async () => {
    const { user, onChoose } = renderDialog();
    const current = within(dialog()).getByRole('radio', { name: /Standard 50 GB/ }) as HTMLInputElement;
    const other = within(dialog()).getByRole('radio', { name: 'Priority 1 TB · 1 TB per month · 250.00 USD' });
    expect(within(dialog()).getByText(/Standard 50 GB · 50 GB per month · 65.00 USD \(current plan\)/)).toBeTruthy();
    expect(current.disabled).toBe(true);
    expect(button('Next').disabled).toBe(true);
    await user.click(other);
    expect(onChoose).toHaveBeenCalledExactlyOnceWith(plan1TB.productReferenceId);
  });

  it('Next goes on once a plan is chosen', async () => {
    const { user, onNext } = renderDialog({ chosen: plan1TB.productReferenceId });
    await user.click(button('Next'));
    expect(onNext).toHaveBeenCalledOnce();
  });

  it('the confirmation names the change with its monthly data and price, with Confirm and Back', async () => {
    const { user, onConfirm, onBack } = renderDialog({ step: 'confirm', chosen: plan1TB.productReferenceId });
    expect(within(dialog()).getByText(`Change ${SL} from 50 GB to Priority 1 TB: monthly data 1 TB, price 250.00 USD.`)).toBeTruthy();
    expect(within(dialog()).queryByRole('radio')).toBeNull();
    await user.click(button('Back'));
    await user.click(button('Confirm'));
    expect(onBack).toHaveBeenCalledOnce();
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('while changing reads "Changing..." with every button disabled', () => {
    renderDialog({ step: 'confirm', chosen: plan1TB.productReferenceId, busy: true });
    expect(button(CHANGING_TEXT).disabled).toBe(true);
    expect(button('Cancel').disabled).toBe(true);
    expect(button('Back').disabled).toBe(true);
  });

  it("shows the server's message and Cancel closes", async () => {
    const { user, onCancel } = renderDialog({ step: 'confirm', chosen: plan1TB.productReferenceId, error: 'Product is not available for this service line' });
    expect(within(dialog()).getByText('Product is not available for this service line')).toBeTruthy();
    await user.click(button('Cancel'));
    expect(onCancel).toHaveBeenCalledOnce();
  });
});
