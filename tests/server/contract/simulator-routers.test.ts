// Routers and device configuration in the simulator, over real HTTP, every request and answer held
// to the contract (the project's own, or the provider's published document in
// `npm run test:provider-contract`): routers read and rebooted; router configs created, replaced,
// assigned (and seen on the routers of GET /user-terminals) and the account's default for new
// routers; TLS certificates; local content files; sandbox clients and heartbeats; user terminal
// configs; L2VPN circuits; and the provider's refusals of each.
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../server/simulator/index';
import { LOCAL_CONTENT_MAX_BYTES, MAX_L2VPN_CIRCUITS_PER_POP, ROUTER_REBOOT_MS, routerStateOf } from '../../../server/simulator/routers';
import type { UserTerminalResponseV2 } from '../../../server/simulator/wire';
import { simulatorToken } from '../simulator-token';
import { expectFailure, simulatorPerTest } from './simulator-calls';
import { TEST_TLS } from './tls-fixture';

const START = Date.parse('2026-03-18T10:30:00.000Z');

const env = simulatorPerTest(new Date(START).toISOString(), { terminals: 1000 });
const { call, advance } = env;
let sim: RunningSimulator;
beforeEach(() => {
  sim = env.sim;
});

interface RouterSite {
  terminal: UserTerminalResponseV2;
  routerId: string;
  lineActive: boolean | null;
  online: boolean;
}

/** Every terminal on the account with a router: its line's state and whether it reports. */
function routerSites(): RouterSite[] {
  return sim.fleet.userTerminalIds().flatMap((id) => {
    const t = sim.fleet.terminalIndex(id)!;
    const terminal = sim.fleet.terminal(t);
    if (terminal.routers.length === 0) return [];
    const line = terminal.serviceLineNumber === null ? null : sim.fleet.serviceLine(terminal.serviceLineNumber)!;
    const online = env.nowMs - Date.parse(sim.fleet.telemetryAt(t).timestamp) <= 60_000;
    return [{ terminal, routerId: terminal.routers[0]!.routerId, lineActive: line?.active ?? null, online }];
  });
}

const site = (test: (s: RouterSite) => boolean) => {
  const found = routerSites().find(test);
  expect(found, 'the fleet has such a router site').toBeDefined();
  return found!;
};
const rebootable = () => site((s) => s.lineActive === true && s.online);

async function terminalRecord(userTerminalId: string): Promise<UserTerminalResponseV2> {
  const answer = await call('GET', `/public/v2/user-terminals?userTerminalIds=${userTerminalId}`);
  expect(answer.body.content.results).toHaveLength(1);
  return answer.body.content.results[0];
}

async function createConfig(body: object) {
  const answer = await call('POST', '/public/v2/routers/configs', body);
  expect(answer.status).toBe(201);
  return answer.body.content as { configId: string; nickname: string; routerConfigJson: string };
}

const WIFI = JSON.stringify({ wifi: { networks: [{ ssid: 'Camp Wi-Fi', security: 'WPA2' }] } });
const PAGE = '<!doctype html><html><head><title>Welcome aboard</title></head><body><h1>Welcome</h1></body></html>';

