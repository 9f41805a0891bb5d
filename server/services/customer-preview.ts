// "View as customer": an administrator reads a customer's own area exactly as the customer does,
// through the same service functions the customer routes call, with the customer's id in place of
// the token's. Read-only by construction: nothing here writes but the audit entry that records who
// opened the preview. Opening is audited rather than every read: an admin can read all of this
// through the admin pages anyway; what the log should show is that someone looked through the
// customer's eyes.
import type { CustomerListItem } from '../../src/domain/customers';
import type { MyOverviewWire, MyTerminalDetailWire, MyTerminalWire } from '../../src/domain/my-area';
import type { MyAlertsWire } from '../../src/domain/alerts';
import type { MyRequestsWire } from '../../src/domain/requests';
import type { AlertsService } from './alerts';
import type { AuditService, RequestContext } from './audit';
import type { CustomerRequestsService } from './customer-requests';
import type { CustomersService } from './customers';
import type { MyTerminalsService } from './my-terminals';
import type { HistoryQuery } from './telemetry-history';
import type { TelemetryHistoryWire } from '../../src/domain/telemetry-history';

export interface CustomerPreviewService {
  /** The customer previewed (404 when gone), with the audit entry of the opening. */
  open(customerId: string, context: RequestContext): Promise<CustomerListItem>;
  overview(customerId: string): Promise<MyOverviewWire>;
  terminals(customerId: string): Promise<MyTerminalWire[]>;
  terminal(customerId: string, terminalId: string, month: string | null): Promise<MyTerminalDetailWire>;
  telemetry(customerId: string, terminalId: string, query: HistoryQuery): Promise<TelemetryHistoryWire>;
  requests(customerId: string): Promise<MyRequestsWire>;
  alerts(customerId: string): Promise<MyAlertsWire>;
}

export function createCustomerPreviewService(deps: {
  customers: Pick<CustomersService, 'get'>;
  myTerminals: Pick<MyTerminalsService, 'overview' | 'list' | 'detail' | 'telemetry'>;
  customerRequests: Pick<CustomerRequestsService, 'mine'>;
  alerts: Pick<AlertsService, 'ofCustomer'>;
  audit: AuditService;
}): CustomerPreviewService {
  const { customers, myTerminals, customerRequests, alerts, audit } = deps;
  /** Every read first asks for the customer, so an unknown or deleted one is a 404, not an empty area. */
  const live = (customerId: string) => customers.get(customerId);

  return {
    async open(customerId, context) {
      const customer = await live(customerId);
      await audit.record({
        ...context,
        action: 'customer.previewed',
        targetType: 'customer',
        targetId: customerId,
        after: { email: customer.email, name: customer.name },
      });
      return customer;
    },
    async overview(customerId) {
      await live(customerId);
      return myTerminals.overview(customerId);
    },
    async terminals(customerId) {
      await live(customerId);
      return myTerminals.list(customerId);
    },
    async terminal(customerId, terminalId, month) {
      await live(customerId);
      return myTerminals.detail(customerId, terminalId, month);
    },
    async telemetry(customerId, terminalId, query) {
      await live(customerId);
      return myTerminals.telemetry(customerId, terminalId, query);
    },
    async requests(customerId) {
      await live(customerId);
      return customerRequests.mine(customerId);
    },
    async alerts(customerId) {
      await live(customerId);
      return alerts.ofCustomer(customerId);
    },
  };
}
