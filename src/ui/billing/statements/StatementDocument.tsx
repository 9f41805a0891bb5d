// One statement as a document, the same on screen and on paper: the heading with its number (or
// the DRAFT label and watermark), the cycle with its first and last day, who it is billed to, the
// charges line by line, the discounts and corrections, and the totals in the statement's currency;
// once closed, the day it is due, what has been paid on it and the amount still due.
// Read-only: what can be done with a statement (print, a correction) sits outside it, so that
// printing leaves only this.
import type { StatementItemWire, StatementWire } from '../../../domain/billing';
import { formatMoney } from '../../../domain/money';
import { DASH, formatDateTime } from '../../common/format';
import { STATEMENT_TEXTS as T, formatDay, formatPeriod, quantityText } from './parts';
import './statements.css';
import { monthLabel } from '../../../domain/my-area';

const isCharge = (item: StatementItemWire) => item.kind === 'plan' || item.kind === 'overage' || item.kind === 'top_up';

export function StatementDocument({ statement }: { statement: StatementWire }) {
  const { currency } = statement;
  const money = (minor: number) => formatMoney(minor, currency);
  const draft = statement.status === 'draft';
  const charges = statement.items.filter(isCharge);
  const reductions = statement.items.filter((item) => !isCharge(item));
  const title = draft ? `Statement (draft), ${monthLabel(statement.cycle)}` : `Statement ${statement.number ?? ''}`.trim();

  return (
    <article className={draft ? 'statement-document statement-draft' : 'statement-document'} aria-label={title}>
      {draft && (
        // Drawn by CSS from the attribute: a faint decoration, not text to read or to contrast-check.
        <div className="statement-watermark" aria-hidden="true" data-watermark={T.draftWatermark} />
      )}
      <header className="statement-heading">
        <div>
          <h2 className="statement-title">Statement</h2>
          {draft ? (
            <p className="statement-number">
              <strong className="statement-draft-label">{T.draftWatermark}</strong> <span className="text-muted">{T.draftNote}</span>
            </p>
          ) : (
            <p className="statement-number">
              No. <strong>{statement.number}</strong>
            </p>
          )}
        </div>
        <dl className="statement-facts">
          <div>
            <dt>Cycle</dt>
            <dd>
              {monthLabel(statement.cycle)}
              <br />
              <span className="text-muted">{formatPeriod(statement.cycleStart || null, statement.cycleEnd || null)}</span>
            </dd>
          </div>
          <div>
            <dt>{draft ? 'Last updated' : 'Closed'}</dt>
            <dd>{formatDateTime(draft ? statement.updatedAt : statement.closedAt)}</dd>
          </div>
          {!draft && (
            <div>
              <dt>Due</dt>
              <dd>{formatDay(statement.dueOn)}</dd>
            </div>
          )}
          <div>
            <dt>Currency</dt>
            <dd>{currency}</dd>
          </div>
        </dl>
      </header>

      <section className="statement-customer" aria-label="Billed to">
        <h3>Billed to</h3>
        <address>
          <strong>{statement.customerName || DASH}</strong>
          {statement.customerCompany && <div>{statement.customerCompany}</div>}
          {statement.customerAddress && <div className="statement-address">{statement.customerAddress}</div>}
          <div>{statement.customerEmail}</div>
        </address>
      </section>

      <table className="statement-lines" aria-label="Charges">
        <thead>
          <tr>
            <th scope="col">Service line</th>
            <th scope="col">Description</th>
            <th scope="col">Period</th>
            <th scope="col" className="statement-number-cell">
              Quantity
            </th>
            <th scope="col" className="statement-number-cell">
              Unit price
            </th>
            <th scope="col" className="statement-number-cell">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {charges.length === 0 ? (
            <tr>
              <td colSpan={6} className="text-muted">
                No charges this cycle
              </td>
            </tr>
          ) : (
            charges.map((item) => (
              <tr key={item.position}>
                <td>{item.serviceLineNumber ?? DASH}</td>
                <td>{item.description}</td>
                <td>{formatPeriod(item.periodStart, item.periodEnd)}</td>
                <td className="statement-number-cell">{quantityText(item)}</td>
                <td className="statement-number-cell">{item.unitMinor === null ? DASH : money(item.unitMinor)}</td>
                <td className="statement-number-cell">{money(item.amountMinor)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>

      {reductions.length > 0 && (
        <table className="statement-lines statement-reductions" aria-label="Discounts and corrections">
          <thead>
            <tr>
              <th scope="col">Discounts and corrections</th>
              <th scope="col">Period</th>
              <th scope="col" className="statement-number-cell">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {reductions.map((item) => (
              <tr key={item.position}>
                <td>
                  {item.kind === 'discount' ? 'Discount' : 'Correction'}: {item.description}
                </td>
                <td>{formatPeriod(item.periodStart, item.periodEnd)}</td>
                <td className="statement-number-cell">{money(item.amountMinor)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <table className="statement-totals" aria-label="Totals">
        <tbody>
          <tr>
            <th scope="row">Subtotal</th>
            <td className="statement-number-cell">{money(statement.subtotalMinor)}</td>
          </tr>
          <tr>
            <th scope="row">Discounts</th>
            <td className="statement-number-cell">{money(statement.discountMinor)}</td>
          </tr>
          <tr>
            <th scope="row">Corrections</th>
            <td className="statement-number-cell">{money(statement.adjustmentMinor)}</td>
          </tr>
          <tr className="statement-total">
            <th scope="row">Total ({currency})</th>
            <td className="statement-number-cell">{money(statement.totalMinor)}</td>
          </tr>
          {/* A draft is not charged yet: nothing is paid on it and nothing is due. */}
          {!draft && (
            <>
              <tr>
                <th scope="row">Paid</th>
                <td className="statement-number-cell">{money(statement.paidMinor)}</td>
              </tr>
              <tr className="statement-amount-due">
                <th scope="row">Amount due{statement.dueOn ? ` by ${formatDay(statement.dueOn)}` : ''}</th>
                <td className="statement-number-cell">{money(statement.amountDueMinor)}</td>
              </tr>
            </>
          )}
        </tbody>
      </table>
    </article>
  );
}
