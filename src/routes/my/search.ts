// The customer terminal page's URL search: the month shown (`YYYY-MM`); anything else is dropped,
// so a hand-edited URL shows the current month rather than an error.
import { MONTH_PATTERN } from '../../domain/my-area';

export interface MyTerminalSearch {
  month?: string;
}

export function validateMyTerminalSearch(search: Record<string, unknown>): MyTerminalSearch {
  const month = search.month;
  return typeof month === 'string' && MONTH_PATTERN.test(month) ? { month } : {};
}
