// A customer's statements on their page (/customer/terminals/{uuid}): a short list, newest first,
// each a link to the statement, and a link to the Statements page narrowed to them. Kept small:
// the Statements page is where statements are worked with. Renders props, calls callbacks.
import { useId } from 'react';
import { Button } from 'primereact/button';
import type { StatementSummaryWire } from '../../../domain/billing';
import { formatMoney } from '../../../domain/money';
import { NavLink } from '../../common/NavLink';
import { StatementStatusTag, statementLabel } from './parts';
import './statements.css';
import { monthLabel } from '../../../domain/my-area';

export const CUSTOMER_STATEMENTS_TEXTS = {
  title: 'Statements',
  loading: 'Loading statements...',
  none: 'No statements yet',
  failed: 'Could not load the statements',
  retry: 'Load the statements again',
  all: 'Open in Statements',
} as const;

/** How many of the newest a customer's page lists. */
export const CUSTOMER_STATEMENTS_SHOWN = 6;

export interface CustomerStatementsCardProps {
  customerUuid: string;
  statements: readonly StatementSummaryWire[] | null;
  error: string | null;
  onRetry(): void;
  onNavigate(url: string): void;
}

export function CustomerStatementsCard({ customerUuid, statements, error, onRetry, onNavigate }: CustomerStatementsCardProps) {
  const id = useId();
  const T = CUSTOMER_STATEMENTS_TEXTS;
  const newest = [...(statements ?? [])].sort((a, b) => b.cycle.localeCompare(a.cycle)).slice(0, CUSTOMER_STATEMENTS_SHOWN);
  return (
    <section className="list-card customer-statements" aria-labelledby={`${id}-title`}>
      <div className="section-head">
        <h2 id={`${id}-title`} className="customer-statements-title">
          {T.title}
        </h2>
        <NavLink url={`/billing/statements?customer=${encodeURIComponent(customerUuid)}`} onNavigate={onNavigate}>
          {T.all}
        </NavLink>
      </div>
      {error && statements === null ? (
        <p className="customer-statements-failed">
          <span className="p-error">
            {T.failed}: {error}
          </span>{' '}
          <Button type="button" label={T.retry} icon="pi pi-refresh" text size="small" onClick={onRetry} />
        </p>
      ) : statements === null ? (
        <p role="status" className="text-muted">
          {T.loading}
        </p>
      ) : newest.length === 0 ? (
        <p className="text-muted">{T.none}</p>
      ) : (
        <ul className="customer-statements-list">
          {newest.map((s) => (
            <li key={s.id}>
              <NavLink url={`/billing/statements/${encodeURIComponent(s.id)}`} onNavigate={onNavigate}>
                {statementLabel(s)}
              </NavLink>
              <span>{monthLabel(s.cycle)}</span>
              <span className="statement-number-cell">{formatMoney(s.totalMinor, s.currency)}</span>
              <StatementStatusTag status={s.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