describe('routers', () => {
  it('reads a router as GET /user-terminals shows it, and answers 404 for one not on the account', async () => {
    const { terminal, routerId } = routerSites()[0]!;
    expect(routerId).toMatch(/^Router-0100000000000000[0-9A-F]{8}$/);
    const answer = await call('GET', `/public/v2/routers/${routerId}`);
    expect(answer.status).toBe(200);
    expect(answer.body.content).toEqual({ routerId, nickname: null, userTerminalId: terminal.userTerminalId, configId: null, hardwareVersion: null, lastBonded: null });
    expectFailure(await call('GET', '/public/v2/routers/Router-010000000000000000000000'), 404, /Router Router-010000000000000000000000 was not found/);
    expectFailure(await call('GET', '/public/v2/routers/010000000000000000012345'), 404, /not found/);
  });

  it('reboots a router whose dish is online on an active line, once until it is back', async () => {
    const { routerId } = rebootable();
    const first = await call('POST', `/public/v2/routers/${routerId}/reboot`);
    expect(first.status).toBe(200);
    expect(first.body.information).toEqual(['Reboot command sent']);
    expect(routerStateOf(sim.fleet)!.routerRebootedAt(routerId)).toBe(new Date(START).toISOString());
    expectFailure(await call('POST', `/public/v2/routers/${routerId}/reboot`), 422, /is already rebooting/);
    await advance(ROUTER_REBOOT_MS);
    expect((await call('POST', `/public/v2/routers/${routerId}/reboot`)).status).toBe(200);
  });

  it('refuses to reboot a router whose line is inactive, that is on no line, offline, or unknown', async () => {
    const inactive = site((s) => s.lineActive === false);
    expectFailure(await call('POST', `/public/v2/routers/${inactive.routerId}/reboot`), 422, new RegExp(`service line ${inactive.terminal.serviceLineNumber} of its user terminal is not active`));
    const offline = site((s) => s.lineActive === true && !s.online);
    expectFailure(await call('POST', `/public/v2/routers/${offline.routerId}/reboot`), 422, /is offline/);
    // Taken off its line, a rebootable router cannot be reached either.
    const { terminal, routerId } = rebootable();
    expect((await call('DELETE', `/public/v2/service-lines/${terminal.serviceLineNumber}/user-terminals/${terminal.userTerminalId}`)).status).toBe(200);
    expectFailure(await call('POST', `/public/v2/routers/${routerId}/reboot`), 422, /is on no service line/);
    expectFailure(await call('POST', '/public/v2/routers/Router-010000000000000000000000/reboot'), 404, /not found/);
    expect(routerStateOf(sim.fleet)!.routerRebootedAt(routerId)).toBeNull();
  });
});

