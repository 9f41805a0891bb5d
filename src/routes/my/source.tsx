// Where the customer area's pages read from. The same pages serve two audiences: the signed-in
// customer (their own /my routes, actions on) and an administrator's "View as customer" preview
// (/customers/{uuid}/preview/…, read-only, reading the customer's area through the admin's
// preview routes). The layout of each provides this; the pages never know which one they are in.
import { createContext, useContext } from 'react';
import type { ApiResult } from '../../api';
import type { TelemetryHistoryLoad } from '../../api/telemetry';
import type { MyAlertsWire } from '../../domain/alerts';
import type { StatementSummaryWire, StatementWire } from '../../domain/billing';
import type { MyAccountWire } from '../../domain/ledger';
import type { MyOverviewWire, MyTerminalDetailWire, MyTerminalWire } from '../../domain/my-area';
import type { MyRequestsWire } from '../../domain/requests';

export interface MyAreaSource {
  overview(signal?: AbortSignal): Promise<ApiResult<MyOverviewWire>>;
  terminals(signal?: AbortSignal): Promise<ApiResult<MyTerminalWire[]>>;
  terminal(input: { terminalId: string; month?: string | undefined }, signal?: AbortSignal): Promise<ApiResult<MyTerminalDetailWire>>;
  /** One terminal's telemetry history over a range: the customer's own read, or the preview's of it. */
  telemetry: TelemetryHistoryLoad;
  requests(signal?: AbortSignal): Promise<ApiResult<MyRequestsWire>>;
  alerts(signal?: AbortSignal): Promise<ApiResult<MyAlertsWire>>;
  statements(signal?: AbortSignal): Promise<ApiResult<StatementSummaryWire[]>>;
  statement(statementId: string, signal?: AbortSignal): Promise<ApiResult<StatementWire>>;
  /**
   * The customer's balance, open statements and payments. Absent in the admin preview, which has
   * no route for it yet: its statements page shows the statements alone.
   */
  account?(signal?: AbortSignal): Promise<ApiResult<MyAccountWire>>;
  /** The URL of a customer-area path (`/my/terminals`) in this area: itself, or under the preview. */
  href(path: string): string;
  /** True in the admin preview: every action is hidden, nothing can be changed. */
  readOnly: boolean;
}

export const MyAreaSourceContext = createContext<MyAreaSource | null>(null);

export function useMyAreaSource(): MyAreaSource {
  const source = useContext(MyAreaSourceContext);
  if (!source) throw new Error('A customer-area page rendered outside MyLayout or the preview layout');
  return source;
}

const MY_PREFIX = /^\/my(?=\/|$|\?)/;

/** `/my/terminals/UT1?month=2026-03` → `/customers/{uuid}/preview/terminals/UT1?month=2026-03`. */
export function previewHref(customerUuid: string, path: string): string {
  return MY_PREFIX.test(path) ? path.replace(MY_PREFIX, `/customers/${encodeURIComponent(customerUuid)}/preview`) : path;
}

const PREVIEW_PREFIX = /^\/customers\/[^/]+\/preview(?=\/|$)/;

/** The customer-area path a preview path shows (`/customers/{uuid}/preview/terminals` → `/my/terminals`), for the menu's highlight. */
export function myPathOf(previewPath: string): string {
  return previewPath.replace(PREVIEW_PREFIX, '/my');
}
