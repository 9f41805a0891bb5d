// What the provider bills the reseller, read live: the balance and invoices, and an invoice's
// lines each linked to the inventory's terminal on its service line. A line billed for a service
// line the inventory does not have is counted apart: money the reseller pays and may not bill.
import {
  PROVIDER_BILLING_MESSAGES as M,
  type ProviderBillingWire,
  type ProviderInvoiceWire,
} from '../../../src/domain/provider-billing';
import { DEFAULT_CURRENCY } from '../../../src/domain/subscriptions';
import type { Repositories } from '../../db/repositories';
import { NotFoundError, ServiceUnavailableError } from '../../errors';
import { isProviderError } from '../../provider/errors';
import type { StarlinkClient } from '../../provider';
import type { ProviderDirectory } from '../../provider-access';
import { providerFailure } from '../provider-failures';

/** One provider account's billing: the account asked for, else the first enabled one. */
export interface ProviderBillingService {
  overview(accountId?: number): Promise<ProviderBillingWire>;
  invoice(invoiceId: string, accountId?: number): Promise<ProviderInvoiceWire>;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function createProviderBillingService(deps: { repos: Repositories; provider: ProviderDirectory | null; noProvider: string }): ProviderBillingService {
  const client = async (accountId: number | undefined): Promise<StarlinkClient> => {
    if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
    return (await deps.provider.access(accountId ?? (await deps.provider.defaultAccount()))).client();
  };

  return {
    async overview(accountId) {
      const provider = await client(accountId);
      try {
        const [balance, invoices] = await Promise.all([provider.getBalance(), provider.listInvoices()]);
        return {
          balances: balance.balances.map((b) => ({ currency: b.currency, dueAmount: b.dueAmount })),
          invoices: invoices.items.map((i) => ({
            invoiceId: i.invoiceId,
            description: i.description,
            currency: i.currency ?? DEFAULT_CURRENCY,
            amount: i.amount,
            dueAmount: i.dueAmount,
            invoiceDate: i.invoiceDate,
            dueDate: i.dueDate,
            status: i.status ?? 'Unknown',
          })),
        };
      } catch (error) {
        throw providerFailure(error, M.loadFailed);
      }
    },

    async invoice(invoiceId, accountId) {
      const provider = await client(accountId);
      let detail;
      try {
        detail = await provider.getInvoice(invoiceId);
      } catch (error) {
        if (isProviderError(error) && error.kind === 'not-found') throw new NotFoundError(M.invoiceNotFound);
        throw providerFailure(error, M.loadFailed);
      }
      const onLines = await deps.repos.serviceLines.terminalsOnLines(detail.invoiceLines.flatMap((line) => line.serviceLineNumbers));
      const lines = detail.invoiceLines.map((line) => ({
        productReferenceId: line.productReferenceId,
        description: line.productDescription,
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        taxAmount: line.taxAmount,
        subTotal: line.subTotal,
        periodStart: line.servicePeriodStartDate,
        periodEnd: line.servicePeriodEndDate,
        serviceLines: line.serviceLineNumbers.map((serviceLineNumber) => ({ serviceLineNumber, userTerminalId: onLines.get(serviceLineNumber) ?? null })),
      }));
      const unmatched = lines.filter((line) => line.serviceLines.length > 0 && line.serviceLines.every((sl) => sl.userTerminalId === null));
      return {
        invoiceId: detail.invoiceId,
        currency: detail.currency ?? DEFAULT_CURRENCY,
        dueAmount: detail.dueAmount,
        paidAmount: detail.paidAmount,
        invoiceDate: detail.invoiceDate,
        dueDate: detail.dueDate,
        lines,
        unmatched: { lines: unmatched.length, amount: round2(unmatched.reduce((sum, line) => sum + line.subTotal + line.taxAmount, 0)) },
      };
    },
  };
}
