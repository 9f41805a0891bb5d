// The customer area (/my/…): what a signed-in customer sees of their own terminals —
// the overview figures, the open alerts computed from the data, the terminal list and page — the
// rename and reboot rules (name length, the reboot pace), and the texts. Shared by the server
// (answers, checks) and the client (views, machines). Every figure is about the token's own
// account; nothing here takes a customer id.
import { ALERT_KINDS } from './alerts';
import { MAINTENANCE_ALERTS, MONTH_NAMES, TELEMETRY_OFFLINE_AFTER_MS } from './terminals';
import type { SubscriptionForecast } from './subscriptions';

// ---- Limits --------------------------------------------------------------------------------

export const TERMINAL_NAME_MAX_LENGTH = 100;
/** The terminal page offers the current month and the 11 before it. */
export const MY_USAGE_MONTHS = 12;
/** A terminal may be rebooted once per this many minutes… */
export const REBOOT_TERMINAL_INTERVAL_MINUTES = 10;
/** …and a customer may reboot at most this many times in any hour, whichever terminals. */
export const REBOOT_CUSTOMER_LIMIT_PER_HOUR = 10;

// ---- Answers -------------------------------------------------------------------------------

/** Active: in service; Ending: in service until its end date; Inactive: no service. */
export const MY_LINE_STATUSES = ['Active', 'Ending', 'Inactive'] as const;
export type MyLineStatus = (typeof MY_LINE_STATUSES)[number];

export interface MyUsageFigures {
  usedGB: number;
  /** The plan's data for the cycle (the line's cap); 0 when unknown. */
  planGB: number;
  remainingGB: number;
  overageGB: number;
  /** usedGB of planGB, whole percent (may pass 100). */
  percentage: number;
}

/** One of the customer's terminals (`GET /my/terminals`). */
export interface MyTerminalWire {
  terminalId: string;
  nickname: string | null;
  serviceLineNumber: string | null;
  kitSerialNumber: string;
  dishSerialNumber: string | null;
  status: MyLineStatus;
  /** The day the line ends (Ending), else null. */
  lineEndDate: string | null;
  online: boolean;
  /** Percent, one decimal; null when never read. */
  signalQuality: number | null;
  uptimeSeconds: number | null;
  /** When the telemetry was read; null when it never was. */
  telemetryAt: string | null;
  /** Alert names the terminal reports. */
  alerts: string[];
  planName: string | null;
  usage: MyUsageFigures;
  /** The cycle the usage is for (the one containing today); null when none is stored. */
  billingCycle: { startDate: string; endDate: string } | null;
}

/** The Overview's alert kinds: the stored alerts' and a terminal's hardware alert, read live. */
export const MY_ALERT_KINDS = [...ALERT_KINDS, 'hardware'] as const;
export type MyAlertKind = (typeof MY_ALERT_KINDS)[number];

/**
 * An alert on the Overview: one of the customer's stored alerts not yet resolved (its own id,
 * opened time and words), or a hardware alert the terminal reports now (not a rule: it lasts as
 * long as the terminal says so).
 */
export interface MyAlertWire {
  id: string;
  kind: MyAlertKind;
  severity: 'warning' | 'critical';
  title: string;
  /** The terminal it is about, when it is about one (a line's alert names the line's terminal). */
  terminalId: string | null;
  serviceLineNumber: string | null;
  message: string;
  /** Since when it holds, when known. */
  since: string | null;
}

/** `GET /my/overview`. */
export interface MyOverviewWire {
  terminals: number;
  onlineNow: number;
  /** This cycle over every line: used against the sum of the caps. */
  usage: MyUsageFigures;
  /** Null when no line has a cycle to project from. */
  forecast: SubscriptionForecast | null;
  currency: string;
  alerts: { count: number; items: MyAlertWire[] };
}

export interface MyDailyUsage {
  date: string;
  priorityGB: number;
  standardGB: number;
}

/** `GET /my/terminals/:terminalId?month=YYYY-MM`. */
export interface MyTerminalDetailWire {
  terminal: MyTerminalWire;
  /** The month shown, `YYYY-MM`. */
  month: string;
  /** The months that may be asked for, newest first. */
  months: string[];
  /** Every day of the month up to today, priority vs standard (zeros included). */
  daily: MyDailyUsage[];
  totals: { priorityGB: number; standardGB: number };
  /** The current cycle's projection; null when there is none to project from. */
  forecast: SubscriptionForecast | null;
  currency: string;
}

/** `PUT /my/terminals/:terminalId/name` body. */
export interface RenameTerminalPayload {
  name: string;
}

/** `POST /my/terminals/:terminalId/reboot` answer. */
export interface RebootResultWire {
  terminalId: string;
  requestedAt: string;
}

