// Enterprise customers: list shape, statuses, expiry rules, create/edit validation (spec sections
// 3, 4, 5 and 9). Shared by the server (filters, validation) and the client (display, forms).

export type CustomerStatus = 'Blocked' | 'Active' | 'Pending';
export type ExpiryState = 'none' | 'expired' | 'expiringSoon' | 'normal';

/** Status filter choices of the customers page, in order. */
export const CUSTOMER_STATUS_FILTERS = [
  { value: 'all', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'pending', label: 'Pending' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'blocked', label: 'Blocked' },
  { value: 'expiring_soon', label: 'Expiring Soon' },
  { value: 'expired', label: 'Expired' },
] as const;
export type CustomerStatusFilter = (typeof CUSTOMER_STATUS_FILTERS)[number]['value'];

export const CUSTOMERS_PAGE_SIZE = 10;
export const CUSTOMERS_MAX_PAGE_SIZE = 100;
export const EXPIRING_SOON_DAYS = 30;
export const EXPIRATION_DAY_CHOICES = [30, 90, 180, 365, 730, 1095] as const;
export const DEFAULT_EXPIRATION_DAYS = 365;
export const MIN_EXPIRATION_DAYS = 1;
export const MAX_EXPIRATION_DAYS = 3650;
export const DEFAULT_EXTENSION_DAYS = 365;
export const PASSWORD_SETUP_VALID_DAYS = 7;
/** The longest search the server accepts. */
export const CUSTOMER_SEARCH_MAX_LENGTH = 100;

/** Length limits of the text fields (server-enforced, also used by the forms). */
export const CUSTOMER_FIELD_LIMITS = { name: 120, company: 160, email: 254, blockedReason: 500, phone: 40, address: 300 } as const;

/** One customer as `GET /api/v1/customers` and `GET /api/v1/customers/{uuid}` answer (camelCase). */
export interface CustomerListItem {
  uuid: string;
  name: string;
  email: string;
  company: string;
  phone: string | null;
  address: string | null;
  isActive: boolean;
  blockedEnabled: boolean;
  blockedReason: string | null;
  blockedAt: string | null;
  mfaEnabled: boolean;
  accountExpiresAt: string | null;
  lastLogin: string | null;
  createdAt: string;
  updatedAt: string;
  /** Whether the customer has chosen a password yet (the setup link was used). */
  hasPassword: boolean;
}

export interface Pagination {
  total: number;
  page: number;
  limit: number;
  pages: number;
}

/** The paging object of a list answer: `total` rows, `limit` a page, this `page` (1-based). */
export const paginationOf = (total: number, page: number, limit: number): Pagination => ({ total, page, limit, pages: Math.ceil(total / limit) });

/** `GET /api/v1/customers` → data. */
export interface CustomerListData {
  customers: CustomerListItem[];
  pagination: Pagination;
}

/** `GET /api/v1/customers/stats` → data: counts over the whole set, not the visible page. */
export interface CustomerStats {
  total: number;
  active: number;
  pending: number;
  mfaEnabled: number;
  blocked: number;
  expiringSoon: number;
  expired: number;
}

/** Query of `GET /api/v1/customers`. */
export interface CustomerListQuery {
  page?: number;
  limit?: number;
  search?: string;
  /** Spec: active and inactive are sent as is_active. */
  is_active?: boolean;
  /** Server-side status filter (so every filter pages correctly). */
  status?: CustomerStatusFilter;
}

/** `POST /api/v1/customers` body. */
export interface CreateCustomerPayload {
  email: string;
  name: string;
  company: string;
  expirationDays: number;
}

/** `PUT /api/v1/customers/{uuid}` body (every field optional; snake_case as the spec sends it). */
export interface UpdateCustomerPayload {
  name?: string;
  email?: string;
  company?: string;
  phone?: string | null;
  address?: string | null;
  is_active?: boolean;
  blocked_enabled?: boolean;
  blocked_reason?: string | null;
  /**
   * With `blocked_enabled: true` only: also set each of the customer's active service lines to end
   * at the end of its billing cycle (the admin role's alone, as ending one line is).
   */
  end_lines_at_cycle_end?: boolean;
}

/** What became of one of the customer's lines when a block asked to end them. */
export type LineEndingOutcome = 'scheduled' | 'already_ending' | 'failed';

