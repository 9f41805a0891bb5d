// The fleet map (/terminals/map) through the whole client (composition root, router, session, the
// fleet map machine, the page) against a fake of the portal API at the fetch seam: pins and
// clusters, their colours, the terminals without a location, the filters, a pin's link and a
// failed load tried again.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONDITION_COLOURS, FLEET_MAP_TEXTS as T } from '../../src/domain/fleet-map';
import type { ProviderAccountRef } from '../../src/domain/provider-accounts';
import { type FleetMapWire } from '../../src/domain/telemetry-history';
import { TERMINAL_CONDITIONS, type TerminalCondition } from '../../src/domain/terminals';
import { adminProfile } from '../machines/fixtures';
import { openSignedInAt } from './open-app';
import { fleetMapWire, type LocatedTerminal } from '../fixtures/fleet-map';

const NORTHWIND = '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f';

interface Located extends LocatedTerminal {
  customer?: string;
  account?: number;
}

const at = (id: string, latitude: number, longitude: number, condition: TerminalCondition, extra: Partial<Located> = {}): Located => ({ id, latitude, longitude, condition, ...extra });

/** Ten terminals in Rotterdam's port (Northwind's, under the second account), and five alone on other continents. */
const PORT = Array.from({ length: 10 }, (_, i) => at(`UT-PORT-${i}`, 51.9 + (i % 5) * 0.02, 4.4 + Math.floor(i / 5) * 0.03, TERMINAL_CONDITIONS[i % 4]!, { customer: NORTHWIND, account: 2 }));
const SPREAD = [at('UT-ANC', 61.2, -149.9, 'active'), at('UT-SYD', -33.87, 151.2, 'warning'), at('UT-BUE', -34.6, -58.4, 'maintenance'), at('UT-NBO', -1.29, 36.82, 'inactive'), at('UT-TYO', 35.68, 139.69, 'active')];
const FLEET = [...PORT, ...SPREAD];
/** Sent among the located by mistake: the map counts it as without a location. */
const AT_ZERO = at('UT-ZERO', 0, 0, 'warning');
const UNLOCATED = [
  { userTerminalId: 'UT-SHIP-1', nickname: 'Aurora', serviceLineNumber: 'AST-100001-20000-11', condition: 'active' as const },
  { userTerminalId: 'UT-SHIP-2', nickname: null, serviceLineNumber: null, condition: 'inactive' as const },
];

function answer(located: Located[], unlocatedTotal: number): FleetMapWire {
  return fleetMapWire(located, { total: unlocatedTotal, terminals: UNLOCATED });
}

interface FakeOptions {
  /** What GET /fleet/map answers, one entry per call (the last repeats): 'ok' or a failure's status. */
  map?: Array<'ok' | 500>;
  accounts?: ProviderAccountRef[];
  /** The located terminals (the port, the five alone and one at 0,0 unless told). */
  fleet?: Located[];
}

function fakePortalApi({ map = ['ok'], accounts = [{ id: 1, name: 'Demo US' }], fleet = [...FLEET, AT_ZERO] }: FakeOptions = {}) {
  const calls: string[] = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown) => json(200, { success: true, message: 'ok', data });
  const fail = (status: number, message: string) => json(status, { success: false, message });
  let mapCalls = 0;

  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call = `${init?.method ?? 'GET'} ${url.pathname}`;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    calls.push(`${call}${url.search}`);
    if (new Headers(init?.headers).get('authorization') !== 'Bearer admin-token') return fail(401, 'Invalid or expired token');

    if (call === 'GET /api/v1/auth/me') return ok({ user: adminProfile });
    if (call === 'GET /api/v1/provider-accounts/refs') return ok(accounts);
    if (call === 'GET /api/v1/customers') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const customers = [
        { uuid: NORTHWIND, email: 'ops@northwind.example', name: 'Northwind Shipping', company: 'Northwind', isActive: true },
        { uuid: '0b7c1e52-1111-4222-8333-444455556666', email: 'it@acme.example', name: 'Acme Maritime', company: 'Acme', isActive: true },
      ].filter((c) => c.name.toLowerCase().includes(search));
      return ok({ customers, pagination: { total: customers.length, page: 1, limit: 20, pages: 1 } });
    }
    if (call === 'GET /api/v1/fleet/map') {
      const next = map[Math.min(mapCalls, map.length - 1)]!;
      mapCalls += 1;
      if (next !== 'ok') return fail(next, 'Database unavailable');
      const q = url.searchParams;
      const located = fleet.filter(
        (t) =>
          (!q.get('status') || t.condition === q.get('status')) &&
          (!q.get('customer_id') || t.customer === q.get('customer_id')) &&
          (!q.get('account_id') || String(t.account ?? 1) === q.get('account_id')),
      );
      return ok(answer(located, 2));
    }
    return fail(404, `Route not found: ${call}`);
  });
  return { fetch, calls, mapCalls: () => calls.filter((c) => c.startsWith('GET /api/v1/fleet/map')) };
}

