// Subscriptions: every terminal's plan for its current billing cycle, from the synced service
// lines, products and usage, the overage arithmetic of spec 9 ("about 5 per GB: 7.3 GB gives
// 36.5"; a 1 TB plan counts as 1,000 GB), an end-of-cycle forecast, and the page's texts (spec
// sections 2 "Subscriptions", 3 and 4 "Demo subscription", 8 "Demo subscriptions").
// Shared by the server (answers) and the client.

export const SUBSCRIPTIONS_PAGE_SIZE = 25;
export const SUBSCRIPTIONS_MAX_PAGE_SIZE = 100;
export const SUBSCRIPTION_SEARCH_MAX_LENGTH = 100;
/** Spec 9: overage is charged at about 5 per GB (7.3 GB gives 36.5). */
export const OVERAGE_RATE_PER_GB = 5;
/** When the provider's product names no currency. */
export const DEFAULT_CURRENCY = 'USD';
export const GB_PER_TB = 1000;

export const TERMINAL_TYPES = ['Enterprise', 'Flat High Performance', 'Mini'] as const;
export type TerminalType = (typeof TERMINAL_TYPES)[number];

/** Active: within its plan; Over Plan: used more than the plan's data; Suspended: the line is not active. */
export const SUBSCRIPTION_STATUSES = ['Active', 'Over Plan', 'Suspended'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The list's plan filter: all, the two plan sizes the summary counts, or any other size. */
export const SUBSCRIPTION_PLAN_FILTERS = ['all', '50gb', '1tb', 'other'] as const;
export type SubscriptionPlanFilter = (typeof SUBSCRIPTION_PLAN_FILTERS)[number];

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** "50 GB", "1 TB" (1,000 GB and whole multiples of it read in TB). */
export function planLabel(monthlyDataGB: number): string {
  if (monthlyDataGB >= GB_PER_TB && monthlyDataGB % GB_PER_TB === 0) return `${monthlyDataGB / GB_PER_TB} TB`;
  return `${round1(monthlyDataGB)} GB`;
}

/** GB beyond the plan's monthly data (0 within it), one decimal. */
export const overageGB = (usedGB: number, monthlyDataGB: number) => round1(Math.max(0, usedGB - monthlyDataGB));
/** GB left of the plan's monthly data (0 once over), one decimal. */
export const remainingGB = (usedGB: number, monthlyDataGB: number) => round1(Math.max(0, monthlyDataGB - usedGB));
/** Spec 9: overage × 5, to the cent (7.3 GB → 36.5). */
export const overageCharge = (overage: number, ratePerGB: number = OVERAGE_RATE_PER_GB) => round2(overage * ratePerGB);

/** Whole UTC days from `start` to `end`, both included (`YYYY-MM-DD`). */
function daysInclusive(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

export interface SubscriptionForecast {
  /** Projected use at the end of the cycle at the current daily rate, GB (one decimal). */
  projectedUsedGB: number;
  projectedOverageGB: number;
  projectedCharges: number;
}

/**
 * Use at the end of the cycle if the cycle goes on at its average daily rate so far. Null when the
 * data does not allow it: no cycle, today outside it, or not one whole day elapsed yet.
 */
export function forecastCycle(
  usedGB: number,
  monthlyDataGB: number,
  cycle: { startDate: string; endDate: string } | null,
  today: string,
  ratePerGB: number = OVERAGE_RATE_PER_GB,
): SubscriptionForecast | null {
  if (!cycle || today < cycle.startDate || today > cycle.endDate) return null;
  const elapsed = daysInclusive(cycle.startDate, today);
  const total = daysInclusive(cycle.startDate, cycle.endDate);
  if (elapsed < 1 || total < 1) return null;
  const projectedUsedGB = round1((usedGB / elapsed) * total);
  const projectedOverageGB = overageGB(projectedUsedGB, monthlyDataGB);
  return { projectedUsedGB, projectedOverageGB, projectedCharges: overageCharge(projectedOverageGB, ratePerGB) };
}

/** One terminal's subscription for its current billing cycle (`GET /subscriptions`). */
export interface SubscriptionWire {
  terminalId: string;
  serviceLineNumber: string;
  location: string | null;
  terminalType: TerminalType | null;
  /** "50 GB", "1 TB"… from the provider product's data. */
  plan: string;
  productReferenceId: string | null;
  monthlyDataGB: number;
  usedGB: number;
  remainingGB: number;
  overageGB: number;
  overageCharges: number;
  currency: string;
  status: SubscriptionStatus;
  /** The cycle the figures are for; null when no usage is stored for the current one. */
  billingCycle: { startDate: string; endDate: string } | null;
  /** A projection, not a figure the provider gave. */
  forecast: SubscriptionForecast | null;
  /** The customer holding the terminal, if any. */
  customerName: string | null;
  /** The provider account the terminal lives under; null when the answer did not say (an older server). */
  accountId: number | null;
  accountName: string | null;
}

export interface SubscriptionSummary {
  totalTerminals: number;
  plans50GB: number;
  plans1TB: number;
  overageTerminals: number;
  totalOverageGB: number;
}

/** `GET /subscriptions` data. */
export interface SubscriptionListWire {
  subscriptions: SubscriptionWire[];
  pagination: { total: number; page: number; limit: number; pages: number };
  /** Over the whole live inventory, whatever the page and filters. */
  summary: SubscriptionSummary;
}

/** A plan the provider offers (`GET /subscriptions/plans`), for the Change Plan dialog. */
export interface SubscriptionPlanWire {
  productReferenceId: string;
  name: string;
  monthlyDataGB: number;
  /** Monthly price in `currency`, when the provider gives one. */
  price: number | null;
  currency: string;
}

/** `PUT /subscriptions/{serviceLineNumber}/plan` body; answers `{ subscription: SubscriptionWire }`. */
export interface ChangePlanPayload {
  productReferenceId: string;
}

export const SUBSCRIPTION_MESSAGES = {
  title: 'Subscriptions',
  loading: 'Loading subscriptions...',
  errorPrefix: 'Error: ',
  fetchFailed: 'Failed to fetch subscriptions',
  loadFailed: 'Failed to load subscriptions',
  notFound: 'Subscription not found for terminal',
  unknownPlan: 'That plan is not offered by the provider',
  samePlan: 'The terminal is already on that plan',
  overBanner: (n: number) => `${n} terminal${n === 1 ? ' is' : 's are'} over ${n === 1 ? 'its' : 'their'} plan this billing cycle`,
  changePlan: 'Change Plan',
  planChanged: (serviceLine: string, plan: string) => `${serviceLine} is now on the ${plan} plan`,
  planChangeFailed: (message: string) => `Failed to change plan: ${message}`,
  projection: 'Projection at the current daily rate',
} as const;
