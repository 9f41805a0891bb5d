import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { ASSIGN_MESSAGES, ASSIGN_REASONS, type AssignTerminalsResult } from '../../src/domain/customer-terminals';
import {
  ASSIGNED_LOADING_TEXT,
  AssignTerminalsDialog,
  type AssignTerminalsDialogProps,
} from '../../src/ui/customer-terminals/AssignTerminalsDialog';
import { assignedTerminal, CUSTOMER_UUID } from '../fixtures/customer-terminals-client';
import { renderStrict } from './render';

const customer = { uuid: CUSTOMER_UUID, name: 'Nina Park', email: 'nina@northwind.example', company: 'Northwind Shipping' };

const assigned = [
  assignedTerminal({ deviceId: 'UT-1111', serviceLine: 'AST-111111-11111-11' }),
  assignedTerminal({ deviceId: 'UT-2222', serviceLine: 'AST-222222-22222-22' }),
];

function renderDialog(props: Partial<AssignTerminalsDialogProps> = {}) {
  const callbacks = { onText: vi.fn(), onSubmit: vi.fn(), onClose: vi.fn() };
  const all: AssignTerminalsDialogProps = {
    visible: true,
    customer,
    assigned,
    assignedTotal: assigned.length,
    assignedLoading: false,
    text: '',
    error: null,
    result: null,
    busy: false,
    ...callbacks,
    ...props,
  };
  const result = renderStrict(<AssignTerminalsDialog {...all} />);
  return { ...result, ...callbacks, rerenderWith: (more: Partial<AssignTerminalsDialogProps>) => result.rerender(<AssignTerminalsDialog {...all} {...more} />) };
}

const dialog = () => screen.getByRole('dialog', { name: ASSIGN_MESSAGES.title });
const field = (label: string) => within(dialog()).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
const input = () => within(dialog()).getByLabelText(ASSIGN_MESSAGES.inputLabel) as HTMLTextAreaElement;
const assignButton = () => within(dialog()).getByRole('button', { name: /^(Assign Terminals|Assigning\.\.\.)$/ }) as HTMLButtonElement;
const closeButton = () => within(dialog()).getByRole('button', { name: ASSIGN_MESSAGES.close }) as HTMLButtonElement;
const panel = (title: string) => within(dialog()).getByRole('region', { name: title });

describe('AssignTerminalsDialog: the customer and their terminals', () => {
  it('is hidden until opened', () => {
    renderDialog({ visible: false });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is "Assign Terminals" and shows the customer name, company, email and uuid', () => {
    renderDialog();
    expect(field('Customer')).toBe('Nina Park');
    expect(field('Company')).toBe('Northwind Shipping');
    expect(field('Email')).toBe('nina@northwind.example');
    expect(field('Customer UUID')).toBe(CUSTOMER_UUID);
  });

  it('names a customer without a name by the end of the uuid, and a missing company by a dash', () => {
    renderDialog({ customer: { ...customer, name: '', company: null } });
    expect(field('Customer')).toBe(`Customer ${CUSTOMER_UUID.slice(-8)}`);
    expect(field('Company')).toBe('—');
  });

  it('counts and lists the terminals currently assigned, service line with terminal id', () => {
    renderDialog();
    const list = within(dialog()).getByRole('list', { name: ASSIGN_MESSAGES.assignedCount(2) });
    expect(within(dialog()).getByRole('heading', { name: '2 terminals currently assigned' })).toBeTruthy();
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['AST-111111-11111-11UT-1111', 'AST-222222-22222-22UT-2222']);
  });

  it('says "1 terminal currently assigned" for one, and lists nothing for none', () => {
    const { rerenderWith } = renderDialog({ assigned: assigned.slice(0, 1), assignedTotal: 1 });
    expect(within(dialog()).getByRole('heading', { name: '1 terminal currently assigned' })).toBeTruthy();
    rerenderWith({ assigned: [], assignedTotal: 0 });
    expect(within(dialog()).getByRole('heading', { name: '0 terminals currently assigned' })).toBeTruthy();
    expect(within(dialog()).queryByRole('list')).toBeNull();
  });

  it('counts every terminal the customer holds and says how many more the usage table lists than the first shown', () => {
    renderDialog({ assignedTotal: 3_137 });
    expect(within(dialog()).getByRole('heading', { name: '3,137 terminals currently assigned' })).toBeTruthy();
    expect(within(dialog()).getAllByRole('listitem')).toHaveLength(2);
    expect(within(dialog()).getByText('and 3,135 more, listed in the usage table')).toBeTruthy();
  });

  it('says nothing of more when every terminal is listed', () => {
    renderDialog();
    expect(within(dialog()).queryByText(/more, listed in the usage table/)).toBeNull();
  });

  it('shows a loading hint instead of the count while the assigned terminals load', () => {
    renderDialog({ assigned: [], assignedLoading: true });
    expect(within(dialog()).getByRole('status').textContent).toContain(ASSIGNED_LOADING_TEXT);
    expect(within(dialog()).queryByText(/currently assigned/)).toBeNull();
  });
});

