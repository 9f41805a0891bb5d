// Terminal Details → Settings through the whole client (composition root, router, session, the
// terminals page, the detail dialog and its lineSettings actor, views) against a fake of the portal
// API at the fetch seam that keeps one service line's settings and changes them as the server would.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { AdminUser } from '../../src/domain/auth';
import { SERVICE_LINE_MESSAGES, endsOnLabel, type ServiceLineSettingsWire } from '../../src/domain/service-lines';
import { adminProfile, profileWithRoles, userProfile } from '../machines/fixtures';
import { LINE_SETTINGS_TEXTS } from '../../src/ui/terminals/detail/SettingsTab';
import { lineSettingsFixture } from '../fixtures/service-lines';
import { terminalRowWire } from '../fixtures/terminals-client';
import { fleetHealth } from '../fixtures/terminals-ui';
import { enteredDialog } from './dialogs';
import { openSignedInAt } from './open-app';
import { fill } from './fill';

const LINE = 'AST-511274-31364-54';
const END_OF_CYCLE = '2099-11-30T23:59:59.000Z';
const rows = [terminalRowWire({ service_line_number: LINE })];

interface FakeOptions {
  profile?: AdminUser;
  /** What the provider says to a change, by route ('PUT nickname', 'POST top-up', …): its refusal. */
  refuse?: Record<string, { status: number; message: string }>;
  settings?: ServiceLineSettingsWire;
}

