// The customer's own account, above their statements (/my/statements): per currency what they owe
// or hold as credit and how much of it is overdue, their payment terms, and the payments, credit
// notes and refunds recorded for them. Only what is theirs to read: no notes, no one who recorded
// anything. Renders props, calls callbacks.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { LEDGER_KIND_LABELS, type MyAccountWire } from '../../../domain/ledger';
import { formatMoney } from '../../../domain/money';
import { DASH } from '../../common/format';
import { StatCard } from '../../common/StatCard';
import { formatDay } from '../statements/parts';
import { MY_ACCOUNT_TEXTS as T, balanceWords, EntriesTableHead, statementsPaid, termsWords } from './parts';
import './account.css';

export interface MyAccountViewProps {
  account: MyAccountWire | null;
  error: string | null;
  onRetry(): void;
}

export function MyAccountView({ account, error, onRetry }: MyAccountViewProps) {
  const id = useId();
  if (error && account === null) {
    return (
      <p className="my-account p-error">
        {T.failed}: {error} <Button type="button" label="Try again" icon="pi pi-refresh" text size="small" onClick={onRetry} />
      </p>
    );
  }
  if (account === null) {
    return (
      <p role="status" className="text-muted">
        {T.loading}
      </p>
    );
  }
  return (
    <div className="my-account">
      <section aria-labelledby={`${id}-balance`}>
        <h2 id={`${id}-balance`}>{T.balanceTitle}</h2>
        {account.balances.length === 0 ? (
          <p className="text-muted">{T.nothingBilled}</p>
        ) : (
          <div className="my-account-balances">
            {account.balances.map((b) => (
              <StatCard key={b.currency} title={b.currency} icon="pi pi-wallet" headingLevel={3} loading={false} value={balanceWords(b)}>
                <p className={b.overdueMinor > 0 ? 'stat-card-hint customer-account-overdue' : 'stat-card-hint'}>
                  {b.overdueMinor > 0 ? `${formatMoney(b.overdueMinor, b.currency)} overdue` : 'Nothing overdue'}
                </p>
              </StatCard>
            ))}
          </div>
        )}
        <p className="my-account-terms">Payment terms: {termsWords(account.paymentTermsDays)}</p>
      </section>
      <section aria-labelledby={`${id}-payments`} className="customer-account-part">
        <h2 id={`${id}-payments`}>{T.paymentsTitle}</h2>
        {account.payments.length === 0 ? (
          <p className="text-muted">{T.noPayments}</p>
        ) : (
          <table className="account-table" aria-label={T.paymentsTable}>
            <EntriesTableHead />
            <tbody>
              {account.payments.map((p) => (
                <tr key={p.id}>
                  <td>{formatDay(p.occurredOn)}</td>
                  <td>{LEDGER_KIND_LABELS[p.kind]}</td>
                  {/* The amount as the customer paid or was paid it; the kind says which way. */}
                  <td className="statement-number-cell">{formatMoney(Math.abs(p.amountMinor), p.currency)}</td>
                  <td>{p.reference ?? DASH}</td>
                  <td>{statementsPaid(p)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

/** One line for the customer's overview: each currency's balance, with what is overdue; nothing until it is known. */
export function MyBalanceLine({ account, onOpen }: { account: MyAccountWire | null; onOpen(): void }) {
  if (account === null || account.balances.length === 0) return null;
  const parts = account.balances.map((b) => (b.overdueMinor > 0 ? `${balanceWords(b)} (${formatMoney(b.overdueMinor, b.currency)} overdue)` : balanceWords(b)));
  return (
    <p className="my-balance-line">
      <strong>{T.balanceTitle}:</strong> {parts.join(' · ')}{' '}
      <button type="button" className="p-link" onClick={onOpen}>
        {T.seeStatements}
      </button>
    </p>
  );
}
