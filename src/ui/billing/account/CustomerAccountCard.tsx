// A customer's account on their page (/customer/terminals/{uuid}, billing:read): per currency the
// balance (owed or credit), what is open and what is overdue; the open statements with their due
// dates and what is left on each; the ledger, newest first; the reminders and blocks dunning took;
// and the payment terms, as a form for those who manage billing (the page puts it in `termsForm`)
// or as words for the others. Renders props, calls callbacks.
import { useId, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Tag } from 'primereact/tag';
import { DUNNING_STEP_LABELS, LEDGER_KIND_LABELS, type CustomerAccountWire, type LedgerEntryWire } from '../../../domain/ledger';
import { formatMoney } from '../../../domain/money';
import { DASH, count, formatDateTime } from '../../common/format';
import { NavLink } from '../../common/NavLink';
import { StatCard } from '../../common/StatCard';
import { formatDay } from '../statements/parts';
import { ACCOUNT_TEXTS as T, balanceWords, EntriesTableHead, statementsPaid, termsLabel } from './parts';
import './account.css';

export interface CustomerAccountCardProps {
  account: CustomerAccountWire | null;
  error: string | null;
  refreshing: boolean;
  /** The terms form, for those who manage billing; without it the terms are shown as words. */
  termsForm?: ReactNode;
  onRetry(): void;
  onNavigate(url: string): void;
}

const statementUrl = (id: string) => `/billing/statements/${encodeURIComponent(id)}`;

export function CustomerAccountCard({ account, error, refreshing, termsForm, onRetry, onNavigate }: CustomerAccountCardProps) {
  const id = useId();
  return (
    <section className="list-card customer-account" aria-labelledby={`${id}-title`} aria-busy={refreshing || undefined}>
      <div className="section-head">
        <h2 id={`${id}-title`} className="customer-account-title">
          {T.title}
        </h2>
        {account?.terms.blockedForNonPayment && <Tag value={T.blocked} severity="danger" icon="pi pi-lock" />}
      </div>
      {error && account === null ? (
        <p className="customer-account-failed">
          <span className="p-error">
            {T.failed}: {error}
          </span>{' '}
          <Button type="button" label={T.retry} icon="pi pi-refresh" text size="small" onClick={onRetry} />
        </p>
      ) : account === null ? (
        <p role="status" className="text-muted">
          {T.loading}
        </p>
      ) : (
        <>
          {error && (
            <p className="p-error customer-account-failed">
              {T.failed}: {error}
            </p>
          )}
          <Balances account={account} />
          <OpenStatements account={account} onNavigate={onNavigate} />
          <History entries={account.entries} onNavigate={onNavigate} />
          <Dunning account={account} />
          <div className="customer-account-part">
            <h3>{T.terms}</h3>
            {termsForm ?? <TermsWords account={account} />}
          </div>
        </>
      )}
    </section>
  );
}

function Balances({ account }: { account: CustomerAccountWire }) {
  if (account.balances.length === 0) return <p className="text-muted">{T.nothingBilled}</p>;
  return (
    <div className="customer-account-balances">
      {account.balances.map((b) => (
        <StatCard key={b.currency} title={`${T.balance} ${b.currency}`} icon="pi pi-wallet" headingLevel={3} loading={false} value={balanceWords(b)}>
          <dl className="customer-account-figures">
            <div>
              <dt>{T.open}</dt>
              <dd>{formatMoney(b.openMinor, b.currency)}</dd>
            </div>
            <div>
              <dt>{T.overdue}</dt>
              <dd className={b.overdueMinor > 0 ? 'customer-account-overdue' : undefined}>{formatMoney(b.overdueMinor, b.currency)}</dd>
            </div>
          </dl>
        </StatCard>
      ))}
    </div>
  );
}

function OpenStatements({ account, onNavigate }: { account: CustomerAccountWire; onNavigate(url: string): void }) {
  return (
    <div className="customer-account-part">
      <h3>{T.openStatements}</h3>
      {account.open.length === 0 ? (
        <p className="text-muted">{T.noOpen}</p>
      ) : (
        <table className="account-table" aria-label={T.openStatements}>
          <thead>
            <tr>
              <th scope="col">Statement</th>
              <th scope="col">Due</th>
              <th scope="col" className="statement-number-cell">
                Days overdue
              </th>
              <th scope="col" className="statement-number-cell">
                Left to pay
              </th>
            </tr>
          </thead>
          <tbody>
            {account.open.map((o) => (
              <tr key={o.statementId} className={o.daysOverdue > 0 ? 'account-row-overdue' : undefined}>
                <td>
                  <NavLink url={statementUrl(o.statementId)} onNavigate={onNavigate}>
                    {o.number || DASH}
                  </NavLink>
                </td>
                <td>{formatDay(o.dueOn)}</td>
                <td className="statement-number-cell">{o.daysOverdue > 0 ? count(o.daysOverdue) : DASH}</td>
                <td className="statement-number-cell">{formatMoney(o.openMinor, o.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** "Payment", or "Payment (reversed)" once a later entry undid it. */
const kindText = (entry: LedgerEntryWire) => `${LEDGER_KIND_LABELS[entry.kind]}${entry.reversedById ? ' (reversed)' : ''}`;

function History({ entries, onNavigate }: { entries: readonly LedgerEntryWire[]; onNavigate(url: string): void }) {
  return (
    <div className="customer-account-part">
      <h3>{T.history}</h3>
      {entries.length === 0 ? (
        <p className="text-muted">{T.noHistory}</p>
      ) : (
        <table className="account-table" aria-label={T.history}>
          <EntriesTableHead />
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{formatDay(e.occurredOn)}</td>
                <td>{kindText(e)}</td>
                <td className="statement-number-cell">{formatMoney(e.amountMinor, e.currency)}</td>
                <td>
                  {e.kind === 'charge' && e.statementId ? (
                    <NavLink url={statementUrl(e.statementId)} onNavigate={onNavigate}>
                      {e.statementNumber ?? DASH}
                    </NavLink>
                  ) : (
                    (e.reference ?? DASH)
                  )}
                  {e.note && (
                    <>
                      <br />
                      <small className="cell-secondary">{e.note}</small>
                    </>
                  )}
                </td>
                <td>{statementsPaid(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Dunning({ account }: { account: CustomerAccountWire }) {
  return (
    <div className="customer-account-part">
      <h3>{T.dunning}</h3>
      {account.dunning.length === 0 ? (
        <p className="text-muted">{T.noDunning}</p>
      ) : (
        <ul className="customer-account-dunning" aria-label={T.dunning}>
          {account.dunning.map((d, i) => (
            <li key={`${d.step}-${d.statementId ?? ''}-${i}`}>
              <strong>{DUNNING_STEP_LABELS[d.step]}</strong>
              <span>{d.statementNumber ?? DASH}</span>
              <span className="text-muted">{formatDateTime(d.takenAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TermsWords({ account }: { account: CustomerAccountWire }) {
  const { terms } = account;
  return (
    <p className="customer-account-terms">
      {termsLabel(terms.paymentTermsDays)}
      {terms.promiseToPayUntil && (
        <>
          {' · '}Promise to pay until {formatDay(terms.promiseToPayUntil)}
          {terms.promiseNote ? ` (${terms.promiseNote})` : ''}
        </>
      )}
    </p>
  );
}
