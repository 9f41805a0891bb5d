// The CSV exports of the list pages: for each list, the columns its table shows, as a
// spreadsheet wants them. A cell that stacks two facts on screen (company over id, name over email)
// is two columns; tags are their words; dates and times are ISO 8601 as the server holds them; GB
// have the table's one decimal and money two, in GB and in the row's currency whatever the screen
// abbreviates (TB, "USD"), so a column sorts and sums. The server writes the files with these
// (server/services/list-exports.ts) and the client names a file it is not told the name of.
import { ALERT_SEVERITY_LABELS, ALERT_STATUS_LABELS, targetText, type AlertWire } from './alerts';
import { recordOverage, recordPercentage, recordRemaining, type TerminalUsageRecord } from './customer-terminals';
import { customerDisplayName, customerStatus, type CustomerListItem } from './customers';
import type { CsvColumn } from './csv';
import type { SubscriptionWire } from './subscriptions';
import { ownerLabel, SYNC_STATUS_LABEL, type TerminalRowWire } from './terminals';
import { userStatus, type UserWire } from './users';

export const LIST_EXPORT_NAMES = ['customers', 'terminals', 'subscriptions', 'users', 'customer-usage', 'alerts'] as const;
export type ListExportName = (typeof LIST_EXPORT_NAMES)[number];

/** A list's export: the start of its file name and its columns. */
export interface ListExport<Row> {
  name: ListExportName;
  columns: readonly CsvColumn<Row>[];
}

/** `customers-2026-03-02.csv`: the list and the day (UTC) it was exported. */
export const listExportFileName = (name: ListExportName, at: Date) => `${name}-${at.toISOString().slice(0, 10)}.csv`;

/** The toast of a refused export that carries no message of its own. */
export const LIST_EXPORT_FAILED: Readonly<Record<ListExportName, string>> = {
  customers: 'Could not export the customers',
  terminals: 'Could not export the terminals',
  subscriptions: 'Could not export the subscriptions',
  users: 'Could not export the users',
  'customer-usage': "Could not export the customer's usage",
  alerts: 'Could not export the alerts',
};

const gb = (value: number) => value.toFixed(1);
const money = (value: number) => value.toFixed(2);
const enabled = (on: boolean) => (on ? 'Enabled' : 'Disabled');

export const CUSTOMERS_EXPORT: ListExport<CustomerListItem> = {
  name: 'customers',
  columns: [
    { header: 'Company', value: (c) => c.company },
    { header: 'Customer ID', value: (c) => c.uuid },
    { header: 'Name', value: (c) => customerDisplayName(c) },
    { header: 'Email', value: (c) => c.email },
    { header: 'Status', value: (c) => customerStatus(c) },
    { header: 'Blocked Reason', value: (c) => (c.blockedEnabled ? c.blockedReason : null) },
    { header: 'MFA', value: (c) => enabled(c.mfaEnabled) },
    { header: 'Account Expires', value: (c) => c.accountExpiresAt },
    { header: 'Last Login', value: (c) => c.lastLogin },
  ],
};

export const TERMINALS_EXPORT: ListExport<TerminalRowWire> = {
  name: 'terminals',
  columns: [
    { header: 'Service Line Number', value: (t) => t.service_line_number },
    { header: 'Terminal ID', value: (t) => t.user_terminal_id },
    { header: 'Owner', value: (t) => ownerLabel({ assignedTo: t.assigned_to ?? undefined, assignedToCustomer: t.assigned_to_customer ?? undefined }).name },
    { header: 'Owner ID', value: (t) => t.assigned_to },
    { header: 'Status', value: (t) => (t.active ? 'Active' : 'Inactive') },
    { header: 'Sync', value: (t) => SYNC_STATUS_LABEL[t.sync_status] },
    { header: 'Account', value: (t) => t.account_name },
  ],
};