describe('router configs', () => {
  it('creates a config that is listed and read back, and replaces it', async () => {
    expect((await call('GET', '/public/v2/routers/configs')).body.content).toMatchObject({ totalCount: 0, results: [], isLastPage: true });
    const config = await createConfig({ nickname: 'Camp', routerConfigJson: WIFI });
    expect(config).toEqual({ configId: expect.stringMatching(/^DVC_CFG-\d{8}$/), nickname: 'Camp', routerConfigJson: WIFI });
    const unnamed = await createConfig({ routerConfigJson: '{}' });
    expect(unnamed.nickname).toBe('');
    expect(unnamed.configId).not.toBe(config.configId);
    const listed = (await call('GET', '/public/v2/routers/configs')).body.content;
    expect(listed).toMatchObject({ totalCount: 2, pageIndex: 0, limit: 100, isLastPage: true });
    expect(listed.results).toEqual([config, unnamed]);
    expect((await call('GET', `/public/v2/routers/configs/${config.configId}`)).body.content).toEqual(config);

    const json = JSON.stringify({ wifi: { networks: [{ ssid: 'Camp Wi-Fi 2', security: 'WPA3' }] } });
    const replaced = await call('PUT', `/public/v2/routers/configs/${config.configId}`, { routerConfigJson: json });
    expect(replaced.status).toBe(200);
    // The nickname left out is kept.
    expect(replaced.body.content).toEqual({ configId: config.configId, nickname: 'Camp', routerConfigJson: json });
    const renamed = await call('PUT', `/public/v2/routers/configs/${config.configId}`, { nickname: 'Camp north', routerConfigJson: json });
    expect((await call('GET', `/public/v2/routers/configs/${config.configId}`)).body.content).toEqual(renamed.body.content);
    expect(renamed.body.content.nickname).toBe('Camp north');
  });

  it('answers 400 for a config that is not a JSON object or a nickname of 100 characters, and 404 for an unknown config', async () => {
    expectFailure(await call('POST', '/public/v2/routers/configs', { routerConfigJson: '{"wifi":' }), 400, /routerConfigJson is not valid JSON/);
    expectFailure(await call('POST', '/public/v2/routers/configs', { routerConfigJson: '[1, 2]' }), 400, /must be a JSON object/);
    expectFailure(await call('POST', '/public/v2/routers/configs', { nickname: 'x'.repeat(100), routerConfigJson: '{}' }, false), 400, /nickname/);
    expectFailure(await call('POST', '/public/v2/routers/configs', { nickname: 'No JSON' }, false), 400, /routerConfigJson/);
    expectFailure(await call('GET', '/public/v2/routers/configs/DVC_CFG-00000000'), 404, /Router config DVC_CFG-00000000 was not found/);
    expectFailure(await call('PUT', '/public/v2/routers/configs/DVC_CFG-00000000', { routerConfigJson: '{}' }), 404, /not found/);
    expect((await call('GET', '/public/v2/routers/configs')).body.content.totalCount).toBe(0);
  });

  it('refuses a config naming a local content file the account has not uploaded (422), and takes it once uploaded', async () => {
    const server = (fileContentId: string) => JSON.stringify({ httpsServer: { fileContentId, fileContentHash: 'x' } });
    expectFailure(await call('POST', '/public/v2/routers/configs', { routerConfigJson: server('missing-file') }), 422, /Local content file missing-file .* was not uploaded/);
    const uploaded = (await call('POST', '/public/v2/routers/local-content', { File: PAGE })).body.content;
    expect((await call('POST', '/public/v2/routers/configs', { routerConfigJson: server(uploaded.fileContentId) })).status).toBe(201);
  });

  it('assigns a config to routers, seen on GET /routers/{id} and GET /user-terminals, all or none, and takes it off', async () => {
    const config = await createConfig({ nickname: 'Camp', routerConfigJson: WIFI });
    const [one, two] = routerSites();
    const assigned = await call('PUT', '/public/v2/routers/configs/assign', { configId: config.configId, routerIds: [one!.routerId, two!.routerId] });
    expect(assigned.status).toBe(200);
    expect(assigned.body.information).toEqual([`Config ${config.configId} assigned to 2 router(s)`]);
    expect((await call('GET', `/public/v2/routers/${one!.routerId}`)).body.content.configId).toBe(config.configId);
    expect((await terminalRecord(two!.terminal.userTerminalId)).routers).toEqual([expect.objectContaining({ routerId: two!.routerId, configId: config.configId })]);

    // One unknown router or config: nothing changes.
    const other = await createConfig({ nickname: 'Other', routerConfigJson: '{}' });
    expectFailure(
      await call('PUT', '/public/v2/routers/configs/assign', { configId: other.configId, routerIds: [one!.routerId, 'Router-010000000000000000000000'] }),
      422,
      /Router Router-010000000000000000000000 was not found/,
    );
    expectFailure(await call('PUT', '/public/v2/routers/configs/assign', { configId: 'DVC_CFG-00000000', routerIds: [one!.routerId] }), 422, /Router config DVC_CFG-00000000 was not found/);
    expect((await call('GET', `/public/v2/routers/${one!.routerId}`)).body.content.configId).toBe(config.configId);
    expectFailure(await call('PUT', '/public/v2/routers/configs/assign', { configId: config.configId, routerIds: [] }, false), 400, /routerIds/);

    expect((await call('PUT', '/public/v2/routers/configs/assign', { configId: null, routerIds: [one!.routerId] })).status).toBe(200);
    expect((await call('GET', `/public/v2/routers/${one!.routerId}`)).body.content.configId).toBeNull();
    expect((await terminalRecord(two!.terminal.userTerminalId)).routers[0]!.configId).toBe(config.configId);
  });

  it("gives routers of kits added to the account the default config of that moment, and leaves the others", async () => {
    expect((await call('GET', '/public/v2/routers/configs/default')).body.content).toEqual({ configId: null });
    expectFailure(await call('PUT', '/public/v2/routers/configs/default', { configId: 'DVC_CFG-00000000' }), 422, /not found/);
    const first = await createConfig({ nickname: 'First', routerConfigJson: '{}' });
    const second = await createConfig({ nickname: 'Second', routerConfigJson: '{}' });

    /** Adds stock kits until one has a router; answers its user terminal id. */
    async function addKitWithRouter(): Promise<string> {
      for (const kit of sim.fleet.stockKitSerials()) {
        expect((await call('POST', '/public/v2/user-terminals', { deviceId: kit })).status).toBe(200);
        const terminal = sim.fleet.terminal(sim.fleet.terminalIndex(kit)!);
        if (terminal.routers.length > 0) return terminal.userTerminalId;
      }
      throw new Error('no stock kit has a router');
    }
    const before = await addKitWithRouter();
    expect((await call('PUT', '/public/v2/routers/configs/default', { configId: first.configId })).status).toBe(200);
    expect((await call('GET', '/public/v2/routers/configs/default')).body.content).toEqual({ configId: first.configId });
    const during = await addKitWithRouter();
    expect((await call('PUT', '/public/v2/routers/configs/default', { configId: second.configId })).status).toBe(200);
    const after = await addKitWithRouter();

    expect((await terminalRecord(before)).routers[0]!.configId).toBeNull();
    expect((await terminalRecord(during)).routers[0]!.configId).toBe(first.configId);
    expect((await terminalRecord(after)).routers[0]!.configId).toBe(second.configId);
    // Routers of the account as it was laid out are not new: no default for them.
    expect((await call('GET', `/public/v2/routers/${routerSites()[0]!.routerId}`)).body.content.configId).toBeNull();

    // An empty id clears the default (the document asks for one character at least, and says so).
    expect((await call('PUT', '/public/v2/routers/configs/default', { configId: '' }, false)).status).toBe(200);
    expect((await call('GET', '/public/v2/routers/configs/default')).body.content).toEqual({ configId: null });
    expect((await terminalRecord(after)).routers[0]!.configId).toBe(second.configId);
  });
});

