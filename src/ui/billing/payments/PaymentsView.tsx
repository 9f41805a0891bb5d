// Payments (/billing/payments): the page's frame, its title and Record payment (for those who
// manage billing) above the sections the page composes: the bank statement import, the lines
// waiting to be matched and the ledger. Renders props and calls callbacks.
import type { ReactNode } from 'react';
import { Button } from 'primereact/button';
import { PAGE_TITLES } from '../../../domain/navigation';
import { PageHeader } from '../../common/PageHeader';
import { PAYMENTS_TEXTS as T } from './parts';
import './payments.css';

export interface PaymentsViewProps {
  /** Record payment is offered (billing:manage). */
  canManage: boolean;
  onRecord(): void;
  onNavigate(url: string): void;
  children: ReactNode;
}

export function PaymentsView(props: PaymentsViewProps) {
  const meta = PAGE_TITLES['/billing/payments'];
  return (
    <div className="page payments-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        subtitle="Money in and out of each customer's account: bank statements, payments by hand, credit notes and refunds"
        actions={props.canManage ? <Button type="button" label={T.recordPayment} icon="pi pi-plus" onClick={props.onRecord} /> : undefined}
        onNavigate={props.onNavigate}
      />
      {props.children}
    </div>
  );
}