export const SUBSCRIPTIONS_EXPORT: ListExport<SubscriptionWire> = {
  name: 'subscriptions',
  columns: [
    { header: 'Terminal ID', value: (s) => s.terminalId },
    { header: 'Service Line Number', value: (s) => s.serviceLineNumber },
    { header: 'Location', value: (s) => s.location },
    { header: 'Terminal Type', value: (s) => s.terminalType },
    { header: 'Plan', value: (s) => s.plan },
    { header: 'Plan Data (GB)', value: (s) => gb(s.monthlyDataGB) },
    { header: 'Used (GB)', value: (s) => gb(s.usedGB) },
    { header: 'Remaining (GB)', value: (s) => gb(s.remainingGB) },
    { header: 'Overage (GB)', value: (s) => gb(s.overageGB) },
    { header: 'Overage Charges', value: (s) => money(s.overageCharges) },
    { header: 'Currency', value: (s) => s.currency },
    { header: 'Forecast Used (GB)', value: (s) => (s.forecast ? gb(s.forecast.projectedUsedGB) : null) },
    { header: 'Forecast Overage (GB)', value: (s) => (s.forecast ? gb(s.forecast.projectedOverageGB) : null) },
    { header: 'Forecast Charges', value: (s) => (s.forecast ? money(s.forecast.projectedCharges) : null) },
    { header: 'Status', value: (s) => s.status },
    { header: 'Account', value: (s) => s.accountName },
  ],
};

export const USERS_EXPORT: ListExport<UserWire> = {
  name: 'users',
  columns: [
    { header: 'Name', value: (u) => u.name },
    { header: 'Email', value: (u) => u.email },
    { header: 'User ID', value: (u) => u.uuid },
    { header: 'Role', value: (u) => u.role },
    { header: 'Status', value: (u) => userStatus({ blockedEnabled: u.blocked_enabled, isActive: u.is_active }) },
    { header: 'Blocked Reason', value: (u) => (u.blocked_enabled ? u.blocked_reason : null) },
    { header: 'Deleted', value: (u) => u.deleted_at },
    { header: 'Locked Until', value: (u) => u.locked_until },
    { header: 'MFA', value: (u) => enabled(u.mfa_enabled) },
    { header: 'Last Login', value: (u) => u.last_login },
    { header: 'Created', value: (u) => u.created_at },
  ],
};

/** A figure of the record's billing cycle; empty when the month has none (the table's dash). */
const ofCycle = (r: TerminalUsageRecord, figure: (r: TerminalUsageRecord) => string) => (r.currentBillingCycle ? figure(r) : null);

export const CUSTOMER_USAGE_EXPORT: ListExport<TerminalUsageRecord> = {
  name: 'customer-usage',
  columns: [
    { header: 'Service Line Number', value: (r) => r.serviceLineNumber },
    { header: 'Terminal ID', value: (r) => r.terminalId },
    { header: 'Location', value: (r) => r.location },
    { header: 'Priority Used (GB)', value: (r) => ofCycle(r, (x) => gb(x.currentBillingCycle!.priorityData.used)) },
    { header: 'Priority Total (GB)', value: (r) => ofCycle(r, (x) => gb(x.currentBillingCycle!.priorityData.total)) },
    { header: 'Used (%)', value: (r) => ofCycle(r, (x) => String(Math.round(recordPercentage(x)))) },
    { header: 'Remaining (GB)', value: (r) => ofCycle(r, (x) => gb(recordRemaining(x))) },
    { header: 'Overage (GB)', value: (r) => ofCycle(r, (x) => gb(recordOverage(x))) },
    { header: 'Data Cap', value: (r) => (r.dataCap ? `${r.dataCap.amount} ${r.dataCap.unit}` : null) },
    { header: 'Billing Cycle Start', value: (r) => r.currentBillingCycle?.startDate },
    { header: 'Billing Cycle End', value: (r) => r.currentBillingCycle?.endDate },
    { header: 'Status', value: (r) => r.status },
  ],
};

export const ALERTS_EXPORT: ListExport<AlertWire> = {
  name: 'alerts',
  columns: [
    { header: 'Severity', value: (a) => ALERT_SEVERITY_LABELS[a.severity] },
    { header: 'Alert', value: (a) => a.title },
    { header: 'Details', value: (a) => a.message },
    { header: 'Target', value: (a) => targetText(a) },
    { header: 'Customer', value: (a) => a.customer?.name },
    { header: 'Customer ID', value: (a) => a.customer?.uuid },
    { header: 'Status', value: (a) => ALERT_STATUS_LABELS[a.status] },
    { header: 'Acknowledged By', value: (a) => a.acknowledgedBy },
    { header: 'Opened', value: (a) => a.openedAt },
  ],
};
