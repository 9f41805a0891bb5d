// The Alerts page and the shell's bell through the whole client (router, session, list, acknowledge
// and bell machines, views) over a fake portal API at the fetch seam.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ALERT_MESSAGES } from '../../src/domain/alerts';
import { ACKNOWLEDGE_TITLE } from '../../src/ui/alerts/AcknowledgeDialog';
import { BELL_PANEL_LABEL, VIEW_ALL_ALERTS } from '../../src/ui/shell/AlertBell';
import { acknowledgedAlert, alertList, bellWire, envelope, offlineAlert, openAlert, refusal } from '../fixtures/alerts';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { openSignedInAt } from './open-app';
import { fill } from './fill';

function openAlerts(path = '/alerts', answers: Record<string, FakeAnswer> = {}) {
  const bodies: Array<[string, unknown]> = [];
  const api = fakePortalApi({
    'GET /api/v1/alerts': { body: envelope(alertList([openAlert, offlineAlert, acknowledgedAlert], { resolved: 7 })) },
    'GET /api/v1/alerts/bell': { body: envelope(bellWire(0)) },
    'POST /api/v1/alerts/acknowledge': ({ body }) => {
      bodies.push(['acknowledge', body]);
      return { body: envelope({ acknowledged: (body as { ids: string[] }).ids, unchanged: [], notFound: [] }) };
    },
    ...answers,
  });
  const page = openSignedInAt(path, api.fetch);
  return { ...page, calls: api.calls, bodies };
}

const table = () => within(screen.getByRole('table', { name: ALERT_MESSAGES.pageTitle }));

describe('Alerts page', () => {
  it('lists the alerts with severity, target, customer link and who acknowledged, and the counts in the filter', async () => {
    const { user, location } = openAlerts();
    await screen.findByText(offlineAlert.message);
    expect(screen.getByText('Active (3)')).toBeTruthy();
    expect(screen.getByText('Resolved (7)')).toBeTruthy();
    expect(screen.getByText('All (10)')).toBeTruthy();
    expect(table().getByText('Critical')).toBeTruthy();
    expect(table().getByText(`Terminal ${offlineAlert.userTerminalId}`)).toBeTruthy();
    expect(table().getByText(/by Test Admin/)).toBeTruthy();
    // Two open rows offer Acknowledge; the acknowledged one does not.
    expect(table().getAllByRole('button', { name: /^Acknowledge / })).toHaveLength(2);
    await user.click(table().getAllByRole('link', { name: openAlert.customer!.name })[0]!);
    await waitFor(() => expect(location()).toBe(`/customer/terminals/${openAlert.customer!.uuid}`));
  });

  it('keeps the status, kind, severity and search in the URL and asks the server for them', async () => {
    const { user, location, calls } = openAlerts('/alerts?status=all&kind=offline');
    await screen.findByText(offlineAlert.message);
    expect(calls.some((c) => c.startsWith('GET /api/v1/alerts?') && c.includes('status=all') && c.includes('kind=offline'))).toBe(true);
    await user.click(screen.getByText('Resolved (7)'));
    await waitFor(() => expect(location()).toBe('/alerts?status=resolved&kind=offline'));
    await user.click(screen.getByRole('combobox', { name: 'Severity' }));
    await user.click(await screen.findByRole('option', { name: 'Critical' }));
    await waitFor(() => expect(location()).toBe('/alerts?status=resolved&kind=offline&severity=critical'));
    await waitFor(() => expect(calls.some((c) => c.includes('severity=critical') && c.includes('status=resolved'))).toBe(true));
    await fill(user, screen.getByRole('searchbox', { name: 'Search alerts' }), 'AST');
    await waitFor(() => expect(location()).toContain('search=AST'));
  });

  it('acknowledges two ticked rows after asking, reports it and reads the bell again', async () => {
    const { user, bodies, calls } = openAlerts();
    await screen.findByText(offlineAlert.message);
    const bellReads = () => calls.filter((c) => c === 'GET /api/v1/alerts/bell').length;
    const before = bellReads();
    // PrimeReact 10.9 names a row's box "Row Selected <id>", ticked or not; the native input takes the click.
    const rowBox = (id: string) => table().getAllByRole('checkbox', { name: `Row Selected ${id}` }).find((el) => el.tagName === 'INPUT')!;
    expect((rowBox(acknowledgedAlert.id) as HTMLInputElement).disabled).toBe(true);
    await user.click(rowBox(openAlert.id));
    await user.click(rowBox(offlineAlert.id));
    const bulk = screen.getByRole('button', { name: 'Acknowledge (2)' });
    await user.click(bulk);
    const dialog = within(await screen.findByRole('dialog', { name: ACKNOWLEDGE_TITLE }));
    expect(bodies).toEqual([]);
    await user.click(dialog.getByRole('button', { name: 'Acknowledge' }));
    await screen.findAllByText(ALERT_MESSAGES.acknowledged(2));
    expect(bodies).toEqual([['acknowledge', { ids: [openAlert.id, offlineAlert.id] }]]);
    await waitFor(() => expect(bellReads()).toBeGreaterThan(before));
  });

  it("shows the server's words when an acknowledgement is refused", async () => {
    const { user } = openAlerts('/alerts', { 'POST /api/v1/alerts/acknowledge': { status: 400, body: refusal(ALERT_MESSAGES.acknowledgeTooMany) } });
    await screen.findByText(offlineAlert.message);
    await user.click(table().getByRole('button', { name: `Acknowledge ${openAlert.title}: Line ${openAlert.serviceLineNumber}` }));
    expect((await screen.findAllByText(ALERT_MESSAGES.acknowledgeTooMany)).length).toBeGreaterThan(0);
  });

  it('shows a failed load with Try Again', async () => {
    openAlerts('/alerts', { 'GET /api/v1/alerts': { status: 500, body: refusal('Database unavailable') } });
    expect(await screen.findByText('Database unavailable')).toBeTruthy();
    expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
  });
});

describe('the bell in the admin shell', () => {
  it('shows the unread count, lists the newest alerts, and opening it marks them seen', async () => {
    const { user, calls, location } = openAlerts('/home', { 'GET /api/v1/alerts/bell': { body: envelope(bellWire(3)) }, 'POST /api/v1/alerts/bell/seen': { body: envelope({ seenAt: '2026-03-10T12:00:00.000Z' }) } });
    const bell = await screen.findByRole('button', { name: ALERT_MESSAGES.bellLabel(3) });
    expect(bell.textContent).toContain('3');
    await user.click(bell);
    const panel = within(await screen.findByRole('dialog', { name: BELL_PANEL_LABEL }));
    expect(panel.getByText(openAlert.title)).toBeTruthy();
    expect(panel.getByText(offlineAlert.title)).toBeTruthy();
    await screen.findByRole('button', { name: ALERT_MESSAGES.bellLabel(0) });
    await waitFor(() => expect(calls).toContain('POST /api/v1/alerts/bell/seen'));
    await user.click(panel.getByRole('link', { name: VIEW_ALL_ALERTS }));
    await waitFor(() => expect(location()).toBe('/alerts'));
  });

  it('says none unread and records nothing when nothing is unread', async () => {
    const { user, calls } = openAlerts('/home');
    const bell = await screen.findByRole('button', { name: ALERT_MESSAGES.bellLabel(0) });
    await user.click(bell);
    await screen.findByRole('dialog', { name: BELL_PANEL_LABEL });
    expect(calls).not.toContain('POST /api/v1/alerts/bell/seen');
  });
});