export interface CustomerLineEnding {
  serviceLineNumber: string;
  outcome: LineEndingOutcome;
  /** Why it failed, in the provider's words when it refused. */
  message?: string;
}

/** `PUT /api/v1/customers/{uuid}` → data; `lineEndings` is empty unless the block asked to end lines. */
export interface CustomerUpdateData {
  customer: CustomerListItem;
  lineEndings: CustomerLineEnding[];
}

/** Spec section 4: Blocked if blocked; else Active if active; else Pending. */
export function customerStatus(c: Pick<CustomerListItem, 'blockedEnabled' | 'isActive'>): CustomerStatus {
  if (c.blockedEnabled) return 'Blocked';
  return c.isActive ? 'Active' : 'Pending';
}

const DAY_MS = 86_400_000;

/** Whole days from now until the expiry (negative once past), or null without a date. */
export function daysUntilExpiry(accountExpiresAt: string | null | undefined, now: Date = new Date()): number | null {
  if (!accountExpiresAt) return null;
  const at = Date.parse(accountExpiresAt);
  if (!Number.isFinite(at)) return null;
  return Math.ceil((at - now.getTime()) / DAY_MS);
}

/** Spec section 4: Expired if the date has passed; Expiring Soon for 1 to 30 days; else normal. */
export function expiryState(accountExpiresAt: string | null | undefined, now: Date = new Date()): ExpiryState {
  if (!accountExpiresAt) return 'none';
  const at = Date.parse(accountExpiresAt);
  if (!Number.isFinite(at)) return 'none';
  if (at <= now.getTime()) return 'expired';
  const days = daysUntilExpiry(accountExpiresAt, now)!;
  return days <= EXPIRING_SOON_DAYS ? 'expiringSoon' : 'normal';
}

export const CUSTOMER_MESSAGES = {
  companyRequired: 'Company name is required',
  nameRequired: 'Admin representative name is required',
  emailRequired: 'Admin email address is required',
  emailInvalid: 'Please enter a valid email address',
  expirationRange: 'Account expiration must be between 1 and 3650 days',
  duplicateEmail: 'A customer with this email address already exists',
  notFound: 'Customer not found',
  blockReasonRequired: 'A reason is required to block a customer',
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
  created: (email: string) => `Customer created successfully! Password setup link sent to ${email}`,
  createdDescription: (name: string, company: string) => `${name} from ${company} has been added.`,
  createFailed: (message: string) => `Failed to create customer: ${message}`,
  createFailedGeneric: 'Failed to create customer. Please try again.',
  fetchFailed: (message: string) => `Failed to fetch customers: ${message}`,
  fetchFailedGeneric: 'Failed to fetch customers',
  setupTokenInvalid: 'This password setup link is not valid. Ask your administrator for a new one.',
  setupTokenUsed: 'This password setup link has already been used. Sign in with your password, or ask your administrator for a new link.',
  setupTokenExpired: 'This password setup link has expired. Ask your administrator for a new one.',
} as const;

export type CreateCustomerField = keyof CreateCustomerPayload;
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

// A pragmatic address check: something@something.tld, no spaces. The server is the authority.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** Spec section 5 "Create customer", with the length limits; empty result = valid. */
export function validateCreateCustomer(input: {
  email: string;
  name: string;
  company: string;
  expirationDays: number;
}): FieldErrors<CreateCustomerField> {
  const errors: FieldErrors<CreateCustomerField> = {};
  const company = input.company.trim();
  const name = input.name.trim();
  const email = input.email.trim();
  if (!company) errors.company = CUSTOMER_MESSAGES.companyRequired;
  else if (company.length > CUSTOMER_FIELD_LIMITS.company) errors.company = CUSTOMER_MESSAGES.tooLong('Company name', CUSTOMER_FIELD_LIMITS.company);
  if (!name) errors.name = CUSTOMER_MESSAGES.nameRequired;
  else if (name.length > CUSTOMER_FIELD_LIMITS.name) errors.name = CUSTOMER_MESSAGES.tooLong('Name', CUSTOMER_FIELD_LIMITS.name);
  if (!email) errors.email = CUSTOMER_MESSAGES.emailRequired;
  else if (!isEmailAddress(email) || email.length > CUSTOMER_FIELD_LIMITS.email) errors.email = CUSTOMER_MESSAGES.emailInvalid;
  if (
    !Number.isInteger(input.expirationDays) ||
    input.expirationDays < MIN_EXPIRATION_DAYS ||
    input.expirationDays > MAX_EXPIRATION_DAYS
  ) {
    errors.expirationDays = CUSTOMER_MESSAGES.expirationRange;
  }
  return errors;
}