describe('TLS configs', () => {
  it('adds a certificate with its key, lists it with its validity, refuses it twice, and deletes it once', async () => {
    expect((await call('GET', '/public/v2/routers/configs/tls')).body.content.totalCount).toBe(0);
    const created = await call('POST', '/public/v2/routers/configs/tls', TEST_TLS.a);
    expect(created.status).toBe(201);
    expect(created.body.content).toEqual({ configId: null });
    expect((await call('POST', '/public/v2/routers/configs/tls', TEST_TLS.b)).status).toBe(201);
    const listed = (await call('GET', '/public/v2/routers/configs/tls')).body.content;
    expect(listed.totalCount).toBe(2);
    expect(listed.results[0]).toEqual({ certificateBase64Pem: TEST_TLS.a.certificateBase64Pem, notBefore: '2026-11-25T03:51:31.000Z', notAfter: '2036-11-22T03:51:31.000Z' });
    expectFailure(await call('POST', '/public/v2/routers/configs/tls', TEST_TLS.a), 422, /certificates must be unique/);

    const deleted = await call('DELETE', '/public/v2/routers/configs/tls', { certificateBase64Pem: TEST_TLS.a.certificateBase64Pem });
    expect(deleted.status).toBe(200);
    expect((await call('GET', '/public/v2/routers/configs/tls')).body.content.results).toEqual([expect.objectContaining({ certificateBase64Pem: TEST_TLS.b.certificateBase64Pem })]);
    expectFailure(await call('DELETE', '/public/v2/routers/configs/tls', { certificateBase64Pem: TEST_TLS.a.certificateBase64Pem }), 422, /No TLS config with this certificate/);
    expectFailure(await call('DELETE', '/public/v2/routers/configs/tls', {}, false), 400, /certificateBase64Pem/);
  });

  it("refuses a key that is not the certificate's (422) and what is not a base64 PEM (400)", async () => {
    expectFailure(await call('POST', '/public/v2/routers/configs/tls', { ...TEST_TLS.a, keyBase64Pem: TEST_TLS.b.keyBase64Pem }), 422, /key does not match/);
    const garbage = Buffer.from('not a certificate').toString('base64');
    expectFailure(await call('POST', '/public/v2/routers/configs/tls', { ...TEST_TLS.a, certificateBase64Pem: garbage }), 400, /certificateBase64Pem is not a base64-encoded PEM certificate/);
    const badPem = Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n').toString('base64');
    expectFailure(await call('POST', '/public/v2/routers/configs/tls', { ...TEST_TLS.a, certificateBase64Pem: badPem }), 400, /not a valid X.509 certificate/);
    expectFailure(await call('POST', '/public/v2/routers/configs/tls', { ...TEST_TLS.a, keyBase64Pem: TEST_TLS.a.certificateBase64Pem }), 400, /keyBase64Pem is not a valid private key/);
    expect((await call('GET', '/public/v2/routers/configs/tls')).body.content.totalCount).toBe(0);
  });
});

