// Scheduled changes through the whole client (composition root, router, session, the Schedule page,
// its list, cancel and schedule-change actors, the views) over a fake portal API, and the two
// other ways into the schedule dialog: a customer's row menu and Terminal Details → Settings.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AUTOMATION_MESSAGES, SCHEDULE_OPERATION_LABELS } from '../../src/domain/automation';
import { CANCEL_CHANGE_TEXTS } from '../../src/ui/automation/schedule/CancelChangeDialog';
import { SCHEDULE_DIALOG_TEXTS } from '../../src/ui/automation/schedule/ScheduleDialog';
import { PARAMETER_TEXTS } from '../../src/ui/automation/schedule/ParameterFields';
import { SCHEDULE_TEXTS } from '../../src/ui/automation/schedule/ScheduleView';
import { TARGET_TEXTS } from '../../src/ui/automation/schedule/TargetFields';
import { LINE_SETTINGS_TEXTS } from '../../src/ui/terminals/detail/SettingsTab';
import { profileWithRoles } from '../machines/fixtures';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { customerFixture } from '../fixtures/customers';
import { SCHEDULE_CUSTOMER, SCHEDULE_LINE, fieldRefusal, scheduleAnswers, upcomingChange } from '../fixtures/schedule';
import { lineSettingsFixture } from '../fixtures/service-lines';
import { terminalRowWire } from '../fixtures/terminals-client';
import { fleetHealth } from '../fixtures/terminals-ui';
import { enteredDialog } from './dialogs';
import { fill } from './fill';
import { openSignedInAt } from './open-app';

/** The bodies the fake API was sent, by "METHOD /path". */
function recording(answers: Record<string, FakeAnswer>) {
  const bodies: Array<[string, unknown]> = [];
  const recorded = Object.fromEntries(
    Object.entries(answers).map(([key, answer]) => [
      key,
      (request: { url: URL; body: unknown }) => {
        if (request.body !== undefined) bodies.push([key, request.body]);
        return typeof answer === 'function' ? answer(request) : answer;
      },
    ]),
  );
  return { recorded, bodies };
}

function openSchedule(answers: Record<string, FakeAnswer> = scheduleAnswers(), profile = profileWithRoles('owner')) {
  const { recorded, bodies } = recording(answers);
  const api = fakePortalApi(recorded, profile);
  const opened = openSignedInAt('/schedule', api.fetch, { profile });
  return { ...opened, calls: api.calls, bodies };
}

const table = async () => within(await screen.findByRole('table', { name: AUTOMATION_MESSAGES.schedulePageTitle }, { timeout: 5000 }));
const cancelButton = () => screen.getByRole('button', { name: `Cancel ${SCHEDULE_OPERATION_LABELS.change_plan} of ${SCHEDULE_LINE} (Barn dish)` });

