// The demo's terminals: once the first sync of a demo database has filled the inventory, two
// thirds of the lines go to the active demo customers, so the customer usage pages have something
// to show. It goes through the same assignment as an administrator's (locks, reasons, audit as
// the system), and happens once per database (an app_meta marker), whichever process gets there.
import type { Clock } from '../clock';
import type { Repositories } from '../db/repositories';
import { DEMO_SEEDED_KEY, DEMO_TERMINALS_KEY, planDemoAssignments } from '../demo-data';
import type { AuditService } from './audit';
import type { CustomerTerminalsService } from './customer-terminals';

export interface DemoTerminals {
  /** Lines assigned by this call: 0 when the database holds no demo data or it was done before. */
  assignOnce(): Promise<number>;
}

export function createDemoTerminals(deps: { repos: Repositories; customerTerminals: CustomerTerminalsService; audit: AuditService; now: Clock }): DemoTerminals {
  const { repos, customerTerminals, audit, now } = deps;
  return {
    async assignOnce() {
      if ((await repos.appMeta.get(DEMO_SEEDED_KEY)) === undefined) return 0;
      if (!(await repos.appMeta.claim(DEMO_TERMINALS_KEY, { at: now().toISOString() }))) return 0;
      const plan = planDemoAssignments(await repos.customers.activeAssignableIds(now()), await repos.customerTerminals.freeLines());
      let assigned = 0;
      for (const { customerId, lines } of plan) {
        const { result } = await customerTerminals.assign(
          { customerUuid: customerId, serviceLineNumbers: lines },
          { actor: { type: 'system' }, ip: null, requestId: null },
        );
        assigned += result.assigned.length;
      }
      // One line for the whole hand-out, written last: the step is over when it is there.
      await audit.record({ actor: { type: 'system' }, action: 'system.demo_terminals_assigned', after: { customers: plan.length, lines: assigned } });
      return assigned;
    },
  };
}