describe('AssignTerminalsDialog: the form', () => {
  it('has a labelled box for service line numbers with the instructions, and reports what is typed', async () => {
    const { user, onText } = renderDialog({ text: 'AST-1' });
    expect(input().value).toBe('AST-1');
    expect(input().placeholder).toBe(ASSIGN_MESSAGES.placeholder);
    const described = document.getElementById(input().getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe(ASSIGN_MESSAGES.instructions);
    await user.type(input(), ',');
    expect(onText).toHaveBeenLastCalledWith('AST-1,');
  });

  it('Assign Terminals submits, and Close (the only close button) closes', async () => {
    const { user, onSubmit, onClose } = renderDialog({ text: 'AST-1' });
    await user.click(assignButton());
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(within(dialog()).getAllByRole('button', { name: /close/i })).toEqual([closeButton()]);
    await user.click(closeButton());
    expect(onClose).toHaveBeenCalledOnce();
  });


  it('shows the error in an alert and marks the box invalid', () => {
    renderDialog({ error: ASSIGN_MESSAGES.empty });
    expect(within(dialog()).getByRole('alert').textContent).toContain(ASSIGN_MESSAGES.empty);
    expect(input().getAttribute('aria-invalid')).toBe('true');
  });

  it('has no alert and a valid box without an error', () => {
    renderDialog();
    expect(within(dialog()).queryByRole('alert')).toBeNull();
    expect(input().getAttribute('aria-invalid')).toBeNull();
  });

  it('while assigning reads "Assigning...", and nothing can be submitted, edited or closed', async () => {
    const { user, onSubmit, onClose } = renderDialog({ text: 'AST-1', busy: true });
    await user.click(assignButton());
    await user.click(closeButton());
    expect(assignButton().textContent).toContain(ASSIGN_MESSAGES.busy);
    expect(assignButton().disabled).toBe(true);
    expect(closeButton().disabled).toBe(true);
    expect(input().disabled).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('AssignTerminalsDialog: results', () => {
  const result: AssignTerminalsResult = {
    assigned: ['AST-111111-11111-11', 'AST-333333-33333-33'],
    failed: [{ serviceLineNumber: 'AST-444444-44444-44', reason: ASSIGN_REASONS.assignedToOther('Contoso Marine'), code: 'assigned_to_other' }],
    total: 3,
  };

  it('shows "N terminals assigned" listing each line, and "N service lines not assigned" with each reason', () => {
    renderDialog({ result });
    const success = panel(ASSIGN_MESSAGES.successTitle(2));
    expect(within(success).getAllByRole('listitem').map((item) => item.textContent)).toEqual(result.assigned);
    const failure = panel(ASSIGN_MESSAGES.failureTitle(1));
    expect(failure.textContent).toContain('1 service line not assigned');
    const [item] = within(failure).getAllByRole('listitem');
    expect(within(item!).getByText('AST-444444-44444-44')).toBeTruthy();
    expect(within(item!).getByText('Already assigned to another customer (Contoso Marine)')).toBeTruthy();
  });

  it('shows only the failure panel when nothing was assigned', () => {
    renderDialog({ result: { ...result, assigned: [] } });
    expect(within(dialog()).queryByText(/^\d+ terminals? assigned$/)).toBeNull();
    expect(panel(ASSIGN_MESSAGES.failureTitle(1))).toBeTruthy();
  });

  it('shows only the success panel when every line was assigned', () => {
    renderDialog({ result: { ...result, failed: [] } });
    expect(panel(ASSIGN_MESSAGES.successTitle(2))).toBeTruthy();
    expect(within(dialog()).queryByText(/not assigned$/)).toBeNull();
  });

  it('shows no result panels before a request', () => {
    renderDialog();
    expect(within(dialog()).queryByText(/^\d+ terminals? assigned$/)).toBeNull();
    expect(within(dialog()).queryByText(/not assigned$/)).toBeNull();
  });
});
