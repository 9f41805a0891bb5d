// What /bulk carries in its URL: `/bulk?operation=<id>`, the operation shown (its progress or
// results), so a reload or a link shows it again. Pure, so the route tree can validate a URL
// without loading the page.

export interface BulkSearch {
  operation?: string;
}

const OPERATION_ID = /^[0-9A-Za-z-]{1,64}$/;

export function validateBulkSearch(search: Record<string, unknown>): BulkSearch {
  return typeof search.operation === 'string' && OPERATION_ID.test(search.operation) ? { operation: search.operation } : {};
}
