// What the schedule dialog shows, as the route reads it from the schedule change machine, and what
// it sends back. The view decides nothing: which operations, fields and times are offered is the
// machine's reading.
import type { ScheduleOperation, ScheduleTargetType } from '../../../domain/automation';
import type { SubscriptionPlanWire } from '../../../domain/subscriptions';

export type ScheduleDialogField = 'target' | 'operation' | 'productReferenceId' | 'productId' | 'count' | 'reason' | 'days' | 'at';
export type ScheduleParameterField = 'productReferenceId' | 'productId' | 'count' | 'reason' | 'days';
export type ScheduleTiming = 'at' | 'nextCycle';

export interface ScheduleDialogForm {
  targetType: ScheduleTargetType;
  target: string;
  targetLabel: string | null;
  operation: ScheduleOperation | '';
  productReferenceId: string;
  productId: string;
  count: string;
  reason: string;
  days: string;
  timing: ScheduleTiming;
  /** ISO 8601; '' until picked. */
  at: string;
}

export interface CustomerMatch {
  uuid: string;
  name: string;
  email: string;
}

export interface ScheduleDialogState {
  open: boolean;
  busy: boolean;
  /** The target came with the opening: shown, not chosen. */
  preset: boolean;
  form: ScheduleDialogForm;
  errors: Partial<Record<ScheduleDialogField, string>>;
  failure: string | null;
  operations: readonly ScheduleOperation[];
  nextCycleOffered: boolean;
  /** A line's block products when known (a choice); otherwise the product is typed. */
  blockProducts: readonly string[];
  plans: readonly SubscriptionPlanWire[] | null;
  plansLoading: boolean;
  plansError: string | null;
  customerQuery: string;
  customers: readonly CustomerMatch[];
  searching: boolean;
  searchError: string | null;
}

export interface ScheduleDialogActions {
  onTargetType(type: ScheduleTargetType): void;
  onLine(value: string): void;
  onCustomerSearch(value: string): void;
  onCustomer(customer: CustomerMatch): void;
  onOperation(operation: ScheduleOperation): void;
  onParameter(field: ScheduleParameterField, value: string): void;
  onTiming(timing: ScheduleTiming): void;
  /** ISO 8601, or '' when the picker was cleared. */
  onAt(value: string): void;
  onRetryPlans(): void;
  onSubmit(): void;
  onClose(): void;
}