describe('local content', () => {
  it('takes an HTML file, answers its id and MD5 hash, and lists it with its upload date', async () => {
    expect((await call('GET', '/public/v2/routers/local-content')).body.content).toEqual([]);
    const answer = await call('POST', '/public/v2/routers/local-content', { File: PAGE });
    expect(answer.status).toBe(201);
    const file = answer.body.content;
    expect(file).toEqual({
      nickname: 'welcome-aboard.html',
      fileContentId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      fileContentHash: createHash('md5').update(PAGE).digest('hex'),
    });
    await advance(60_000);
    const second = (await call('POST', '/public/v2/routers/local-content', { File: '<p>Plain page</p>' })).body.content;
    expect(second.nickname).toBe('local-content-2.html');
    expect((await call('GET', '/public/v2/routers/local-content')).body.content).toEqual([
      { ...file, uploadDate: new Date(START).toISOString() },
      { ...second, uploadDate: new Date(START + 60_000).toISOString() },
    ]);
  });

  it('refuses a file that is not HTML or is 4 MB or more (422), and a body without a file (400)', async () => {
    expectFailure(await call('POST', '/public/v2/routers/local-content', { File: 'just text, no markup' }), 422, /File must be HTML/);
    const big = `<html><body>${'x'.repeat(LOCAL_CONTENT_MAX_BYTES)}</body></html>`;
    expectFailure(await call('POST', '/public/v2/routers/local-content', { File: big }), 422, /File must be under 4 MB/);
    expectFailure(await call('POST', '/public/v2/routers/local-content', {}, false), 400, /File/);
    expect((await call('GET', '/public/v2/routers/local-content')).body.content).toEqual([]);
  });
});