describe('Schedule page', () => {
  it('lists the upcoming changes, and an admin cancels one after confirming', async () => {
    const page = openSchedule();
    const rows = await table();
    expect(rows.getByText(`${SCHEDULE_LINE} (Barn dish)`)).toBeTruthy();
    expect(rows.getByText('To Priority 1 TB')).toBeTruthy();
    expect(rows.getByText(SCHEDULE_CUSTOMER.name)).toBeTruthy();
    expect(rows.getByText(/\(next cycle\)$/)).toBeTruthy();
    expect(rows.getByText('Customer blocked')).toBeTruthy();
    expect(rows.getAllByText('Test Admin')).toHaveLength(2);
    expect(screen.getByText('Upcoming (1)')).toBeTruthy();
    // A change that ran offers no Cancel.
    expect(screen.getAllByRole('button', { name: /^Cancel / })).toHaveLength(1);

    const loads = () => page.calls.filter((c) => c === 'GET /api/v1/scheduled-changes?status=upcoming&page=1&limit=25').length;
    const before = loads();
    await page.user.click(cancelButton());
    const dialog = within(await enteredDialog(CANCEL_CHANGE_TEXTS.title));
    expect(dialog.getByText(/It will not run/)).toBeTruthy();
    await page.user.click(dialog.getByRole('button', { name: CANCEL_CHANGE_TEXTS.confirm }));
    await screen.findByText(AUTOMATION_MESSAGES.cancelled);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: CANCEL_CHANGE_TEXTS.title })).toBeNull());
    expect(page.calls).toContain(`POST /api/v1/scheduled-changes/${upcomingChange.id}/cancel`);
    // The schedule loads again to show the change cancelled.
    await waitFor(() => expect(loads()).toBe(before + 1));
  });

  it("keeps the question open with the server's words when a change ran meanwhile", async () => {
    const page = openSchedule(
      scheduleAnswers({ [`POST /api/v1/scheduled-changes/${upcomingChange.id}/cancel`]: { status: 409, body: { success: false, message: AUTOMATION_MESSAGES.notCancellable } } }),
    );
    await table();
    await page.user.click(cancelButton());
    const dialog = within(await enteredDialog(CANCEL_CHANGE_TEXTS.title));
    await page.user.click(dialog.getByRole('button', { name: CANCEL_CHANGE_TEXTS.confirm }));
    expect(await dialog.findByText(AUTOMATION_MESSAGES.notCancellable)).toBeTruthy();
  });

  it('shows a reader the schedule without Schedule a change or Cancel', async () => {
    openSchedule(scheduleAnswers(), profileWithRoles('admin_read_only'));
    await table();
    expect(screen.queryByRole('button', { name: SCHEDULE_TEXTS.schedule })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Cancel / })).toBeNull();
  });

  it("schedules a line's plan change for its next cycle: a refusal sits under its field, and once fixed it is sent", async () => {
    let refuse = true;
    const answers = scheduleAnswers();
    const created = answers['POST /api/v1/scheduled-changes'];
    const page = openSchedule({
      ...answers,
      'POST /api/v1/scheduled-changes': () => (refuse ? ((refuse = false), fieldRefusal('atNextCycle', AUTOMATION_MESSAGES.noNextCycle)) : created),
    });
    await table();
    await page.user.click(screen.getByRole('button', { name: SCHEDULE_TEXTS.schedule }));
    const dialog = within(await enteredDialog(SCHEDULE_DIALOG_TEXTS.title));
    await page.user.click(dialog.getByRole('button', { name: SCHEDULE_DIALOG_TEXTS.submit }));
    expect(await dialog.findByText('Enter the service line number')).toBeTruthy();

    await fill(page.user, dialog.getByLabelText(TARGET_TEXTS.lineNumber), SCHEDULE_LINE);
    await page.user.click(dialog.getByRole('combobox', { name: SCHEDULE_DIALOG_TEXTS.operation }));
    await page.user.click(await screen.findByRole('option', { name: SCHEDULE_OPERATION_LABELS.change_plan }));
    await page.user.click(await dialog.findByRole('combobox', { name: PARAMETER_TEXTS.plan }));
    await page.user.click(await screen.findByRole('option', { name: 'Priority 1 TB' }));
    await page.user.click(dialog.getByLabelText(SCHEDULE_DIALOG_TEXTS.nextCycle));
    await page.user.click(dialog.getByRole('button', { name: SCHEDULE_DIALOG_TEXTS.submit }));
    expect(await dialog.findByText(AUTOMATION_MESSAGES.noNextCycle)).toBeTruthy();

    await page.user.click(dialog.getByRole('button', { name: SCHEDULE_DIALOG_TEXTS.submit }));
    await screen.findByText(AUTOMATION_MESSAGES.scheduled);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: SCHEDULE_DIALOG_TEXTS.title })).toBeNull());
    expect(page.bodies.at(-1)).toEqual([
      'POST /api/v1/scheduled-changes',
      { operation: 'change_plan', target: SCHEDULE_LINE, parameters: { productReferenceId: 'prod-1tb' }, atNextCycle: true },
    ]);
  });

  it("schedules a customer's block at a date and time typed into the picker, after finding the customer", async () => {
    const page = openSchedule();
    await table();
    await page.user.click(screen.getByRole('button', { name: SCHEDULE_TEXTS.schedule }));
    const dialog = within(await enteredDialog(SCHEDULE_DIALOG_TEXTS.title));
    await page.user.click(dialog.getByLabelText(TARGET_TEXTS.customer));
    await fill(page.user, dialog.getByLabelText(TARGET_TEXTS.findCustomer), 'Harbour');
    await page.user.click(await dialog.findByRole('button', { name: `${SCHEDULE_CUSTOMER.name} · ${SCHEDULE_CUSTOMER.email}` }));
    // A customer has no billing cycle to wait for.
    expect(dialog.queryByLabelText(SCHEDULE_DIALOG_TEXTS.nextCycle)).toBeNull();
    await page.user.click(dialog.getByRole('combobox', { name: SCHEDULE_DIALOG_TEXTS.operation }));
    await page.user.click(await screen.findByRole('option', { name: SCHEDULE_OPERATION_LABELS.block }));
    await fill(page.user, dialog.getByLabelText(PARAMETER_TEXTS.reason), 'Unpaid since March');
    const when = new Date(Date.now() + 7 * 24 * 3600_000);
    when.setHours(10, 30, 0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    // The whole text at once, as the picker reads it: in happy-dom its overlay takes the keys user.type sends.
    fireEvent.input(dialog.getByLabelText(SCHEDULE_DIALOG_TEXTS.dateTime), { target: { value: `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())} 10:30` } });
    await page.user.click(dialog.getByRole('button', { name: SCHEDULE_DIALOG_TEXTS.submit }));
    await screen.findByText(AUTOMATION_MESSAGES.scheduled);
    expect(page.bodies.at(-1)).toEqual([
      'POST /api/v1/scheduled-changes',
      { operation: 'block', target: SCHEDULE_CUSTOMER.uuid, parameters: { reason: 'Unpaid since March' }, at: when.toISOString() },
    ]);
  });
});

