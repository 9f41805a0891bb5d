// The scheduleChange model's event fixtures: one of each way through the form (a second only where a
// transition needs it), so that the walk over (state, context) stays small.
import { SCHEDULE_LINE } from '../../fixtures/schedule';
import { at, chooseCustomer, close, customerSearch, line, open, operation, parameter, retryPlans, submit, targetType, timing } from '../../machines/starters/schedule';
import { MODEL_AT, MODEL_NOW } from './schedule-fixtures';

export const scheduleChangeEvents = {
  'user.open': [open()],
  'user.targetType': [targetType('customer')],
  'user.line': [line(SCHEDULE_LINE)],
  'user.customerSearch': [customerSearch('Harbour'), customerSearch('')],
  'user.customer': [chooseCustomer()],
  'user.operation': [operation('change_plan'), operation('extend')],
  'user.parameter': [parameter('days', '45')],
  'user.timing': [timing('nextCycle')],
  'user.at': [at(MODEL_AT.toISOString())],
  'user.retryPlans': [retryPlans],
  'user.submit': [submit(MODEL_NOW)],
  'user.close': [close],
} as const;