describe('router sandbox', () => {
  const inHours = (hours: number) => new Date(env.nowMs + hours * 3_600_000).toISOString();

  it('lets clients out until their expiry, by sandbox, the latest expiry of a client named twice, and sandboxes them again', async () => {
    const update = await call('POST', '/public/v2/routers/sandbox/clients', [
      { clientId: 'aa:bb:cc:00:00:01', sandboxId: 7, expiry: inHours(1) },
      { clientId: 'aa:bb:cc:00:00:02', sandboxId: 7, expiry: inHours(5) },
      { clientId: 'aa:bb:cc:00:00:01', sandboxId: 7, expiry: inHours(3) },
      { clientId: 'aa:bb:cc:00:00:01', sandboxId: 8, expiry: inHours(2) },
      { clientId: 'aa:bb:cc:00:00:03', sandboxId: 8, expiry: inHours(-1) },
    ]);
    expect(update.status).toBe(200);
    const all = (await call('GET', '/public/v2/routers/sandbox/clients')).body.content;
    expect(all).toMatchObject({ totalCount: 3, limit: 1000, isLastPage: true });
    expect(all.results).toEqual([
      { clientId: 'aa:bb:cc:00:00:01', sandboxId: 7, expiry: inHours(3) },
      { clientId: 'aa:bb:cc:00:00:02', sandboxId: 7, expiry: inHours(5) },
      { clientId: 'aa:bb:cc:00:00:01', sandboxId: 8, expiry: inHours(2) },
    ]);
    expect((await call('GET', '/public/v2/routers/sandbox/clients?sandboxId=8')).body.content.results).toEqual([{ clientId: 'aa:bb:cc:00:00:01', sandboxId: 8, expiry: inHours(2) }]);
    const later = (await call('GET', `/public/v2/routers/sandbox/clients?expiryAfter=${encodeURIComponent(inHours(4))}`)).body.content;
    expect(later.results.map((c: { clientId: string }) => c.clientId)).toEqual(['aa:bb:cc:00:00:02']);

    // A past expiry puts a client back in its sandbox; time does the same for the rest.
    expect((await call('POST', '/public/v2/routers/sandbox/clients', [{ clientId: 'aa:bb:cc:00:00:02', sandboxId: 7, expiry: inHours(-1) }])).status).toBe(200);
    await advance(2.5 * 3_600_000);
    expect((await call('GET', '/public/v2/routers/sandbox/clients')).body.content.results).toEqual([expect.objectContaining({ clientId: 'aa:bb:cc:00:00:01', sandboxId: 7 })]);
  });

  it('answers 400 for a bad expiry, an empty batch or a bad filter', async () => {
    expectFailure(await call('POST', '/public/v2/routers/sandbox/clients', [{ clientId: 'c1', sandboxId: 1, expiry: 'tomorrow' }], false), 400, /expiry/);
    expectFailure(await call('POST', '/public/v2/routers/sandbox/clients', [], false), 400, /body/);
    expectFailure(await call('POST', '/public/v2/routers/sandbox/clients', [{ clientId: '', sandboxId: 1, expiry: inHours(1) }], false), 400, /clientId/);
    expectFailure(await call('GET', '/public/v2/routers/sandbox/clients?sandboxId=seven', undefined, false), 400, /sandboxId/);
    expectFailure(await call('GET', '/public/v2/routers/sandbox/clients?expiryAfter=soon', undefined, false), 400, /expiryAfter/);
  });

  it('records heartbeats, healthy or not', async () => {
    expect(routerStateOf(sim.fleet)!.lastHeartbeat()).toBeNull();
    expect((await call('PUT', '/public/v2/routers/sandbox/heartbeat', { healthy: true })).status).toBe(200);
    await advance(30_000);
    expect((await call('PUT', '/public/v2/routers/sandbox/heartbeat', { healthy: false })).status).toBe(200);
    expect(routerStateOf(sim.fleet)!.lastHeartbeat()).toEqual({ healthy: false, at: new Date(START + 30_000).toISOString() });
    expectFailure(await call('PUT', '/public/v2/routers/sandbox/heartbeat', {}, false), 400, /healthy/);
  });
});