describe('Schedule… on a customer and a line', () => {
  it("a customer's row menu opens the dialog for that customer, who cannot be changed there", async () => {
    const customer = customerFixture({ uuid: SCHEDULE_CUSTOMER.uuid, name: SCHEDULE_CUSTOMER.name, email: SCHEDULE_CUSTOMER.email });
    const answers = {
      ...scheduleAnswers(),
      'GET /api/v1/customers': { body: { success: true, message: 'ok', data: { customers: [customer], pagination: { page: 1, limit: 10, total: 1, pages: 1 } } } },
      'GET /api/v1/customers/stats': { body: { success: true, message: 'ok', data: { total: 1, active: 1, pending: 0, mfaEnabled: 0, blocked: 0, expiringSoon: 0, expired: 0 } } },
    };
    const { recorded, bodies } = recording(answers);
    const api = fakePortalApi(recorded);
    const { user } = openSignedInAt('/customers', api.fetch);
    await user.click(await screen.findByRole('button', { name: `Actions for ${SCHEDULE_CUSTOMER.name}` }, { timeout: 5000 }));
    await user.click(await screen.findByRole('menuitem', { name: 'Schedule…' }));
    const dialog = within(await enteredDialog(SCHEDULE_DIALOG_TEXTS.title));
    expect(dialog.getByText(SCHEDULE_CUSTOMER.name)).toBeTruthy();
    expect(dialog.queryByLabelText(TARGET_TEXTS.findCustomer)).toBeNull();
    await user.click(dialog.getByRole('combobox', { name: SCHEDULE_DIALOG_TEXTS.operation }));
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Block the customer', 'Unblock the customer', 'Extend the account']));
    await user.click(screen.getByRole('option', { name: SCHEDULE_OPERATION_LABELS.extend }));
    await user.clear(dialog.getByLabelText(PARAMETER_TEXTS.days));
    await fill(user, dialog.getByLabelText(PARAMETER_TEXTS.days), '0');
    await user.click(dialog.getByRole('button', { name: SCHEDULE_DIALOG_TEXTS.submit }));
    expect(await dialog.findByText(AUTOMATION_MESSAGES.daysRange)).toBeTruthy();
    expect(dialog.getByText(AUTOMATION_MESSAGES.timeInvalid)).toBeTruthy();
    expect(bodies).toEqual([]);
  });

  it("Terminal Details → Settings offers Schedule… for the line, with the blocks its plan sells", async () => {
    const settings = lineSettingsFixture({ serviceLineNumber: SCHEDULE_LINE });
    const ok = (data: unknown) => ({ body: { success: true, message: 'ok', data } });
    const rows = [terminalRowWire({ service_line_number: SCHEDULE_LINE })];
    const api = fakePortalApi({
      'GET /api/v1/terminals': ok({ results: rows, totalCount: rows.length, page: 1, limit: 25 }),
      'GET /api/v1/terminals/health': ok(fleetHealth({ total: rows.length })),
      'GET /api/v1/terminals/sync/queue': ok({ active: null, recent: [] }),
      [`GET /api/v1/service-lines/${SCHEDULE_LINE}/settings`]: ok(settings),
    });
    const { user } = openSignedInAt('/terminals', api.fetch);
    await user.click(await screen.findByRole('button', { name: `View details of ${SCHEDULE_LINE}` }, { timeout: 5000 }));
    const detail = within(await enteredDialog('Terminal Details'));
    await user.click(detail.getByRole('tab', { name: 'Settings' }));
    await user.click(await detail.findByRole('button', { name: LINE_SETTINGS_TEXTS.schedule }));
    const dialog = within(await enteredDialog(SCHEDULE_DIALOG_TEXTS.title));
    expect(dialog.getByText(new RegExp(SCHEDULE_LINE))).toBeTruthy();
    await user.click(dialog.getByRole('combobox', { name: SCHEDULE_DIALOG_TEXTS.operation }));
    await user.click(await screen.findByRole('option', { name: SCHEDULE_OPERATION_LABELS.recurring_blocks }));
    await user.click(dialog.getByRole('combobox', { name: PARAMETER_TEXTS.blockProduct }));
    // The operation's list closes as the block's opens: wait for the one list left.
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(settings.blockProducts.map((p) => p.productId)));
  });
});
