// The two requests pages' views: the customer's My Requests and the admins' Customer
// Requests queue, rendered from props in StrictMode; actions only on pending rows, none read-only.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { REQUEST_MESSAGES } from '../../src/domain/requests';
import { MyRequestsView, type MyRequestsViewProps } from '../../src/ui/requests/MyRequestsView';
import { NewRequestDialog, type NewRequestDialogProps } from '../../src/ui/requests/NewRequestDialog';
import { RequestsView, type RequestsViewProps } from '../../src/ui/requests/RequestsView';
import { ReviewDialog } from '../../src/ui/requests/ReviewDialog';
import { customerRequest, declinedRequest, lineOptions, queuedRequest, requestLines, requestQueue, topUpRequest } from '../fixtures/requests-client';
import { renderStrict } from './render';

const pending = customerRequest();
const declined = customerRequest({ id: declinedRequest.id, status: 'declined', reason: 'That plan is retired', decidedAt: declinedRequest.decidedAt });

function renderMine(props: Partial<MyRequestsViewProps> = {}) {
  const callbacks = { onNew: vi.fn(), onCancel: vi.fn(), onRetry: vi.fn() };
  const view = renderStrict(<MyRequestsView requests={[pending, topUpRequest, declined]} hasLines loading={false} error={null} {...callbacks} {...props} />);
  return { ...view, ...callbacks };
}

describe('My Requests', () => {
  it('lists each request with what was asked, its status and a declined one’s reason', () => {
    renderMine();
    const table = within(screen.getByRole('table'));
    expect(table.getAllByText(/Local Priority 1 TB \(USD 165\.00 a month\)/)).toHaveLength(2);
    expect(table.getByText(/2 top-up blocks \(100 GB, USD 100\.00\)/)).toBeTruthy();
    expect(table.getAllByText('Pending')).toHaveLength(2);
    expect(table.getByText('Declined')).toBeTruthy();
    expect(table.getByText('That plan is retired')).toBeTruthy();
  });

  it('offers Cancel on pending requests only, and reports which', async () => {
    const { user, onCancel } = renderMine();
    expect(screen.getAllByRole('button', { name: /^Cancel .* request on/ })).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: `Cancel top-up request on ${topUpRequest.serviceLineNumber}` }));
    expect(onCancel).toHaveBeenCalledExactlyOnceWith(topUpRequest);
  });

  it('read-only: the same requests, and no action at all', () => {
    renderMine({ readOnly: true });
    expect(screen.getByText('That plan is retired')).toBeTruthy();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('says so when the customer has no active line, and New request waits', () => {
    renderMine({ hasLines: false });
    expect(screen.getByText(REQUEST_MESSAGES.noLines)).toBeTruthy();
    expect((screen.getByRole('button', { name: REQUEST_MESSAGES.newRequest }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the failure with Try Again', async () => {
    const { user, onRetry } = renderMine({ requests: null, error: 'Network down' });
    expect(screen.getByText('Network down')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /try again/i }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

describe('New request dialog', () => {
  const base: NewRequestDialogProps = {
    visible: true,
    step: 'edit',
    lines: requestLines,
    serviceLineNumber: lineOptions.serviceLineNumber,
    options: lineOptions,
    kind: 'top_up',
    planId: null,
    count: 2,
    note: '',
    canSubmit: true,
    error: null,
    busy: false,
    onLine: vi.fn(),
    onKind: vi.fn(),
    onPlan: vi.fn(),
    onCount: vi.fn(),
    onNote: vi.fn(),
    onSubmit: vi.fn(),
    onConfirmCancel: vi.fn(),
    onClose: vi.fn(),
  };

  it('shows the blocks left and what the chosen blocks come to', () => {
    renderStrict(<NewRequestDialog {...base} />);
    expect(screen.getByText('Total: 100 GB for USD 100.00')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Blocks of 50 GB at USD 50.00 each (2 left this cycle)' })).toBeTruthy();
  });

  it("shows the server's words and keeps Send off while the form is incomplete", () => {
    renderStrict(<NewRequestDialog {...base} kind="plan_change" canSubmit={false} error={REQUEST_MESSAGES.pendingExists('plan_change')} />);
    expect(screen.getByText(REQUEST_MESSAGES.pendingExists('plan_change'))).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send request' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

function renderQueue(props: Partial<RequestsViewProps> = {}) {
  const callbacks = { onStatus: vi.fn(), onPage: vi.fn(), onRetry: vi.fn(), onApprove: vi.fn(), onDecline: vi.fn() };
  const data = requestQueue([queuedRequest(), declinedRequest], { declined: 3, approved: 5 });
  const view = renderStrict(
    <RequestsView requests={data.requests} pagination={data.pagination} counts={data.counts} status="all" loading={false} error={null} busy={false} {...callbacks} {...props} />,
  );
  return { ...view, ...callbacks };
}

describe('Customer Requests (admin)', () => {
  it('shows the counts per status in the filter and reports the status chosen', async () => {
    const { user, onStatus } = renderQueue();
    expect(screen.getByText('Pending (1)')).toBeTruthy();
    expect(screen.getByText('Approved (5)')).toBeTruthy();
    await user.click(screen.getByText('Declined (3)'));
    expect(onStatus).toHaveBeenCalledWith('declined');
  });

  it('offers Approve and Decline on the pending row only, with the customer and what was asked', async () => {
    const { user, onApprove, onDecline } = renderQueue();
    const pendingRow = queuedRequest();
    expect(screen.getAllByText('Costa Farms')).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: /^Approve request of/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: `Approve request of Ana Costa on ${pendingRow.serviceLineNumber}` }));
    await user.click(screen.getByRole('button', { name: `Decline request of Ana Costa on ${pendingRow.serviceLineNumber}` }));
    expect(onApprove).toHaveBeenCalledExactlyOnceWith(pendingRow);
    expect(onDecline).toHaveBeenCalledExactlyOnceWith(pendingRow);
    expect(screen.getByText(/by Test Admin: That plan is retired/)).toBeTruthy();
  });

  it('read-only: no approve or decline', () => {
    renderQueue({ readOnly: true });
    expect(screen.queryByRole('button', { name: /^(Approve|Decline) request of/ })).toBeNull();
  });

  it('the decline dialog shows the reason problem and the refusal', () => {
    renderStrict(
      <ReviewDialog
        visible
        action="decline"
        request={queuedRequest()}
        reason=""
        reasonError={REQUEST_MESSAGES.reasonRequired}
        failure="This request was already cancelled"
        busy={false}
        onReason={vi.fn()}
        onConfirm={vi.fn()}
        onClose={vi.fn()}
      />,
    );
    const dialog = within(screen.getByRole('dialog', { name: 'Decline request' }));
    expect(dialog.getByText(REQUEST_MESSAGES.reasonRequired)).toBeTruthy();
    expect(dialog.getByText('This request was already cancelled')).toBeTruthy();
  });
});