describe('user terminal configs', () => {
  it("assigns one of the account's terminal configs to terminals, all or none, and takes it off", async () => {
    const state = routerStateOf(sim.fleet)!;
    const [config] = state.terminalConfigIds();
    expect(config).toMatch(/^DVC_CFG-\d{8}$/);
    const [one, two] = sim.fleet.userTerminalIds();
    const assigned = await call('PUT', '/public/v2/user-terminals/configs/assign', { configId: config, userTerminalIds: [one, two] });
    expect(assigned.status).toBe(200);
    expect(state.terminalConfigOf(one!)).toBe(config);
    expect(state.terminalConfigOf(two!)).toBe(config);

    // The document answers 403 when a terminal or config is not on the account.
    const unknownTerminal = '00020000-00000000-00000000';
    expectFailure(await call('PUT', '/public/v2/user-terminals/configs/assign', { configId: null, userTerminalIds: [one, unknownTerminal] }), 403, /User terminal 00020000-00000000-00000000 is not on this account/);
    expect(state.terminalConfigOf(one!)).toBe(config);
    expectFailure(await call('PUT', '/public/v2/user-terminals/configs/assign', { configId: 'DVC_CFG-00000000', userTerminalIds: [one] }), 403, /Config DVC_CFG-00000000 is not on this account/);
    const routerConfig = await createConfig({ nickname: 'Router', routerConfigJson: '{}' });
    expectFailure(await call('PUT', '/public/v2/user-terminals/configs/assign', { configId: routerConfig.configId, userTerminalIds: [one] }), 422, /is a router config, not a user terminal config/);
    expectFailure(await call('PUT', '/public/v2/user-terminals/configs/assign', { configId: config, userTerminalIds: [] }, false), 400, /userTerminalIds/);

    expect((await call('PUT', '/public/v2/user-terminals/configs/assign', { configId: null, userTerminalIds: [one] })).status).toBe(200);
    expect(state.terminalConfigOf(one!)).toBeNull();
    expect(state.terminalConfigOf(two!)).toBe(config);
  });
});

