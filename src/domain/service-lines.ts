// A service line's settings (Terminal Details → Settings): what the provider says of the line now
// (name, public IP, priority data opt-in, recurring blocks, top-ups bought this cycle, when it
// ends), what the line's plan sells (blocks, top-up and their prices), and the changes an
// administrator may make, each run on the provider first and recorded in the audit log.
// Shared by the server (answers, validation) and the client (forms, texts).
import { SERVICE_LINE_PATTERN } from './terminals';

export const NICKNAME_MAX_LENGTH = 100;
export const DEACTIVATION_REASON_MAX_LENGTH = 500;
/** The most one-time top-up blocks a line may buy in one billing cycle (the provider's rule). */
export const MAX_TOP_UP_BLOCKS_PER_CYCLE = 10;
/** Recurring blocks of one kind a Priority line may hold. */
export const MAX_RECURRING_BLOCKS = 100;

/** A data product the line's plan sells, with its price. */
export interface DataProductWire {
  productId: string;
  /** Per block, in GB (1 TB = 1,000 GB). */
  dataGB: number;
  price: number;
  currency: string;
}

export interface RecurringBlocksWire {
  productId: string;
  count: number;
  /** All the blocks together, GB. */
  dataGB: number;
}

export interface PartialPeriodWire {
  productReferenceId: string;
  periodStart: string;
  periodEnd: string;
}

/** `GET /service-lines/{serviceLineNumber}/settings`. */
export interface ServiceLineSettingsWire {
  serviceLineNumber: string;
  nickname: string | null;
  productReferenceId: string;
  planName: string | null;
  /** Priority plans take recurring blocks; metered plans include their data. */
  planKind: 'metered' | 'blocks';
  active: boolean;
  /** ISO time the line ends (set when it was deactivated at the end of its cycle), or null. */
  endDate: string | null;
  publicIp: boolean;
  /** Priority data past the limit (billed as overage, or automatic top-ups on Priority plans). */
  optedIn: boolean;
  recurringBlocks: RecurringBlocksWire | null;
  /** From the next cycle on, when it differs from this cycle's. */
  nextRecurringBlocks: RecurringBlocksWire | null;
  blockProducts: DataProductWire[];
  topUpProduct: DataProductWire | null;
  /** One-time top-up blocks bought this cycle, and how many more the provider sells. */
  topUpBlocksThisCycle: number;
  topUpBlocksLeft: number;
  partialPeriods: PartialPeriodWire[];
  /** Who the line's terminals are assigned to, for the confirmations. */
  customer: { uuid: string; name: string } | null;
  terminals: LineTerminalWire[];
  /** The account's router configurations, offered for a router; empty when no terminal has a router. */
  routerConfigs: RouterConfigChoiceWire[];
}

/** A terminal on the line, with the routers the provider reports behind it. */
export interface LineTerminalWire {
  deviceId: string;
  kitSerialNumber: string;
  nickname: string | null;
  routers: RouterWire[];
}

export interface RouterWire {
  routerId: string;
  nickname: string | null;
  /** The configuration assigned to it; null: the account's default. */
  configId: string | null;
}

export interface RouterConfigChoiceWire {
  configId: string;
  nickname: string | null;
}

export interface MoveTerminalPayload {
  /** The line the terminal goes to. */
  toServiceLineNumber: string;
}

export interface RouterConfigPayload {
  /** null: back to the account's default configuration. */
  configId: string | null;
}

export type DeactivationWhen = 'now' | 'end_of_cycle';

export interface DeactivateLinePayload {
  when: DeactivationWhen;
  reason: string;
}

export interface RecurringBlocksPayload {
  productId: string;
  count: number;
  /** Also for the current cycle (adds blocks now; never takes any away). */
  applyToCurrentCycle: boolean;
}

export interface TopUpPayload {
  productId: string;
  count: number;
}

