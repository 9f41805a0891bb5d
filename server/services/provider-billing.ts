// What the provider bills the reseller, read live: the balance and invoices, and an invoice's
// lines each linked to the inventory's terminal on its service line. A line billed for a service
// line the inventory does not have is counted apart: money the reseller pays and may not bill.
import {
  PROVIDER_BILLING_MESSAGES as M,
  type ProviderBillingWire,
  type ProviderInvoiceWire,
} from '../../src/domain/provider-billing';
import { DEFAULT_CURRENCY } from '../../src/domain/subscriptions';
import type { Repositories } from '../db/repositories';
import { NotFoundError, ServiceUnavailableError } from '../errors';
import { isProviderError } from '../provider/errors';
import type { StarlinkClient } from '../provider';
import type { ProviderAccess } from './console-provider';
import { providerFailure } from './provider-failures';

export interface ProviderBillingService {
  overview(): Promise<ProviderBillingWire>;
  invoice(invoiceId: string): Promise<ProviderInvoiceWire>;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function createProviderBillingService(deps: { repos: Repositories; provider: ProviderAccess | null; noProvider: string }): ProviderBillingService {
  const client = (): StarlinkClient => {
    if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
    return deps.provider.client();
  };

  return {
    async overview() {
      try {
        const [balance, invoices] = await Promise.all([client().getBalance(), client().listInvoices()]);
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

    async invoice(invoiceId) {
      let detail;
      try {
        detail = await client().getInvoice(invoiceId);
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
