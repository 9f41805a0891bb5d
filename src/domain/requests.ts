// Customer requests: a customer asks for a plan change or a top-up on one of their
// service lines; the request waits in the admins' queue until an admin approves it (the provider
// call runs then) or declines it with a reason; the customer may cancel it while it waits.
// Shared by the server (answers, validation, refusals) and the client (forms, texts).
import type { Pagination } from './customers';
import type { DataProductWire } from './service-lines';
import type { SubscriptionPlanWire } from './subscriptions';

export const REQUEST_KINDS = ['plan_change', 'top_up'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

export const REQUEST_STATUSES = ['pending', 'approved', 'declined', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const REQUEST_STATUS_FILTERS = [...REQUEST_STATUSES, 'all'] as const;
export type RequestStatusFilter = (typeof REQUEST_STATUS_FILTERS)[number];

export const REQUEST_NOTE_MAX_LENGTH = 500;
export const DECLINE_REASON_MAX_LENGTH = 500;
export const REQUESTS_PAGE_SIZE = 20;
export const REQUESTS_MAX_PAGE_SIZE = 100;

// ---- Wire shapes ---------------------------------------------------------------------------

/** The plan a plan-change request asks for, as the stored products describe it now. */
export interface RequestedPlanWire {
  productReferenceId: string;
  /** Null when the product is no longer listed. */
  name: string | null;
  monthlyDataGB: number | null;
  price: number | null;
  currency: string | null;
}

/** The top-up a top-up request asks for: blocks, and what they come to together. */
export interface RequestedTopUpWire {
  productId: string;
  count: number;
  /** All blocks together, GB; null when the product is no longer sold by any listed plan. */
  dataGB: number | null;
  price: number | null;
  currency: string | null;
}

/** One request as its customer sees it (`GET /my/requests`). */
export interface CustomerRequestWire {
  id: string;
  kind: RequestKind;
  serviceLineNumber: string;
  /** The nickname of a terminal on the line, when it has one. */
  terminalNickname: string | null;
  plan: RequestedPlanWire | null;
  topUp: RequestedTopUpWire | null;
  note: string | null;
  status: RequestStatus;
  /** Why it was declined. */
  reason: string | null;
  createdAt: string;
  /** When it was approved, declined or cancelled; null while pending. */
  decidedAt: string | null;
}

/** One request in the admins' queue (`GET /requests`): who asked, and who decided. */
export interface QueuedRequestWire extends CustomerRequestWire {
  customer: { uuid: string; name: string; company: string };
  decidedBy: string | null;
  /** The provider account of the request's line; null when the line is no longer known. */
  accountId: number | null;
  accountName: string | null;
}

/** A line the customer may ask about. */
export interface RequestLineWire {
  serviceLineNumber: string;
  nickname: string | null;
}

/** `GET /my/requests` data. */
export interface MyRequestsWire {
  requests: CustomerRequestWire[];
  /** The customer's active lines, for the new-request form. */
  lines: RequestLineWire[];
}

/** `GET /my/requests/options?serviceLineNumber=…` data: what the line may be asked for. */
export interface RequestOptionsWire {
  serviceLineNumber: string;
  currentPlan: { productReferenceId: string; name: string | null };
  /** The plans the line may move to (its own left out). */
  plans: SubscriptionPlanWire[];
  /** The top-up its plan sells, or null; `blocksLeft` is what this cycle still allows. */
  topUp: { product: DataProductWire; blocksLeft: number } | null;
}

export type RequestCounts = Record<RequestStatus, number>;

/** `GET /requests` data. */
export interface RequestQueueWire {
  requests: QueuedRequestWire[];
  pagination: Pagination;
  counts: RequestCounts;
}

// ---- Payloads ------------------------------------------------------------------------------

export type NewRequestPayload =
  | { serviceLineNumber: string; kind: 'plan_change'; productId: string; note?: string | undefined }
  | { serviceLineNumber: string; kind: 'top_up'; productId: string; count: number; note?: string | undefined };

export interface DeclinePayload {
  reason: string;
}

// ---- Rules ---------------------------------------------------------------------------------

/** The price of `count` blocks, to the cent. */
export const topUpPrice = (product: Pick<DataProductWire, 'price'>, count: number) => Math.round(product.price * count * 100) / 100;

/** The decline form's problem with a reason, or null. */
export function declineReasonProblem(reason: string): string | null {
  const trimmed = reason.trim();
  if (trimmed === '') return REQUEST_MESSAGES.reasonRequired;
  if (trimmed.length > DECLINE_REASON_MAX_LENGTH) return REQUEST_MESSAGES.reasonTooLong;
  return null;
}

export const REQUEST_KIND_LABELS: Readonly<Record<RequestKind, string>> = { plan_change: 'Plan change', top_up: 'Top-up' };
export const REQUEST_STATUS_LABELS: Readonly<Record<RequestStatus, string>> = {
  pending: 'Pending',
  approved: 'Approved',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

const money = (amount: number, currency: string | null) => `${currency ?? ''} ${amount.toFixed(2)}`.trim();

/** What was asked, in a line: "Local Priority 1 TB (USD 165.00 a month)" or "2 × 50 GB top-up (100 GB, USD 100.00)". */
export function describeAsked(request: Pick<CustomerRequestWire, 'kind' | 'plan' | 'topUp'>): string {
  if (request.kind === 'plan_change' && request.plan) {
    const { name, productReferenceId, price, currency } = request.plan;
    return price === null ? (name ?? productReferenceId) : `${name ?? productReferenceId} (${money(price, currency)} a month)`;
  }
  if (request.topUp) {
    const { count, dataGB, price, currency, productId } = request.topUp;
    const blocks = `${count} top-up block${count === 1 ? '' : 's'}`;
    const what = [dataGB === null ? null : `${dataGB} GB`, price === null ? null : money(price, currency)].filter(Boolean).join(', ');
    return what ? `${blocks} (${what})` : `${blocks} of ${productId}`;
  }
  return '';
}

// ---- Texts ---------------------------------------------------------------------------------

export const REQUEST_MESSAGES = {
  // Answers
  listed: 'Requests retrieved successfully',
  options: 'Request options retrieved successfully',
  created: 'Your request was sent to the administrators',
  cancelled: 'Your request was cancelled',
  approved: 'The request was approved and carried out',
  declined: 'The request was declined',
  // Refusals
  lineNotFound: 'Service line not found',
  requestNotFound: 'Request not found',
  lineInactive: 'This service line is not active',
  lineEnding: 'This service line is set to end',
  samePlan: 'The line is already on that plan',
  planNotOffered: 'That plan is not offered',
  noTopUp: "This line's plan does not sell top-ups",
  unknownTopUp: "This line's plan does not sell that top-up",
  topUpLimit: (left: number) => (left === 0 ? 'No more top-up blocks can be bought this cycle' : `At most ${left} more top-up block${left === 1 ? '' : 's'} can be bought this cycle`),
  pendingExists: (kind: RequestKind) => `A ${kind === 'plan_change' ? 'plan change' : 'top-up'} request for this line is already waiting for an administrator`,
  alreadyDecided: (status: RequestStatus) => `This request was already ${status}`,
  beingDecided: 'An administrator is deciding this request right now',
  lineNoLongerTheirs: "The line no longer belongs to the customer who asked",
  reasonRequired: 'A reason is required',
  reasonTooLong: `The reason must be at most ${DECLINE_REASON_MAX_LENGTH} characters`,
  noteTooLong: `The note must be at most ${REQUEST_NOTE_MAX_LENGTH} characters`,
  // Pages
  myTitle: 'My Requests',
  myIntro: 'Ask for a plan change or a top-up; an administrator approves or declines it.',
  queueTitle: 'Customer Requests',
  newRequest: 'New request',
  empty: 'No requests yet',
  queueEmpty: 'No requests with this status',
  loadFailed: 'Could not load the requests',
  optionsFailed: 'Could not load what this line may be asked for',
  noLines: 'You have no active service lines to ask about',
  approveConfirm: (what: string, customer: string) => `Approve ${what} for ${customer}? The change is made at the provider now.`,
  cancelConfirm: 'Cancel this request?',
} as const;
