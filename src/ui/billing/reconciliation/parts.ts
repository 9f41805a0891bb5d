// What the reconciliation board's pieces share: texts, the cycle's name, the cycles offered, and
// the order leaks are listed in.
import { cycleOf, shiftCycle, type LeakKind, type LeakWire, type OtherCurrencyBilling } from '../../../domain/billing';
import { formatMoney } from '../../../domain/money';
import { monthLabel } from '../../../domain/my-area';

export const RECONCILIATION_TEXTS = {
  estimateBanner: 'Provider cost is an estimate until the invoice for this cycle arrives',
  importInvoices: 'Import invoices',
  importing: 'Importing...',
  imported: (imported: number, updated: number) => `Invoices imported: ${imported} new, ${updated} updated`,
  importFailed: 'The invoices could not be imported',
  previousCycle: 'Previous cycle',
  nextCycle: 'Next cycle',
  currentCycle: 'Current cycle',
  cycle: 'Cycle',
  providerCost: 'Provider cost',
  billed: 'Billed to customers',
  margin: 'Margin',
  atStake: 'At stake in open leaks',
  estimate: 'Estimate',
  invoice: (id: string, status: string | null) => `Invoice ${id}${status ? ` (${status})` : ''}`,
  statements: (n: number) => (n === 1 ? '1 statement' : `${n} statements`),
  openLeaks: (n: number) => (n === 1 ? '1 open leak' : `${n} open leaks`),
  kindSummary: (n: number, amount: string) => `${n === 1 ? '1 open' : `${n} open`} \u00b7 ${amount}`,
  noLeaks: 'Nothing here this cycle.',
  loading: 'Loading the board...',
  loadFailed: 'The reconciliation board could not be loaded',
  handled: 'Handled',
  by: (who: string | null, at: string) => `by ${who ?? 'the portal'}, ${at}`,
  chartTitle: 'Amount at stake per kind of leak',
  working: 'Working...',
  readOnly: 'Your roles let you read the reconciliation, not fix leaks or import invoices.',
  otherCurrencies: (currency: string, others: readonly OtherCurrencyBilling[]) =>
    `Not compared with this account\u2019s ${currency} cost: ${others
      .map((o) => `${o.lines === 1 ? '1 line' : `${o.lines} lines`} billed in ${o.currency} (${formatMoney(o.billedMinor, o.currency)})`)
      .join(', ')}.`,
} as const;

/** The chart's axis: the kinds' short names. */
export const LEAK_SHORT_LABELS: Readonly<Record<LeakKind, string>> = {
  unassigned: 'No customer',
  inactive_customer: 'Inactive customer',
  below_cost: 'Below cost',
  unbilled_top_up: 'Unbilled top-ups',
  invoice_unmatched: 'Not in inventory',
  missing_from_invoice: 'Not on invoice',
};

/** The cycles offered: the last two years up to the current one, newest first, and the one shown. */
export function cycleOptions(current: string, shown: string): { label: string; value: string }[] {
  const cycles = Array.from({ length: 24 }, (_, i) => shiftCycle(current, -i));
  if (!cycles.includes(shown)) cycles.push(shown);
  return cycles.sort((a, b) => b.localeCompare(a)).map((value) => ({ label: monthLabel(value), value }));
}

export const currentCycle = (now = new Date()) => cycleOf(now);

/** Open leaks first, each group largest first. */
export function leakOrder(a: LeakWire, b: LeakWire): number {
  const open = Number(a.resolution !== null) - Number(b.resolution !== null);
  return open !== 0 ? open : b.amountMinor - a.amountMinor;
}

export const leakId = (leak: Pick<LeakWire, 'kind' | 'key'>) => `${leak.kind}/${leak.key}`;