function fakePortalApi({ profile = adminProfile, refuse = {}, settings: start = lineSettingsFixture({ serviceLineNumber: LINE }) }: FakeOptions = {}) {
  let settings = start;
  const bodies: Array<[string, unknown]> = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, message = 'ok') => json(200, { success: true, message, data });
  const fail = (status: number, message: string) => json(status, { success: false, message, requestId: 'req-1' });

  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call = `${method} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    if (body !== undefined) bodies.push([call, body]);
    if (call === 'GET /api/v1/auth/me') return ok({ user: profile });
    if (call === 'GET /api/v1/terminals') return ok({ results: rows, totalCount: rows.length, page: 1, limit: 25 });
    if (call === 'GET /api/v1/terminals/health') return ok(fleetHealth({ total: rows.length }));
    if (call === 'GET /api/v1/terminals/sync/queue') return ok({ active: null, recent: [] });

    // The line's equipment: a terminal moved or removed leaves the line; a router keeps its place.
    const equipment = /^\/api\/v1\/service-lines\/([^/]+)\/(terminals|routers)\/([^/]+)(?:\/([a-z]+))?$/.exec(url.pathname);
    if (equipment && decodeURIComponent(equipment[1]!) === LINE) {
      const [, , kind, id, verb] = equipment;
      const action = `${method} ${kind}${verb ? `/${verb}` : ''}`;
      if (profile.role !== 'admin') return fail(403, 'Administrator access required');
      const refusal = refuse[action];
      if (refusal) return fail(refusal.status, refusal.message);
      const terminal = settings.terminals.find((t) => t.deviceId === decodeURIComponent(id!));
      const router = settings.terminals.flatMap((t) => t.routers).find((r) => r.routerId === decodeURIComponent(id!));
      const without = () => ({ ...settings, terminals: settings.terminals.filter((t) => t !== terminal) });
      if (kind === 'terminals' && !terminal) return fail(404, SERVICE_LINE_MESSAGES.terminalNotOnLine);
      if (kind === 'routers' && !router) return fail(404, SERVICE_LINE_MESSAGES.routerNotOnLine);
      switch (action) {
        case 'POST terminals/move':
          settings = without();
          return ok(settings, SERVICE_LINE_MESSAGES.terminalMoved);
        case 'DELETE terminals':
          settings = without();
          return ok(settings, SERVICE_LINE_MESSAGES.terminalRemoved);
        case 'POST routers/reboot':
          return ok(settings, SERVICE_LINE_MESSAGES.routerRebooted);
        case 'PUT routers/config': {
          const configId = body!.configId as string | null;
          const terminals = settings.terminals.map((t) => ({ ...t, routers: t.routers.map((r) => (r === router ? { ...r, configId } : r)) }));
          settings = { ...settings, terminals };
          return ok(settings, SERVICE_LINE_MESSAGES.routerConfigSet);
        }
        default:
          return fail(404, `Route not found: ${call}`);
      }
    }
    const line = /^\/api\/v1\/service-lines\/([^/]+)\/([a-z-]+)$/.exec(url.pathname);
    if (!line || decodeURIComponent(line[1]!) !== LINE) return fail(404, `Route not found: ${call}`);
    const action = `${method} ${line[2]}`;
    if (action === 'GET settings') return ok(settings, SERVICE_LINE_MESSAGES.loaded);
    if (profile.role !== 'admin') return fail(403, 'Administrator access required');
    const refusal = refuse[action];
    if (refusal) return fail(refusal.status, refusal.message);
    switch (action) {
      case 'PUT nickname':
        settings = { ...settings, nickname: String(body!.nickname) };
        return ok(settings, SERVICE_LINE_MESSAGES.renamed);
      case 'POST top-up': {
        const count = Number(body!.count);
        settings = { ...settings, topUpBlocksThisCycle: settings.topUpBlocksThisCycle + count, topUpBlocksLeft: settings.topUpBlocksLeft - count };
        return ok(settings, SERVICE_LINE_MESSAGES.toppedUp);
      }
      case 'POST deactivate':
        settings = body!.when === 'now' ? { ...settings, active: false, endDate: new Date().toISOString() } : { ...settings, endDate: END_OF_CYCLE };
        return ok(settings);
      default:
        return fail(404, `Route not found: ${call}`);
    }
  });
  return { fetch, bodies };
}

async function openSettings(options: FakeOptions = {}) {
  const api = fakePortalApi(options);
  const opened = openSignedInAt('/terminals', api.fetch, options.profile ? { profile: options.profile } : {});
  await opened.user.click(await screen.findByRole('button', { name: `View details of ${LINE}` }));
  const detail = within(await enteredDialog('Terminal Details'));
  await opened.user.click(detail.getByRole('tab', { name: 'Settings' }));
  const panel = () => within(detail.getByRole('tabpanel'));
  await panel().findByText('Priority 1 TB');
  return { ...opened, ...api, panel };
}

const field = (panel: ReturnType<typeof within>, label: string) => panel.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
const dialog = (name: string) => within(screen.getByRole('dialog', { name }));

describe('Terminal Details → Settings', () => {
  it('loads the line: name, plan, status, public IP, priority data, blocks, top-ups and partial periods', async () => {
    const { panel } = await openSettings();
    const p = panel();
    expect(field(p, 'Name')).toBe('North yard');
    expect(field(p, 'Service Line Number')).toBe(LINE);
    expect(field(p, 'Plan')).toBe('Priority 1 TB');
    expect(field(p, 'Status')).toContain('Active');
    expect(field(p, 'Status')).not.toContain('Ends on');
    expect(field(p, 'Public IP')).toBe('Disabled');
    expect(field(p, 'Priority Data Past the Limit')).toBe('Off');
    expect(field(p, 'This Cycle')).toBe('2 blocks of 50 GB (100 GB)');
    expect(field(p, 'Next Cycle')).toBe('2 blocks of 50 GB (100 GB)');
    expect(field(p, 'Bought This Cycle')).toBe('1 block');
    expect(field(p, 'Left This Cycle')).toBe('9 blocks');
    expect(p.getByRole('list', { name: 'Partial periods' }).textContent).toContain('priority-50gb');
    for (const name of ['Rename', 'Enable Public IP', 'Turn On Priority Data', 'Change Recurring Blocks', 'Buy Top-Up', 'Deactivate Service Line']) {
      expect(p.getByRole('button', { name })).toBeTruthy();
    }
  });

  it('renames the line: the new name is shown and a toast says so', async () => {
    const { user, panel, bodies } = await openSettings();
    await user.click(panel().getByRole('button', { name: 'Rename' }));
    const rename = dialog('Rename Service Line');
    const input = rename.getByLabelText('Nickname');
    expect((input as HTMLInputElement).value).toBe('North yard');
    await user.clear(input);
    await user.click(rename.getByRole('button', { name: 'Save' }));
    expect(await rename.findByText(SERVICE_LINE_MESSAGES.nicknameRequired)).toBeTruthy();
    await fill(user, input, 'South yard');
    await user.click(rename.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rename Service Line' })).toBeNull());
    expect(field(panel(), 'Name')).toBe('South yard');
    expect(await screen.findByText(SERVICE_LINE_MESSAGES.renamed)).toBeTruthy();
    expect(bodies).toEqual([['PUT /api/v1/service-lines/AST-511274-31364-54/nickname', { nickname: 'South yard' }]]);
  });

  it('buys a top-up: the price of the chosen blocks is shown before confirming, then the counts move', async () => {
    const { user, panel, bodies } = await openSettings();
    await user.click(panel().getByRole('button', { name: 'Buy Top-Up' }));
    const choose = dialog('Buy Top-Up');
    await user.click(choose.getByLabelText('Blocks').closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: '3 blocks' }));
    await user.click(choose.getByRole('button', { name: 'Continue' }));
    // 3 × 12.50 USD, before anything is bought.
    const confirm = dialog('Buy Top-Up');
    expect(confirm.getByText('37.50 USD')).toBeTruthy();
    expect(confirm.getByText(/Buy 3 blocks of 50 GB \(150 GB\) for/)).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.click(confirm.getByRole('button', { name: 'Buy Top-Up' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Buy Top-Up' })).toBeNull());
    expect(field(panel(), 'Bought This Cycle')).toBe('4 blocks');
    expect(field(panel(), 'Left This Cycle')).toBe('6 blocks');
    expect(await screen.findByText(SERVICE_LINE_MESSAGES.toppedUp)).toBeTruthy();
    expect(bodies).toEqual([['POST /api/v1/service-lines/AST-511274-31364-54/top-up', { productId: 'topup-50', count: 3 }]]);
  });

  it('deactivates at the end of the cycle with a reason, naming the customer and the terminals, then shows "Ends on …"', async () => {
    const { user, panel, bodies } = await openSettings();
    await user.click(panel().getByRole('button', { name: 'Deactivate Service Line' }));
    const form = dialog('Deactivate Service Line');
    await user.click(form.getByRole('button', { name: 'Continue' }));
    expect(await form.findByText(SERVICE_LINE_MESSAGES.reasonRequired)).toBeTruthy();
    expect(form.getByText(SERVICE_LINE_MESSAGES.whenInvalid)).toBeTruthy();
    await user.click(form.getByLabelText('At the end of the billing cycle'));
    await fill(user, form.getByLabelText('Reason'), 'Customer moved to fibre');
    await user.click(form.getByRole('button', { name: 'Continue' }));
    const confirm = dialog('Deactivate Service Line');
    expect(confirm.getByText('Northwind Shipping')).toBeTruthy();
    expect(confirm.getByRole('list', { name: 'Terminals losing service' }).textContent).toContain('KIT00001 (Bridge)');
    expect(confirm.getByRole('list', { name: 'Terminals losing service' }).textContent).toContain('KIT00002');
    expect(confirm.getByText(/at the end of its billing cycle/)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deactivate Service Line' })).toBeNull());
    const label = endsOnLabel(END_OF_CYCLE, new Date())!;
    expect(label).toBe('Ends on 30 Nov 2099');
    expect(field(panel(), 'Status')).toContain(label);
    // Already ending: it cannot be deactivated again.
    expect(panel().queryByRole('button', { name: 'Deactivate Service Line' })).toBeNull();
    expect(await screen.findByText(SERVICE_LINE_MESSAGES.deactivationScheduled)).toBeTruthy();
    expect(bodies).toEqual([['POST /api/v1/service-lines/AST-511274-31364-54/deactivate', { when: 'end_of_cycle', reason: 'Customer moved to fibre' }]]);
  });

  it('a provider refusal is shown in the dialog in the provider’s words, and nothing changes', async () => {
    const words = 'Service line has a pending plan change';
    const { user, panel } = await openSettings({ refuse: { 'POST deactivate': { status: 409, message: words } } });
    await user.click(panel().getByRole('button', { name: 'Deactivate Service Line' }));
    const form = dialog('Deactivate Service Line');
    await user.click(form.getByLabelText('Now'));
    await fill(user, form.getByLabelText('Reason'), 'Fraud');
    await user.click(form.getByRole('button', { name: 'Continue' }));
    await user.click(dialog('Deactivate Service Line').getByRole('button', { name: 'Deactivate' }));
    const refused = dialog('Deactivate Service Line');
    expect(await refused.findByText(`Failed to deactivate the service line: ${words}`)).toBeTruthy();
    // Still on the confirmation, ready to try again or cancel.
    expect((refused.getByRole('button', { name: 'Deactivate' }) as HTMLButtonElement).disabled).toBe(false);
    await user.click(refused.getByRole('button', { name: 'Back' }));
    await user.click(dialog('Deactivate Service Line').getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deactivate Service Line' })).toBeNull());
    expect(field(panel(), 'Status')).toBe('Active');
  });

  it('moves a terminal to another line: the number is checked first, then the terminal leaves this line', async () => {
    const { user, panel, bodies } = await openSettings();
    const equipment = () => panel().getByRole('list', { name: 'Terminals and Routers' });
    expect(equipment().textContent).toContain('KIT00001 (Bridge)');
    await user.click(panel().getByRole('button', { name: 'Move KIT00001' }));
    const move = dialog('Move Terminal');
    expect(move.getByText('KIT00001 (Bridge)')).toBeTruthy();
    const input = move.getByLabelText('To Service Line');
    await user.click(move.getByRole('button', { name: 'Move Terminal' }));
    expect(await move.findByText(SERVICE_LINE_MESSAGES.targetRequired)).toBeTruthy();
    await fill(user, input, LINE.toLowerCase());
    await user.click(move.getByRole('button', { name: 'Move Terminal' }));
    expect(await move.findByText(SERVICE_LINE_MESSAGES.sameLine)).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.clear(input);
    await fill(user, input, 'AST-600100-20020-11');
    await user.click(move.getByRole('button', { name: 'Move Terminal' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Move Terminal' })).toBeNull());
    expect(await screen.findByText(SERVICE_LINE_MESSAGES.terminalMoved)).toBeTruthy();
    expect(equipment().textContent).not.toContain('KIT00001');
    expect(equipment().textContent).toContain('KIT00002');
    expect(bodies).toEqual([['POST /api/v1/service-lines/AST-511274-31364-54/terminals/ut-0100000001/move', { toServiceLineNumber: 'AST-600100-20020-11' }]]);
  });

  it('removes a terminal from the line after a confirmation naming it; a refusal keeps it there', async () => {
    const words = 'The terminal has a pending configuration change';
    const { user, panel } = await openSettings({ refuse: { 'DELETE terminals': { status: 409, message: words } } });
    await user.click(panel().getByRole('button', { name: 'Remove KIT00002 from the line' }));
    const confirm = dialog('Remove from Line');
    expect(confirm.getByText('KIT00002')).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Remove' }));
    expect(await confirm.findByText(`Failed to remove the terminal from the line: ${words}`)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove from Line' })).toBeNull());
    expect(panel().getByRole('list', { name: 'Terminals and Routers' }).textContent).toContain('KIT00002');
  });

  it('assigns a router configuration and reboots the router, each confirmed, each a toast', async () => {
    const { user, panel, bodies } = await openSettings();
    const routers = () => panel().getByRole('list', { name: 'Routers of KIT00001' });
    expect(routers().textContent).toContain('Bridge router · Account default');
    await user.click(panel().getByRole('button', { name: 'Configure router Bridge router' }));
    const config = dialog('Router Configuration');
    await user.click(config.getByLabelText('Configuration').closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Guest Wi-Fi' }));
    await user.click(config.getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Router Configuration' })).toBeNull());
    expect(await screen.findByText(SERVICE_LINE_MESSAGES.routerConfigSet)).toBeTruthy();
    expect(routers().textContent).toContain('Bridge router · Guest Wi-Fi');

    await user.click(panel().getByRole('button', { name: 'Reboot router Bridge router' }));
    await user.click(dialog('Reboot Router').getByRole('button', { name: 'Reboot' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reboot Router' })).toBeNull());
    expect(await screen.findByText(SERVICE_LINE_MESSAGES.routerRebooted)).toBeTruthy();
    expect(bodies).toEqual([['PUT /api/v1/service-lines/AST-511274-31364-54/routers/Router-010000000001/config', { configId: 'rc-guest-wifi' }]]);
  });

  it("a Billing user's session sees Statements in the menu, and the line's settings without Deactivate or any change", async () => {
    const { panel, user } = await openSettings({ profile: profileWithRoles('billing') });
    const menu = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(menu.queryByRole('button', { name: 'Alerts' })).toBeNull();
    await user.click(menu.getByRole('button', { name: 'Billing' }));
    expect(menu.getByRole('link', { name: 'Statements' })).toBeTruthy();
    const p = panel();
    expect(field(p, 'Name')).toBe('North yard');
    expect(p.queryByRole('button', { name: 'Deactivate Service Line' })).toBeNull();
    expect(p.queryAllByRole('button')).toEqual([]);
  });

  it('Support (terminals:manage, no lifecycle) may rename the line and configure routers, not deactivate, top up or reboot', async () => {
    const { panel } = await openSettings({ profile: profileWithRoles('support') });
    const p = panel();
    expect(p.getByRole('button', { name: 'Rename' })).toBeTruthy();
    expect(p.getByRole('button', { name: 'Enable Public IP' })).toBeTruthy();
    for (const name of ['Deactivate Service Line', 'Buy Top-Up', 'Turn On Priority Data', 'Change Recurring Blocks']) expect(p.queryByRole('button', { name })).toBeNull();
    expect(p.queryByRole('button', { name: /^Reboot router/ })).toBeNull();
    expect(p.getAllByRole('button', { name: /^Configure router/ }).length).toBeGreaterThan(0);
  });

  it('is read-only for a user whose roles change neither terminals nor the lifecycle: the settings, no action', async () => {
    const { panel } = await openSettings({ profile: userProfile });
    const p = panel();
    expect(field(p, 'Name')).toBe('North yard');
    expect(field(p, 'Left This Cycle')).toBe('9 blocks');
    expect(p.queryAllByRole('button')).toEqual([]);
    expect(p.getByText(LINE_SETTINGS_TEXTS.readOnly)).toBeTruthy();
  });
});