// ---- Rules ---------------------------------------------------------------------------------

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** `YYYY-MM` of a moment (UTC). */
export const monthOf = (at: Date) => `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;

/** The months the terminal page offers, newest (the current one, UTC) first. */
export function selectableMonths(now: Date, count = MY_USAGE_MONTHS): string[] {
  const months: string[] = [];
  for (let i = 0; i < count; i++) months.push(monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1))));
  return months;
}

/** "March 2026" for `2026-03`. */
export function monthLabel(month: string): string {
  const [year, m] = month.split('-');
  return `${MONTH_NAMES[Number(m) - 1] ?? ''} ${year ?? ''}`.trim();
}

/** The line's status as the customer sees it. */
export function lineStatus(active: boolean, endDate: string | null): MyLineStatus {
  if (!active) return 'Inactive';
  return endDate ? 'Ending' : 'Active';
}

/** Online at `at` (the moment the reading was taken): a report no older than the admin side's offline threshold. */
export function isOnline(telemetryAt: string | null, at: Date): boolean {
  if (!telemetryAt) return false;
  const age = at.getTime() - Date.parse(telemetryAt);
  return age <= TELEMETRY_OFFLINE_AFTER_MS;
}

const HARDWARE = new Set<string>(MAINTENANCE_ALERTS);

/** The hardware alerts the terminals report now (motors stuck, thermal shutdown…), by terminal. */
export function hardwareAlerts(terminals: readonly MyTerminalWire[]): MyAlertWire[] {
  const alerts: MyAlertWire[] = [];
  for (const t of terminals) {
    const hardware = t.alerts.filter((a) => HARDWARE.has(a));
    if (hardware.length === 0) continue;
    const name = t.nickname || t.terminalId;
    alerts.push({
      id: `hardware:${t.terminalId}`,
      kind: 'hardware',
      severity: 'critical',
      title: MY_AREA_MESSAGES.hardwareTitle,
      terminalId: t.terminalId,
      serviceLineNumber: t.serviceLineNumber,
      message: MY_AREA_MESSAGES.alertHardware(name, hardware.map(alertLabel)),
      since: t.telemetryAt,
    });
  }
  return alerts.sort((a, b) => (a.terminalId ?? '').localeCompare(b.terminalId ?? ''));
}

/** "alertMotorsStuck" → "motors stuck". */
export function alertLabel(name: string): string {
  return name
    .replace(/^alert/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
}

/**
 * Whole minutes until another reboot is allowed, or 0 when one is allowed now: the terminal's
 * last reboot must be REBOOT_TERMINAL_INTERVAL_MINUTES old, and the customer's reboots of the
 * last hour fewer than REBOOT_CUSTOMER_LIMIT_PER_HOUR (the wait is until the oldest leaves it).
 */
export function rebootWaitMinutes(input: { terminalLast: Date | null; customerLastHour: readonly Date[]; at: Date }): { minutes: number; reason: 'terminal' | 'customer' | null } {
  const { at } = input;
  const ms = (minutes: number) => minutes * 60_000;
  let wait = 0;
  let reason: 'terminal' | 'customer' | null = null;
  if (input.terminalLast) {
    const left = input.terminalLast.getTime() + ms(REBOOT_TERMINAL_INTERVAL_MINUTES) - at.getTime();
    if (left > 0) {
      wait = left;
      reason = 'terminal';
    }
  }
  const recent = input.customerLastHour.filter((d) => at.getTime() - d.getTime() < ms(60)).sort((a, b) => a.getTime() - b.getTime());
  if (recent.length >= REBOOT_CUSTOMER_LIMIT_PER_HOUR) {
    // The wait until enough of them are an hour old that one more fits.
    const freeing = recent[recent.length - REBOOT_CUSTOMER_LIMIT_PER_HOUR]!;
    const left = freeing.getTime() + ms(60) - at.getTime();
    if (left > wait) {
      wait = left;
      reason = 'customer';
    }
  }
  return { minutes: wait > 0 ? Math.max(1, Math.ceil(wait / 60_000)) : 0, reason };
}

/** A nickname the rename accepts: trimmed, 1–100 characters, no control characters. */
export function terminalNameProblem(name: string): string | null {
  const value = name.trim();
  if (value.length === 0) return MY_AREA_MESSAGES.nameRequired;
  if (value.length > TERMINAL_NAME_MAX_LENGTH) return MY_AREA_MESSAGES.nameTooLong;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return MY_AREA_MESSAGES.nameControl;
  return null;
}

// ---- Texts ---------------------------------------------------------------------------------

export const MY_AREA_MESSAGES = {
  portalTitle: 'Customer Portal',
  overviewTitle: 'Overview',
  terminalsTitle: 'My Terminals',
  terminalTitle: 'Terminal',
  overview: 'Overview retrieved successfully',
  listed: 'Terminals retrieved successfully',
  detail: 'Terminal retrieved successfully',
  notFound: 'Terminal not found',
  monthInvalid: 'month must be a month written YYYY-MM, like 2026-03',
  monthOutOfRange: (first: string, last: string) => `month must be one of the last ${MY_USAGE_MONTHS} months, from ${first} to ${last}`,
  terminalIdInvalid: 'terminalId must be a terminal id: letters, digits and dashes',
  nameRequired: 'Enter a name for the terminal',
  nameTooLong: `The name may be at most ${TERMINAL_NAME_MAX_LENGTH} characters`,
  nameControl: 'The name may not contain control characters',
  renamed: (name: string) => `The terminal is now called ${name}`,
  noLine: 'This terminal is not on a service line, so it cannot be renamed',
  rebooted: 'Reboot sent. The terminal will be back online in a few minutes.',
  rebootInactive: 'This terminal’s service is not active or is ending, so it cannot be rebooted',
  rebootOffline: 'This terminal is offline, so it cannot receive a reboot. Check its power and cabling.',
  rebootTooSoonTerminal: (minutes: number) =>
    `This terminal was rebooted less than ${REBOOT_TERMINAL_INTERVAL_MINUTES} minutes ago. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  rebootTooSoonCustomer: (minutes: number) =>
    `You have rebooted ${REBOOT_CUSTOMER_LIMIT_PER_HOUR} times in the last hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  rebootFailed: 'The provider did not accept the reboot',
  renameFailed: 'The provider did not accept the new name',
  loadFailed: 'Could not load your terminals',
  overviewLoadFailed: 'Could not load your overview',
  noTerminals: 'No terminals are assigned to your account yet. Contact your provider to add one.',
  noAlerts: 'No open alerts.',
  hardwareTitle: 'Hardware alert',
  alertHardware: (name: string, alerts: string[]) => `${name} reports ${alerts.join(', ')}`,
  rebootConfirm: 'Reboot this terminal? It goes offline for a few minutes while it restarts.',
} as const;
