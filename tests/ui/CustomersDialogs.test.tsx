import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { CustomerCreateDialog, type CustomerCreateDialogProps } from '../../src/ui/customers/CustomerCreateDialog';
import {
  CustomerActionDialogs,
  type CustomerActionDialogsProps,
  type CustomerActionStep,
} from '../../src/ui/customers/CustomerActionDialogs';
import { SetPasswordView, type SetPasswordViewProps } from '../../src/ui/set-password/SetPasswordView';
import { renderStrict } from './render';
import { customerFixture } from '../fixtures/customers';
import { CUSTOMER_LINE_ENDING_MESSAGES } from '../../src/domain/customers';

const customer = customerFixture({ isActive: false, hasPassword: false });

function renderCreate(props: Partial<CustomerCreateDialogProps> = {}) {
  const callbacks = { onField: vi.fn(), onExpiration: vi.fn(), onSubmit: vi.fn(), onCancel: vi.fn() };
  const { user } = renderStrict(
    <CustomerCreateDialog
      visible
      busy={false}
      form={{ company: '', name: '', email: '', expirationDays: 365 }}
      errors={{}}
      failure={null}
      {...callbacks}
      {...props}
    />,
  );
  return { user, ...callbacks };
}

function renderActions(step: CustomerActionStep) {
  const callbacks: Omit<CustomerActionDialogsProps, 'step'> = {
    onClose: vi.fn(),
    onRetry: vi.fn(),
    onField: vi.fn(),
    onSubmit: vi.fn(),
    onReason: vi.fn(),
    onEndLines: vi.fn(),
    onConfirm: vi.fn(),
    onBack: vi.fn(),
    onDays: vi.fn(),
    onExtend: vi.fn(),
    onResendLink: vi.fn(),
  };
  const view = renderStrict(<CustomerActionDialogs step={step} {...callbacks} />);
  const rerender = (next: CustomerActionStep) => view.rerender(<CustomerActionDialogs step={next} {...callbacks} />);
  return { ...view, ...callbacks, rerender };
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('Add New Customer dialog (view)', () => {
  it('has the four spec fields, the 365-day default and the six expiration choices', async () => {
    const { user, onExpiration } = renderCreate();
    const form = screen.getByRole('dialog', { name: 'Add New Customer' });
    for (const label of ['Company Name', 'Full Name', 'Email Address']) expect(within(form).getByLabelText(label)).toBeTruthy();
    const days = within(form).getByLabelText('Account Expiration (Days)') as HTMLInputElement;
    expect(days.value).toBe('1 year (365 days)');
    await user.click(days.closest('.p-dropdown')!);
    const options = within(await screen.findByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['30 days', '90 days', '180 days', '1 year (365 days)', '2 years (730 days)', '3 years (1095 days)']);
    await user.click(screen.getByRole('option', { name: '3 years (1095 days)' }));
    expect(onExpiration).toHaveBeenCalledWith(1095);
  });

  it('shows each field error beside its field, marked invalid', () => {
    renderCreate({ errors: { company: 'Company name is required', email: 'Please enter a valid email address' } });
    const company = screen.getByLabelText('Company Name');
    expect(company.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(company.getAttribute('aria-describedby')!)?.textContent).toBe('Company name is required');
    expect(screen.getByLabelText('Full Name').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
  });

  it('while creating: "Creating Account...", Cancel disabled, no close icon', () => {
    renderCreate({ busy: true });
    expect(button('Creating Account...').disabled).toBe(true);
    expect(button('Cancel').disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('reports typing, submit and cancel', async () => {
    const { user, onField, onSubmit, onCancel } = renderCreate();
    await user.type(screen.getByLabelText('Full Name'), 'N');
    expect(onField).toHaveBeenCalledWith('name', 'N');
    // The footer's submit button belongs to the form through its form attribute.
    await user.click(button('Create Customer Account'));
    expect(onSubmit).toHaveBeenCalledOnce();
    await user.click(button('Cancel'));
    expect(onCancel).toHaveBeenCalled();
  });
});

describe('row action dialogs (view)', () => {
  it('nothing shows when closed', () => {
    renderActions({ kind: 'closed' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('details: placeholders while the activity loads; a failure offers Try Again', async () => {
    const first = renderActions({ kind: 'view', customer, activity: null, loading: true, error: null });
    expect(screen.getByLabelText('Loading activity')).toBeTruthy();
    expect(screen.getByText('No expiration set')).toBeTruthy();
    expect(screen.getByText('Not set yet (setup link pending)')).toBeTruthy();
    expect(screen.queryByText('Blocked Reason')).toBeNull();
    first.unmount();

    const { user, onRetry } = renderActions({ kind: 'view', customer, activity: null, loading: false, error: 'Failed to load customer details' });
    expect(screen.getByText(/Failed to load customer details/)).toBeTruthy();
    await user.click(button('Try Again'));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('account settings: the days choice, the busy buttons, and the note about the password link', () => {
    renderActions({ kind: 'settings', customer, days: 365, extended: null, failure: null, busy: 'extending' });
    expect((screen.getByLabelText('Extend by') as HTMLInputElement).value).toBe('1 year (365 days)');
    expect(button('Extending...').disabled).toBe(true);
    expect(button('Resend password link').disabled).toBe(true);
    expect(screen.getByText(/Nina Park has not chosen a password yet/)).toBeTruthy();
  });

  it('block: the confirmation repeats the reason as text; Back and Block Customer report', async () => {
    const { user, onBack, onConfirm } = renderActions({
      kind: 'block',
      step: 'confirm',
      customer,
      reason: '<script>alert(1)</script>',
      reasonError: null,
      offerEndLines: true,
      endLines: false,
      failure: null,
      busy: false,
    });
    const dialog = screen.getByRole('dialog', { name: 'Block Customer' });
    expect(within(dialog).getByLabelText('Reason').textContent).toBe('<script>alert(1)</script>');
    expect(dialog.querySelector('script')).toBeNull();
    // Not ticked: the confirmation says nothing about the lines.
    expect(within(dialog).queryByText(CUSTOMER_LINE_ENDING_MESSAGES.confirmNote)).toBeNull();
    await user.click(button('Back'));
    await user.click(button('Block Customer'));
    expect(onBack).toHaveBeenCalledOnce();
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('block while sending: "Blocking..." and nothing else to press', () => {
    renderActions({ kind: 'block', step: 'confirm', customer, reason: 'Fraud', reasonError: null, offerEndLines: true, endLines: true, failure: null, busy: true });
    expect(button('Blocking...').disabled).toBe(true);
    expect(button('Back').disabled).toBe(true);
  });

  it('block, for the admin role: the option to end their lines, its hint, ticking and unticking it reports each', async () => {
    const step: CustomerActionStep = { kind: 'block', step: 'reason', customer, reason: '', reasonError: null, offerEndLines: true, endLines: false, failure: null, busy: false };
    const { user, onEndLines, rerender } = renderActions(step);
    const dialog = screen.getByRole('dialog', { name: 'Block Customer' });
    const box = within(dialog).getByRole('checkbox', { name: 'Also end their service lines at the end of the billing cycle' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe(CUSTOMER_LINE_ENDING_MESSAGES.optionHint);
    expect(within(dialog).getByText(/keep service until then/)).toBeTruthy();
    await user.click(box);
    expect(onEndLines).toHaveBeenLastCalledWith(true);

    rerender({ ...step, endLines: true });
    const ticked = screen.getByRole('checkbox', { name: CUSTOMER_LINE_ENDING_MESSAGES.option }) as HTMLInputElement;
    expect(ticked.checked).toBe(true);
    await user.click(ticked);
    expect(onEndLines).toHaveBeenLastCalledWith(false);
    expect(onEndLines).toHaveBeenCalledTimes(2);
  });

  it('block, ticked: the confirmation says the lines will end too', () => {
    renderActions({ kind: 'block', step: 'confirm', customer, reason: 'Fraud', reasonError: null, offerEndLines: true, endLines: true, failure: null, busy: false });
    expect(within(screen.getByRole('dialog', { name: 'Block Customer' })).getByText(CUSTOMER_LINE_ENDING_MESSAGES.confirmNote)).toBeTruthy();
  });

  it('block, for anyone else: no option to end their lines', () => {
    renderActions({ kind: 'block', step: 'reason', customer, reason: 'Fraud', reasonError: null, offerEndLines: false, endLines: false, failure: null, busy: false });
    const dialog = screen.getByRole('dialog', { name: 'Block Customer' });
    expect(within(dialog).getByLabelText('Reason')).toBeTruthy();
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    expect(within(dialog).queryByText(CUSTOMER_LINE_ENDING_MESSAGES.optionHint)).toBeNull();
  });

  it('unblock shows the failure of the last attempt', () => {
    renderActions({
      kind: 'unblock',
      customer: { ...customer, blockedEnabled: true, blockedReason: 'Fraud' },
      failure: 'Failed to unblock customer: Customer not found',
      busy: false,
    });
    expect(screen.getByText('Failed to unblock customer: Customer not found')).toBeTruthy();
    expect(screen.getByText('Fraud')).toBeTruthy();
  });
});

describe('SetPasswordView (view)', () => {
  const base: SetPasswordViewProps = {
    stage: 'ready',
    account: { name: 'Tara Lee', company: 'Tailspin Toys', email: 'tara@tailspin.example' },
    password: 'x',
    confirmPassword: 'x',
    problem: null,
    linkMessage: null,
    email: null,
    onField: vi.fn(),
    onSubmit: vi.fn(),
    onRetry: vi.fn(),
    onNavigate: vi.fn(),
  };

  it('while the password is being set the button reads "Setting Password..." and is disabled', () => {
    renderStrict(<SetPasswordView {...base} stage="submitting" />);
    expect(button('Setting Password...').disabled).toBe(true);
    expect((screen.getByLabelText('New password') as HTMLInputElement).disabled).toBe(true);
  });

  it('the login link is handed to the router', async () => {
    const onNavigate = vi.fn();
    const { user } = renderStrict(<SetPasswordView {...base} stage="done" email="tara@tailspin.example" onNavigate={onNavigate} />);
    await user.click(screen.getByRole('link', { name: 'Go to the login page' }));
    expect(onNavigate).toHaveBeenCalledWith('/login');
  });
});
