// Automatic actions in Chromium against the real server and its simulator (the automatic actions
// journey): on the Alert rules page an admin has the data-use rule email customers and, at 90 %,
// opt the line out of priority data at once ("Act, then notify"); a customer's opted-in line
// crosses 90 % of its plan in the simulator (a traffic surge through its controls), the next
// sync's evaluation opens the 90 % alert and the queue's run opts the line out at the provider —
// once: one action done, one audited change by the rule, and evaluating again adds nothing. The
// admin sees it on the alert, the customer on their own alerts page and in an email, and the
// admin's Undo on the alert opts the line back in at the provider (once the provider's day-long
// opt-in cool-down is over: the simulator's control ends it).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AlertEvaluationReport, AlertListWire } from '../../src/domain/alerts';
import type { AuditListWire } from '../../src/domain/audit';
import type { AutomaticActionListWire } from '../../src/domain/automation';
import type { ServiceLineSettingsWire } from '../../src/domain/service-lines';
import type { SubscriptionListWire } from '../../src/domain/subscriptions';
import { customerSignsInFromLink, signInAsAdminAt, useBrowserSession, waitForUsageRun, until as waitUntil } from './harness';

const session = useBrowserSession({ SIM_CONTROLS: 'on' });

const ACTION_TEXT = 'Done automatically: Opt out of priority data, at 90 % of the plan';

const until = <T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 90_000) => waitUntil(what, probe, timeoutMs);

/** Whether the provider has the line opted in to priority data: the settings read it from the provider on every call. */
const optedIn = async (page: Page, line: string) => (await session.api<ServiceLineSettingsWire>(page, `/service-lines/${encodeURIComponent(line)}/settings`)).optedIn;

const actionsOf = async (page: Page, line: string) =>
  (await session.api<AutomaticActionListWire>(page, `/automatic-actions?status=all&limit=100&search=${encodeURIComponent(line)}`)).actions.filter((a) => a.serviceLineNumber === line);

/** The audited priority-data changes of the line, newest first. */
const optChangesOf = async (page: Page, line: string) =>
  (await session.api<AuditListWire>(page, `/audit?action=service_line.priority_data_changed&targetId=${encodeURIComponent(line)}&limit=100`)).entries;