export const SERVICE_LINE_MESSAGES = {
  loaded: 'Service line settings retrieved successfully',
  renamed: 'Service line renamed',
  publicIpOn: 'Public IP enabled',
  publicIpOff: 'Public IP disabled',
  optedIn: 'Priority data past the limit turned on',
  optedOut: 'Priority data past the limit turned off',
  recurringSet: 'Recurring data blocks updated',
  toppedUp: 'Top-up bought',
  deactivatedNow: 'Service line deactivated',
  deactivationScheduled: 'Service line will end at the end of its billing cycle',
  notFound: 'Service line not found',
  inactive: 'This service line is not active',
  alreadyEnding: 'This service line is already set to end',
  nicknameRequired: 'Nickname is required',
  nicknameTooLong: `Nickname must be at most ${NICKNAME_MAX_LENGTH} characters`,
  reasonRequired: 'A reason is required',
  reasonTooLong: `Reason must be at most ${DEACTIVATION_REASON_MAX_LENGTH} characters`,
  whenInvalid: "when must be 'now' or 'end_of_cycle'",
  countInvalid: 'count must be a whole number of at least 1',
  notPriorityPlan: 'Only Priority plans take recurring data blocks',
  unknownBlock: 'This plan does not sell that data block',
  unknownTopUp: 'This plan does not sell that top-up',
  topUpLimit: (left: number) => `At most ${MAX_TOP_UP_BLOCKS_PER_CYCLE} top-up blocks a cycle: ${left} left`,
  noChange: 'Nothing to change',
  terminalMoved: 'Terminal moved to the other service line',
  terminalRemoved: 'Terminal removed from the service line',
  routerRebooted: 'Router reboot requested',
  routerConfigSet: 'Router configuration assigned',
  terminalNotOnLine: 'This terminal is not on this service line',
  routerNotOnLine: 'This router is not behind a terminal of this service line',
  targetRequired: 'Enter the service line to move the terminal to',
  targetInvalid: 'Service line number must be 2 to 64 letters, digits or dashes',
  sameLine: 'The terminal is already on that service line',
  targetNotFound: 'No service line with that number in the inventory',
  targetOtherAccount: 'That service line is under another provider account: a terminal moves only between lines of one account',
  targetInactive: 'The service line to move to is not active',
  unknownConfig: 'The account has no router configuration with that id',
  /** The provider took the terminal off its line but did not put it on the other. */
  movedHalfway: (from: string, to: string, why: string) => `The terminal was removed from ${from} but not added to ${to}: ${why}`,
} as const;

/** Why a move's target will not do, or null: a service line number, and not the line the terminal is on. */
export function moveTargetProblem(target: string, from: string): string | null {
  const line = target.trim();
  if (line === '') return SERVICE_LINE_MESSAGES.targetRequired;
  if (!SERVICE_LINE_PATTERN.test(line)) return SERVICE_LINE_MESSAGES.targetInvalid;
  if (line.toUpperCase() === from.toUpperCase()) return SERVICE_LINE_MESSAGES.sameLine;
  return null;
}

/** "Ends on 31 Mar 2026" for a line set to end; null for one that is not. */
export function endsOnLabel(endDate: string | null, now: Date): string | null {
  if (!endDate) return null;
  const end = new Date(endDate);
  const day = end.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return end.getTime() > now.getTime() ? `Ends on ${day}` : `Ended on ${day}`;
}

/** A top-up's price before confirming: blocks × the product's price, to the cent. */
export const topUpPrice = (product: DataProductWire, count: number) => Math.round(product.price * count * 100) / 100;

/** Problems of a deactivation form, by field. */
export function deactivationProblems(payload: { when: string; reason: string }): Partial<Record<'when' | 'reason', string>> {
  const problems: Partial<Record<'when' | 'reason', string>> = {};
  if (payload.when !== 'now' && payload.when !== 'end_of_cycle') problems.when = SERVICE_LINE_MESSAGES.whenInvalid;
  const reason = payload.reason.trim();
  if (reason === '') problems.reason = SERVICE_LINE_MESSAGES.reasonRequired;
  else if (reason.length > DEACTIVATION_REASON_MAX_LENGTH) problems.reason = SERVICE_LINE_MESSAGES.reasonTooLong;
  return problems;
}

/** The problem of a nickname, or null. */
export function nicknameProblem(nickname: string): string | null {
  const trimmed = nickname.trim();
  if (trimmed === '') return SERVICE_LINE_MESSAGES.nicknameRequired;
  if (trimmed.length > NICKNAME_MAX_LENGTH) return SERVICE_LINE_MESSAGES.nicknameTooLong;
  return null;
}