function openMap(path = '/terminals/map', options: FakeOptions = {}) {
  const api = fakePortalApi(options);
  return { ...openSignedInAt(path, api.fetch), api };
}

const theMap = () => screen.getByRole('group', { name: T.mapLabel });
const pins = () => within(theMap()).queryAllByRole('link');
const clusters = () => within(theMap()).queryAllByRole('button');
/** How many terminals a cluster stands for, from its name ("10 terminals: …"). */
const countOf = (cluster: HTMLElement) => Number(/^([\d,]+) terminals?:/.exec(cluster.getAttribute('aria-label') ?? '')![1]!.replace(/,/g, ''));
const shownTotal = () => pins().length + clusters().reduce((sum, c) => sum + countOf(c), 0);
const zoom = () => Number(theMap().getAttribute('data-zoom'));

async function loaded(placed: number) {
  await screen.findByText(new RegExp(`^${placed} terminals? on the map`), {}, { timeout: 5000 });
}

async function pick(user: ReturnType<typeof openMap>['user'], label: string, option: string) {
  await user.click((screen.getByLabelText(label) as HTMLElement).closest('.p-dropdown')!);
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('the fleet map', () => {
  it('places a pin for each lone terminal and one cluster for the crowded port: every located terminal once', async () => {
    openMap();
    await loaded(15);
    expect(screen.getByRole('heading', { level: 1, name: 'Fleet map' })).toBeTruthy();
    // Spread over the world, the fleet opens on the whole of it.
    expect(zoom()).toBe(0);
    expect(pins().map((p) => p.getAttribute('aria-label')).sort()).toEqual(['UT-ANC, Active', 'UT-BUE, Maintenance', 'UT-NBO, Inactive', 'UT-SYD, Warning', 'UT-TYO, Active']);
    expect(clusters().map((c) => c.getAttribute('aria-label'))).toEqual(['10 terminals: 3 active, 3 warning, 2 maintenance, 2 inactive. Zoom in']);
    expect(shownTotal()).toBe(15);
    // The legend counts what is on the map.
    expect(within(screen.getByRole('list', { name: T.legend })).getByText('Active').parentElement?.textContent).toBe('Active 5');
  });

  it('colours and shapes each pin by its status, and rings a cluster with the colours of its statuses', async () => {
    openMap();
    await loaded(15);
    for (const pin of pins()) {
      const condition = pin.getAttribute('aria-label')!.split(', ')[1]!.toLowerCase() as TerminalCondition;
      const mark = pin.querySelector(`[data-condition="${condition}"]`) as SVGElement;
      // A ring (inactive) is drawn in its colour, unfilled; the others are filled with theirs.
      expect(condition === 'inactive' ? mark.style.stroke : mark.style.fill).toBe(CONDITION_COLOURS[condition]);
    }
    const ring = [...clusters()[0]!.querySelectorAll('circle[data-condition]')] as SVGElement[];
    expect(ring.map((arc) => [arc.getAttribute('data-condition'), arc.style.stroke])).toEqual(TERMINAL_CONDITIONS.map((c) => [c, CONDITION_COLOURS[c]]));
  });

  it('lists the terminals without a location below the map, counting one sent at 0,0 among them and drawing none there', async () => {
    openMap();
    await loaded(15);
    const section = screen.getByRole('region', { name: '3 terminals have no location' });
    expect(within(section).getByRole('link', { name: 'Aurora' }).getAttribute('href')).toBe('/terminals?terminal=UT-SHIP-1');
    expect(within(section).getByRole('link', { name: 'UT-SHIP-2' })).toBeTruthy();
    expect(within(section).getByText(/AST-100001-20000-11/)).toBeTruthy();
    expect(within(theMap()).queryByRole('link', { name: /UT-ZERO/ })).toBeNull();
    expect(screen.getByText('15 terminals on the map · 3 terminals have no location')).toBeTruthy();
  });

  it('a click on a pin opens the terminal on the terminals page', async () => {
    const { user, location } = openMap();
    await loaded(15);
    const sydney = within(theMap()).getByRole('link', { name: 'UT-SYD, Warning' });
    expect(sydney.getAttribute('href')).toBe('/terminals?terminal=UT-SYD');
    await user.click(sydney);
    await waitFor(() => expect(location()).toBe('/terminals?terminal=UT-SYD'));
  });

  it('a click on a cluster zooms in on it until its terminals part', async () => {
    const { user } = openMap();
    await loaded(15);
    await user.click(clusters()[0]!);
    await waitFor(() => expect(zoom()).toBeGreaterThan(0));
    // The port fills the view now: only its terminals are in it, each still counted once.
    expect(pins().length + clusters().length).toBeGreaterThan(1);
    expect(shownTotal()).toBe(10);
    expect(pins().every((p) => p.getAttribute('aria-label')!.startsWith('UT-PORT-'))).toBe(true);
  });

  it('terminals at one spot stay one cluster, which lists them when opened from the keyboard', async () => {
    const rig = ['UT-RIG-1', 'UT-RIG-2', 'UT-RIG-3'].map((id, i) => at(id, 57.5, 1.75, i === 0 ? 'maintenance' : 'active'));
    const { user, location } = openMap('/terminals/map', { fleet: rig });
    await loaded(3);
    const cluster = within(theMap()).getByRole('button', { name: '3 terminals: 2 active, 1 maintenance. List them' });
    cluster.focus();
    await user.keyboard('{Enter}');
    const list = await screen.findByRole('region', { name: '3 terminals at one spot' });
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(['UT-RIG-1', 'UT-RIG-2', 'UT-RIG-3']);
    await user.click(within(list).getByRole('link', { name: 'UT-RIG-2' }));
    await waitFor(() => expect(location()).toBe('/terminals?terminal=UT-RIG-2'));
  });

  it('zooms with the buttons and the wheel, within limits', async () => {
    const { user } = openMap();
    await loaded(15);
    expect((screen.getByRole('button', { name: T.zoomOut }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: T.zoomIn }));
    expect(zoom()).toBe(1);
    fireEvent.wheel(theMap(), { deltaY: 120 });
    expect(zoom()).toBe(0);
    fireEvent.wheel(theMap(), { deltaY: -120 });
    fireEvent.wheel(theMap(), { deltaY: -120 });
    expect(zoom()).toBe(2);
    await user.click(screen.getByRole('button', { name: T.resetView }));
    expect(zoom()).toBe(0);
    // Every terminal is still on the map, once.
    expect(shownTotal()).toBe(15);
  });

  it('loads again for a status, a provider account and a customer, each kept in the address', async () => {
    const { user, api, location } = openMap('/terminals/map', { accounts: [{ id: 1, name: 'Demo US' }, { id: 2, name: 'Demo Brasil' }] });
    await loaded(15);

    await pick(user, T.statusFilter, 'Warning');
    await waitFor(() => expect(location()).toBe('/terminals/map?status=warning'));
    await loaded(4);
    expect(api.mapCalls().at(-1)).toBe('GET /api/v1/fleet/map?status=warning');
    expect(shownTotal()).toBe(4);

    await pick(user, T.statusFilter, T.allStatuses);
    await loaded(15);
    expect(api.mapCalls().at(-1)).toBe('GET /api/v1/fleet/map');

    await pick(user, 'Account', 'Demo Brasil');
    await loaded(10);
    expect(api.mapCalls().at(-1)).toBe('GET /api/v1/fleet/map?account_id=2');
    // One account's fleet, all in the port: the view fits it.
    expect(zoom()).toBeGreaterThan(0);

    await pick(user, T.customerFilter, 'Northwind Shipping');
    await waitFor(() => expect(api.mapCalls().at(-1)).toBe(`GET /api/v1/fleet/map?customer_id=${NORTHWIND}&account_id=2`));
    expect(location()).toContain(`customer=${NORTHWIND}`);
    await loaded(10);
  });

  it('a link with the filter in its address opens the map filtered, leaving out what it cannot read', async () => {
    const { api } = openMap(`/terminals/map?status=maintenance&account=0&customer=acme`);
    await loaded(3);
    expect(api.mapCalls()).toEqual(['GET /api/v1/fleet/map?status=maintenance']);
    expect((screen.getByLabelText(T.statusFilter) as HTMLInputElement).value).toBe('Maintenance');
  });

  it('a failed load shows why with Try Again, which loads the map', async () => {
    const { user, api } = openMap('/terminals/map', { map: [500, 'ok'] });
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(within(alert).getByText(T.loadError)).toBeTruthy();
    expect(within(alert).getByText('Database unavailable')).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await loaded(15);
    expect(api.mapCalls()).toHaveLength(2);
    expect(shownTotal()).toBe(15);
  });
});