describe('automatic actions in the browser', () => {
  it('a line crossing 90 % is opted out once by the rule: the admin and the customer see why, and Undo opts it back in', async () => {
    const { portal } = session;
    const admin = await session.context.newPage();
    await signInAsAdminAt(admin, portal, '/alerts/rules');

    // The first sync brings the fleet; lines already over a level then are old news, evaluated
    // before the rule acts so that none of them is opted out by this journey.
    await waitForUsageRun(admin, portal);
    const subscriptions = await session.api<SubscriptionListWire>(admin, '/subscriptions?limit=100');
    await session.api(admin, '/alerts/evaluate', { method: 'POST' });

    // The admin has the data-use rule email customers, and opt the line out at 90 %, at once.
    // (The page read the rules before the sync: read again, its plans and rules are current.)
    await admin.reload();
    const rule = admin.getByRole('form', { name: 'Data use rule' });
    await rule.getByLabel('Also email the customer').check();
    await rule.getByRole('button', { name: 'Save' }).click();
    await rule.getByRole('status').filter({ hasText: 'Alert rule saved' }).waitFor();
    const actionsForm = admin.getByRole('form', { name: 'Data use actions' });
    const optOut = actionsForm.getByRole('group', { name: 'Opt out of priority data, At 90 %' });
    await optOut.getByLabel('Opt out of priority data').check();
    await optOut.getByLabel('Act, then notify').check();
    await actionsForm.getByRole('button', { name: 'Save actions' }).click();
    await actionsForm.getByRole('status').filter({ hasText: 'Actions saved' }).waitFor();
    const rules = await session.api<{ kind: string; notifyCustomer: boolean; actions: unknown[] }[]>(admin, '/alert-rules');
    expect(rules.find((r) => r.kind === 'usage')).toMatchObject({ notifyCustomer: true, actions: [{ level: 90, action: 'opt_out', mode: 'act', productReferenceId: null }] });

    // An unassigned line well under its plan and opted in to priority data at the provider.
    const candidates = subscriptions.subscriptions.filter((s) => s.customerName === null && s.status === 'Active' && s.monthlyDataGB >= 50 && s.usedGB < 0.6 * s.monthlyDataGB && s.billingCycle);
    let line: (typeof candidates)[number] | undefined;
    for (const candidate of candidates.slice(0, 20)) {
      if (await optedIn(admin, candidate.serviceLineNumber)) {
        line = candidate;
        break;
      }
    }
    expect(line, 'an unassigned, opted-in line under 60 % of its plan').toBeDefined();
    const sln = line!.serviceLineNumber;
    const stamp = Date.now();
    const email = `ines.${stamp}@harbour.example`;
    await session.api(admin, '/customers', { method: 'POST', body: { company: `Harbour Pilots ${stamp}`, name: `Ines Sousa ${stamp}`, email } });
    const customers = await session.api<{ customers: { uuid: string; email: string }[] }>(admin, `/customers?search=${encodeURIComponent(email)}`);
    const uuid = customers.customers.find((c) => c.email === email)!.uuid;
    await session.api(admin, '/terminals/customers/assign-terminals', { method: 'POST', body: { customerUuid: uuid, serviceLineNumbers: [sln] } });

    // The line uses enough more to stand at 93 % of its plan; the next sync reads it, and its
    // evaluation (a queued job) opens the 90 % alert and queues the action's run.
    const surgeGB = Math.round((0.93 * line!.monthlyDataGB - line!.usedGB) * 100) / 100;
    const surged = await fetch(`${portal.url}/simulator/api/controls/service-lines/${sln}/surge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ gb: surgeGB }),
    });
    expect(surged.status).toBe(200);
    // A sync may still be running (409): the next one is started as soon as it ends.
    await until('a sync started', async () => {
      try {
        await session.api(admin, '/terminals/sync', { method: 'POST' });
        return true;
      } catch {
        return false;
      }
    });

    const done = await until('the automatic action', async () => {
      const actions = await actionsOf(admin, sln);
      const failed = actions.find((a) => a.status === 'failed' || a.status === 'skipped');
      if (failed) throw new Error(`The action did not run: ${JSON.stringify(failed)}`);
      return actions.some((a) => a.status === 'executed') ? actions : null;
    });

    // The provider has the line opted out, and exactly one opt-out was made, by the rule.
    expect(await optedIn(admin, sln)).toBe(false);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ ruleKind: 'usage', level: 90, action: 'opt_out', mode: 'act', status: 'executed', undoable: true, customer: { uuid } });
    const changes = await optChangesOf(admin, sln);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ actor: { kind: 'rule' }, after: { optedIn: false } });

    // The alert it came of: one, at 90 %, saying what was done.
    const alerts = (await session.api<AlertListWire>(admin, `/alerts?status=all&search=${encodeURIComponent(sln)}`)).alerts;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'usage', level: 90, id: done[0]!.alertId, automaticActions: [{ id: done[0]!.id, status: 'executed', text: ACTION_TEXT }] });

    // Evaluating again makes no second action.
    const again = await session.api<AlertEvaluationReport>(admin, '/alerts/evaluate', { method: 'POST' });
    expect(again.opened).toBe(0);
    expect(await actionsOf(admin, sln)).toHaveLength(1);
    expect(await optChangesOf(admin, sln)).toHaveLength(1);

    // The customer is emailed about it, once.
    const mails = await until('the customer email', async () => {
      const box = await session.api<{ messages: { to: string; subject: string; text: string }[] }>(admin, `/email-outbox?to=${encodeURIComponent(email)}&limit=100`);
      const found = box.messages.filter((m) => m.to === email && m.subject === `Your service line ${sln}: Opt out of priority data`);
      return found.length > 0 ? found : null;
    }, 30_000);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('the line reached 90 % of its plan');

    // The admin sees why on the Alerts page.
    await admin.goto(`${portal.url}/alerts`);
    const row = admin.getByRole('row').filter({ hasText: sln });
    await row.getByText(ACTION_TEXT).waitFor();

    // The customer sees it in their own area.
    const own = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await own.newPage();
      await customerSignsInFromLink(page, admin, portal, email, 'Harbour-Passw0rd!');
      await page.goto(`${portal.url}/my/alerts`);
      await page.getByText(ACTION_TEXT).first().waitFor();
      await page.getByText(sln).first().waitFor();
    } finally {
      await own.close();
    }

    // The admin undoes it from the alert, after the question; the provider has the line opted in again.
    // The provider refuses an opt-in for a day after an opt-out; the simulator's control ends that
    // day now, as a demo would.
    const cooled = await fetch(`${portal.url}/simulator/api/controls/service-lines/${sln}/end-opt-in-cool-down`, { method: 'POST' });
    expect(cooled.status).toBe(200);
    await row.getByRole('button', { name: /^Undo Opt out of priority data/ }).click();
    const dialog = admin.getByRole('dialog', { name: 'Undo action' });
    await dialog.getByText(`Undo “Opt out of priority data” on ${sln}? Opt back in now.`).waitFor();
    await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
    const undone = await until('the undo', async () => {
      // A refusal stays in the dialog: fail with its words rather than at the deadline.
      const refusal = dialog.getByRole('alert');
      if (await refusal.isVisible()) throw new Error(`Undo was refused: ${await refusal.innerText()}`);
      const [action] = await actionsOf(admin, sln);
      return action?.status === 'undone' ? action : null;
    }, 30_000);
    expect(undone.undoneBy).not.toBeNull();
    expect(await optedIn(admin, sln)).toBe(true);
    const afterUndo = await optChangesOf(admin, sln);
    expect(afterUndo).toHaveLength(2);
    expect(afterUndo[0]).toMatchObject({ actor: { kind: 'user' }, after: { optedIn: true } });
    await row.getByText('Undone: Opt out of priority data, at 90 % of the plan').waitFor();
  });
});