/** "Customer" plus the last 8 characters of the uuid when there is no name (spec section 9). */
export function customerDisplayName(c: { name?: string | null; uuid: string }): string {
  const name = c.name?.trim();
  return name ? name : `Customer ${c.uuid.slice(-8)}`;
}

export type EditField = 'name' | 'email' | 'company' | 'phone' | 'address';
export type EditForm = Record<EditField, string>;

/** Edit rules: the create rules for name, email and company, and the length limits of the rest. */
export function validateEditCustomer(form: EditForm): FieldErrors<EditField> {
  const { expirationDays: _ignored, ...errors } = validateCreateCustomer({ ...form, expirationDays: DEFAULT_EXPIRATION_DAYS });
  const result: FieldErrors<EditField> = { ...errors };
  if (form.phone.trim().length > CUSTOMER_FIELD_LIMITS.phone) result.phone = CUSTOMER_MESSAGES.tooLong('Phone', CUSTOMER_FIELD_LIMITS.phone);
  if (form.address.trim().length > CUSTOMER_FIELD_LIMITS.address) {
    result.address = CUSTOMER_MESSAGES.tooLong('Address', CUSTOMER_FIELD_LIMITS.address);
  }
  return result;
}

/** The block reason's problem, or null. */
export function blockReasonProblem(reason: string): string | null {
  const trimmed = reason.trim();
  if (!trimmed) return CUSTOMER_MESSAGES.blockReasonRequired;
  if (trimmed.length > CUSTOMER_FIELD_LIMITS.blockedReason) return CUSTOMER_MESSAGES.tooLong('Block reason', CUSTOMER_FIELD_LIMITS.blockedReason);
  return null;
}

/**
 * Blocking a customer and ending their service lines: the block dialog's option, and what the
 * toasts say afterwards about each kind of outcome the server answers per line.
 */
export const CUSTOMER_LINE_ENDING_MESSAGES = {
  option: 'Also end their service lines at the end of the billing cycle',
  optionHint: "Their terminals keep service until then; each line's end date shows on its Settings tab.",
  confirmNote: 'Their service lines will also be set to end at the end of the billing cycle.',
  blockedNoLines: (name: string) => `${name} has been blocked; they had no active service lines to end`,
  blockedLinesEnding: (name: string, n: number) =>
    n === 0
      ? `${name} has been blocked; no service line was set to end`
      : `${name} has been blocked; ${n === 1 ? '1 service line' : `${n} service lines`} will end at the end of the billing cycle`,
  alreadyEnding: (n: number) => (n === 1 ? '1 service line was already set to end' : `${n} service lines were already set to end`),
  lineEndingFailed: (serviceLineNumber: string, why: string) => `Service line ${serviceLineNumber} could not be set to end: ${why}`,
  linesNotEnded: (n: number, lines: string) => `${n} service lines could not be set to end: ${lines}`,
  /** When the server gives no reason for a failed line. */
  unknownReason: 'no reason given',
} as const;

/**
 * The toasts after a block that asked to end the customer's lines: what it did to them, and one
 * failure listing every line that could not be set to end (so that none is missed among several
 * toasts), or null when none failed.
 */
export function blockedLinesNotices(name: string, endings: readonly CustomerLineEnding[]): { success: string; failure: string | null } {
  const m = CUSTOMER_LINE_ENDING_MESSAGES;
  if (endings.length === 0) return { success: m.blockedNoLines(name), failure: null };
  const count = (outcome: LineEndingOutcome) => endings.filter((e) => e.outcome === outcome).length;
  const already = count('already_ending');
  const success = m.blockedLinesEnding(name, count('scheduled')) + (already > 0 ? `. ${m.alreadyEnding(already)}` : '');
  const failed = endings.filter((e) => e.outcome === 'failed');
  const why = (e: CustomerLineEnding) => e.message?.trim() || m.unknownReason;
  const failure =
    failed.length === 0
      ? null
      : failed.length === 1
        ? m.lineEndingFailed(failed[0]!.serviceLineNumber, why(failed[0]!))
        : m.linesNotEnded(failed.length, failed.map((e) => `${e.serviceLineNumber} (${why(e)})`).join('; '));
  return { success, failure };
}