describe('L2VPN', () => {
  /** A terminal on an active line whose plan allows L2VPN (Priority, with an SLA). */
  function l2VpnTerminal(): string {
    const line = sim.fleet.examples().priorityServiceLineNumber!;
    return sim.fleet.terminal(sim.fleet.userTerminals({ serviceLineNumbers: [line] }).at(0)).userTerminalId;
  }

  async function circuits(): Promise<{ circuitId: string; circuitIds: string[]; popName: string }[]> {
    const answer = await call('GET', '/public/v2/user-terminals/l2vpn');
    expect(answer.status).toBe(200);
    return answer.body.content;
  }

  it("lists the account's circuit groups, sets a terminal's circuits and VLANs as GET /user-terminals shows them, and clears them", async () => {
    const groups = await circuits();
    expect(groups).toHaveLength(4);
    for (const group of groups) expect(group.circuitId).toBe(group.circuitIds[0]);
    const pair = groups.find((g) => g.circuitIds.length === 2)!;
    const single = groups.find((g) => g.circuitIds.length === 1)!;
    const terminal = l2VpnTerminal();
    expect((await terminalRecord(terminal)).l2VpnCircuits).toEqual([]);

    const set = await call('PUT', `/public/v2/user-terminals/${terminal}/l2vpn`, [
      { circuitIds: single.circuitIds, customerVlans: [100, 101], serviceVlan: 20 },
      { circuitIds: pair.circuitIds, customerVlans: [200], serviceVlan: 0, customerVlanRemap: 300 },
    ]);
    expect(set.status).toBe(200);
    expect((await terminalRecord(terminal)).l2VpnCircuits).toEqual([
      { circuitId: single.circuitIds[0], circuitIds: single.circuitIds, customerVlans: [100, 101], serviceVlan: 20, customerVlanRemap: null },
      { circuitId: pair.circuitIds[0], circuitIds: pair.circuitIds, customerVlans: [200], serviceVlan: null, customerVlanRemap: 300 },
    ]);

    expect((await call('PUT', `/public/v2/user-terminals/${terminal}/l2vpn`, [])).status).toBe(200);
    expect((await terminalRecord(terminal)).l2VpnCircuits).toEqual([]);
  });

  it('refuses more than two circuits at one PoP, half a redundant group, an unknown circuit and a VLAN used twice (422), keeping what was set', async () => {
    const groups = await circuits();
    const pair = groups.find((g) => g.circuitIds.length === 2)!;
    const singles = groups.filter((g) => g.circuitIds.length === 1);
    expect(new Set(singles.map((g) => g.popName)).size).toBe(1);
    const terminal = l2VpnTerminal();
    const path = `/public/v2/user-terminals/${terminal}/l2vpn`;
    expect((await call('PUT', path, [{ circuitIds: singles[0]!.circuitIds, customerVlans: [10] }])).status).toBe(200);

    expectFailure(
      await call('PUT', path, singles.map((g, k) => ({ circuitIds: g.circuitIds, customerVlans: [k + 1] }))),
      422,
      new RegExp(`At most ${MAX_L2VPN_CIRCUITS_PER_POP} circuits per Starlink PoP \\(${singles[0]!.popName}\\)`),
    );
    expectFailure(await call('PUT', path, [{ circuitIds: [pair.circuitIds[0]], customerVlans: [1] }]), 422, /are not one circuit group/);
    expectFailure(await call('PUT', path, [{ circuitIds: ['CIRCUIT-00000000'], customerVlans: [1] }]), 422, /Circuit CIRCUIT-00000000 is not available/);
    expectFailure(
      await call('PUT', path, [
        { circuitIds: singles[0]!.circuitIds, customerVlans: [5] },
        { circuitIds: pair.circuitIds, customerVlans: [5] },
      ]),
      422,
      /Customer VLAN 5 is used twice/,
    );
    expect((await terminalRecord(terminal)).l2VpnCircuits).toEqual([expect.objectContaining({ circuitIds: singles[0]!.circuitIds, customerVlans: [10] })]);
  });

  it('answers 400 for VLANs out of range or a remap of several VLANs, 404 for an unknown terminal, 422 off an L2VPN plan', async () => {
    const [single] = await circuits();
    const terminal = l2VpnTerminal();
    const path = `/public/v2/user-terminals/${terminal}/l2vpn`;
    expectFailure(await call('PUT', path, [{ circuitIds: single!.circuitIds, customerVlans: [5000] }], false), 400, /customerVlans/);
    expectFailure(await call('PUT', path, [{ circuitIds: single!.circuitIds, customerVlans: [1, 2], customerVlanRemap: 7 }]), 400, /customerVlanRemap needs exactly one customer VLAN/);
    expectFailure(await call('PUT', path, [{ circuitId: single!.circuitId, circuitIds: single!.circuitIds, customerVlans: [1] }]), 400, /mutually exclusive/);
    expectFailure(await call('PUT', '/public/v2/user-terminals/00020000-00000000-00000000/l2vpn', [{ circuitIds: single!.circuitIds, customerVlans: [1] }]), 404, /not found/);
    // The known line is on a metered plan, without an SLA.
    const metered = sim.fleet.knownUserTerminalId;
    expectFailure(await call('PUT', `/public/v2/user-terminals/${metered}/l2vpn`, [{ circuitIds: single!.circuitIds, customerVlans: [1] }]), 422, /does not allow L2VPN/);
    // The deprecated single circuitId still names a circuit.
    expect((await call('PUT', path, [{ circuitId: single!.circuitId, circuitIds: [], customerVlans: [1] }])).status).toBe(200);
  });
});

describe('the gate in front of /public/v2', () => {
  it('holds the router routes too: injected faults, then the bearer token', async () => {
    const url = `${sim.baseUrl}/public/v2/routers/configs`;
    sim.setFaults({ rate5xx: 1 });
    const faulted = await fetch(url, { headers: { authorization: `Bearer ${await simulatorToken(sim)}` } });
    expect([500, 502, 503]).toContain(faulted.status);
    sim.setFaults({ rate5xx: 0 });
    expect((await fetch(url)).status).toBe(401);
    expect((await call('GET', '/public/v2/routers/configs')).status).toBe(200);
  });
});
