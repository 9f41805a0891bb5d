// Routers and device configuration in the simulator: router configs (created, replaced, assigned
// to routers, the account's default for new routers), TLS certificates router configs may name,
// local content files routers host, router sandbox clients and heartbeats, router reboots, user
// terminal configs and L2VPN circuits. The state lives here, one per fleet; the fleet's routers
// (which terminal has one, by the generator) and what GET /user-terminals shows of this state
// (`routers[].configId`, `l2VpnCircuits`) go through the fleet's `devices` hook.
//
// Deterministic: ids are seeded from the fleet's seed and counted, so the same requests make the
// same ids. Nothing exists at first but what the API cannot create: the account's user terminal
// configs (made on the provider's website; `routerStateOf(fleet).terminalConfigIds()` names them)
// and the L2VPN circuits the provider set up for the account.
//
// Simulator rules beyond the published document (which gives only the shapes and "422 when it
// fails"): a router reboots only when its dish is online on an active line, and not again while it
// is rebooting; a router config's JSON must be an object, and any `fileContentId` in it must be an
// uploaded file; a TLS key must match its certificate; L2VPN needs a line whose plan has an SLA.
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { providerOperations as op, PAGE_SIZE, type ProviderOperation } from '../provider/operations';
import type { Fleet, IndexList } from './fleet/index';
import { parseBody, stringParam, intParam, WireError, type Query } from './params';
import { decimalPermutation, digits, draw, hashString, hex, mix } from './random';
import type { Simulator } from './runtime';
import { done, ok, type L2VpnCircuitDefinition, type Paginated, type RouterResponseV2 } from './wire';

// ---- Wire records ------------------------------------------------------------------------------

export interface RouterConfigResponseV2 {
  configId: string;
  nickname: string;
  routerConfigJson: string;
}

export interface TlsConfigResponseV2 {
  certificateBase64Pem: string;
  notBefore: string;
  notAfter: string;
}

export interface RouterLocalContentResponse {
  nickname: string;
  uploadDate: string;
  fileContentId: string;
  fileContentHash: string;
}

export interface SandboxClientResponse {
  clientId: string;
  sandboxId: number;
  expiry: string;
}

export interface L2VpnCircuitResponse {
  circuitId: string;
  circuitIds: string[];
  popName: string;
}

// ---- Limits ------------------------------------------------------------------------------------

/** A local content file must be under this many bytes (the provider's "under 4MB"). */
export const LOCAL_CONTENT_MAX_BYTES = 4 * 1024 * 1024;
/** A rebooting router refuses another reboot for this long. */
export const ROUTER_REBOOT_MS = 2 * 60_000;
/** The provider's limit on L2VPN circuits per Starlink PoP for one terminal. */
export const MAX_L2VPN_CIRCUITS_PER_POP = 2;
/** A terminal whose last report is older than this is offline (it reports every 15 s). */
const OFFLINE_AFTER_MS = 60_000;
/** Sandbox clients come 1000 a page. */
const SANDBOX_PAGE_SIZE = op.listSandboxClients.pageSize;

const TAG = { configs: 0x72636667, terminalConfigs: 0x75636667, l2vpn: 0x6c327670, content: 0x6c636e74 } as const;
const POPS = ['sttlwax1', 'lsancax1', 'dnvrcox1', 'chcgilx1', 'nwyynyx1', 'frntdeu1', 'lndngbr1', 'sydyaus1'] as const;

// ---- State -------------------------------------------------------------------------------------

export interface RouterState {
  /** The account's user terminal configs: made on the provider's website, never listed by the API. */
  terminalConfigIds(): string[];
  /** A terminal's assigned config: null none, undefined never assigned through the API. */
  terminalConfigOf(userTerminalId: string): string | null | undefined;
  /** The last sandbox heartbeat, or null before the first. */
  lastHeartbeat(): { healthy: boolean; at: string } | null;
  /** When a router was last rebooted through the API. */
  routerRebootedAt(routerId: string): string | null;
}

interface Store {
  now: () => Date;
  configs: RouterConfigResponseV2[];
  configById: Map<string, RouterConfigResponseV2>;
  /** Router id → config id (null: none) set by an assignment or the default when its kit was added. */
  assigned: Map<string, string | null>;
  defaultConfigId: string | null;
  tls: (TlsConfigResponseV2 & { keyBase64Pem: string })[];
  localContent: RouterLocalContentResponse[];
  /** `${sandboxId} ${clientId}` → the client and when its access ends. */
  sandbox: Map<string, { clientId: string; sandboxId: number; expiryMs: number }>;
  heartbeat: { healthy: boolean; atMs: number } | null;
  rebootedAt: Map<string, number>;
  terminalConfigIds: string[];
  /** Terminal index → its config (null: none). */
  terminalConfigs: Map<number, string | null>;
  circuits: L2VpnCircuitResponse[];
  /** Terminal index → its circuits. */
  l2vpn: Map<number, L2VpnCircuitDefinition[]>;
  configIdOf(k: number): string;
}

const stores = new WeakMap<Fleet, Store>();

/** The router state of a fleet whose simulator serves the router routes (for tests and demos). */
export function routerStateOf(fleet: Fleet): RouterState | undefined {
  const store = stores.get(fleet);
  if (!store) return undefined;
  return {
    terminalConfigIds: () => [...store.terminalConfigIds],
    terminalConfigOf: (userTerminalId) => {
      const t = fleet.terminalIndex(userTerminalId);
      return t === undefined ? undefined : store.terminalConfigs.get(t);
    },
    lastHeartbeat: () => (store.heartbeat ? { healthy: store.heartbeat.healthy, at: new Date(store.heartbeat.atMs).toISOString() } : null),
    routerRebootedAt: (routerId) => {
      const at = store.rebootedAt.get(routerId.trim().toUpperCase());
      return at === undefined ? null : new Date(at).toISOString();
    },
  };
}

function storeOf(fleet: Fleet, now: () => Date): Store {
  const existing = stores.get(fleet);
  if (existing) return existing;
  const seedKey = hashString(fleet.seed);
  // Config ids share one namespace: router configs count up from one end, terminal configs down from the other.
  const configCodes = decimalPermutation(8, mix(seedKey, TAG.configs));
  const configIdOf = (k: number) => `DVC_CFG-${digits(configCodes.forward(k), 8)}`;
  const store: Store = {
    now,
    configs: [],
    configById: new Map(),
    assigned: new Map(),
    defaultConfigId: null,
    tls: [],
    localContent: [],
    sandbox: new Map(),
    heartbeat: null,
    rebootedAt: new Map(),
    terminalConfigIds: [configIdOf(configCodes.modulus - 1), configIdOf(configCodes.modulus - 2)],
    terminalConfigs: new Map(),
    circuits: availableCircuits(seedKey),
    l2vpn: new Map(),
    configIdOf,
  };
  stores.set(fleet, store);
  fleet.devices.install({
    routerConfigId: (routerId, t) => {
      const assigned = store.assigned.get(routerId.toUpperCase());
      if (assigned !== undefined) return assigned;
      // Kits from stock joined the account after it was laid out: their routers took the default then.
      return t >= fleet.size ? store.defaultConfigId : null;
    },
    l2VpnCircuits: (t) => (store.l2vpn.get(t) ?? []).map((c) => ({ ...c, circuitIds: c.circuitIds ? [...c.circuitIds] : null, customerVlans: [...c.customerVlans] })),
  });
  return store;
}

/** The circuit groups the provider set up for the account: three single circuits at one PoP, a redundant pair at another. */
function availableCircuits(seedKey: number): L2VpnCircuitResponse[] {
  const d = draw(mix(seedKey, TAG.l2vpn));
  const first = d.pick(POPS);
  const second = d.pick(POPS.filter((pop) => pop !== first));
  const id = (k: number) => `CIRCUIT-${hex(mix(seedKey, TAG.l2vpn, k), 8).toUpperCase()}`;
  const group = (ids: string[], popName: string): L2VpnCircuitResponse => ({ circuitId: ids[0]!, circuitIds: ids, popName });
  return [group([id(1)], first), group([id(2)], first), group([id(3)], first), group([id(4), id(5)], second)];
}

// ---- Routes ------------------------------------------------------------------------------------

export interface RouterRoutesContext {
  api: FastifyInstance;
  sim: Simulator;
  /** The plugin's route of a table operation. */
  serve: (operation: ProviderOperation, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => unknown;
  /** The plugin's pager (it shuffles page order when that fault is on). */
  page: <T>(list: IndexList, pageIndex: number, limit: number, render: (index: number) => T) => Paginated<T>;
}

const refuse: (status: 400 | 403 | 404 | 422, message: string, memberNames?: string[]) => never = (status, message, memberNames = []) => {
  throw new WireError(status, message, memberNames);
};

const positions = (length: number): IndexList => ({ length, at: (k) => k });

/** The router and terminal configuration routes of the table, under the plugin's /public/v2 scope. */
export function registerRouterRoutes({ api, sim, serve, page }: RouterRoutesContext): void {
  const { fleet } = sim;
  const store = storeOf(fleet, sim.now);
  const nowMs = () => store.now().getTime();
  const iso = (ms: number) => new Date(ms).toISOString();

  // ---- Routers ----

  /** A router on the account by id, with its terminal's index. */
  function routerOf(routerId: string): { router: RouterResponseV2; t: number } {
    const t = fleet.devices.routerTerminal(routerId);
    const router = t === undefined ? undefined : fleet.terminal(t).routers.find((r) => r.routerId.toUpperCase() === routerId.trim().toUpperCase());
    if (t === undefined || !router) return refuse(404, `Router ${routerId} was not found on this account`, ['routerId']);
    return { router, t };
  }

  serve(op.getRouter, async (request) => {
    const { routerId } = request.params as { routerId: string };
    return ok(routerOf(routerId).router);
  });

  serve(op.rebootRouter, async (request) => {
    const { routerId } = request.params as { routerId: string };
    const { router, t } = routerOf(routerId);
    const terminal = fleet.terminal(t);
    if (terminal.serviceLineNumber === null) {
      refuse(422, `Router ${router.routerId} cannot be rebooted: its user terminal ${terminal.userTerminalId} is on no service line`, ['routerId']);
    }
    if (!fleet.serviceLine(terminal.serviceLineNumber!)?.active) {
      refuse(422, `Router ${router.routerId} cannot be rebooted: service line ${terminal.serviceLineNumber} of its user terminal is not active`, ['routerId']);
    }
    const now = nowMs();
    if (now - Date.parse(fleet.telemetryAt(t).timestamp) > OFFLINE_AFTER_MS) {
      refuse(422, `Router ${router.routerId} cannot be rebooted: its user terminal ${terminal.userTerminalId} is offline`, ['routerId']);
    }
    const key = router.routerId.toUpperCase();
    const last = store.rebootedAt.get(key);
    if (last !== undefined && now - last < ROUTER_REBOOT_MS) {
      refuse(422, `Router ${router.routerId} is already rebooting (since ${iso(last)})`, ['routerId']);
    }
    store.rebootedAt.set(key, now);
    return done(['Reboot command sent']);
  });

  // ---- Router configs ----

  const configOf = (configId: string) =>
    store.configById.get(configId.trim()) ?? refuse(404, `Router config ${configId} was not found on this account`, ['configId']);

  /** The config JSON as the provider checks it: an object, naming only uploaded local content files. */
  function checkConfigJson(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      refuse(400, 'routerConfigJson is not valid JSON', ['routerConfigJson']);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) refuse(400, 'routerConfigJson must be a JSON object', ['routerConfigJson']);
    const uploaded = new Set(store.localContent.map((f) => f.fileContentId));
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [name, inner] of Object.entries(value)) {
        if (/^fileContentId$/i.test(name) && typeof inner === 'string' && inner !== '' && !uploaded.has(inner)) {
          refuse(422, `Local content file ${inner} named in routerConfigJson was not uploaded to this account`, ['routerConfigJson']);
        }
        walk(inner);
      }
    };
    walk(parsed);
  }

  serve(op.listRouterConfigs, async (request) => {
    const pageIndex = intParam(request.query as Query, 'page', 0, 0);
    return ok(page(positions(store.configs.length), pageIndex, PAGE_SIZE, (k) => ({ ...store.configs[k]! })));
  });

  serve(op.createRouterConfig, async (request, reply) => {
    const body = parseBody(op.createRouterConfig.body, request.body);
    checkConfigJson(body.routerConfigJson);
    const k = store.configs.length;
    const config: RouterConfigResponseV2 = { configId: store.configIdOf(k), nickname: body.nickname?.trim() ?? '', routerConfigJson: body.routerConfigJson };
    store.configs.push(config);
    store.configById.set(config.configId, config);
    void reply.code(201);
    return ok({ ...config });
  });

  serve(op.getRouterConfig, async (request) => {
    const { configId } = request.params as { configId: string };
    return ok({ ...configOf(configId) });
  });

  serve(op.updateRouterConfig, async (request) => {
    const { configId } = request.params as { configId: string };
    const config = configOf(configId);
    const body = parseBody(op.updateRouterConfig.body, request.body);
    checkConfigJson(body.routerConfigJson);
    // A nickname left out keeps the config's name.
    if (body.nickname !== undefined && body.nickname !== null) config.nickname = body.nickname.trim();
    config.routerConfigJson = body.routerConfigJson;
    return ok({ ...config });
  });

  serve(op.assignRouterConfig, async (request) => {
    const body = parseBody(op.assignRouterConfig.body, request.body);
    const configId = body.configId?.trim() || null;
    if (configId !== null && !store.configById.has(configId)) refuse(422, `Router config ${configId} was not found on this account`, ['configId']);
    // All or nothing: every router is found before any is changed.
    const routers = body.routerIds.map((id) => {
      const t = fleet.devices.routerTerminal(id);
      const router = t === undefined ? undefined : fleet.terminal(t).routers.find((r) => r.routerId.toUpperCase() === id.trim().toUpperCase());
      return router ?? refuse(422, `Router ${id} was not found on this account`, ['routerIds']);
    });
    for (const router of routers) store.assigned.set(router.routerId.toUpperCase(), configId);
    const count = new Set(routers.map((r) => r.routerId)).size;
    return done([configId === null ? `Config removed from ${count} router(s)` : `Config ${configId} assigned to ${count} router(s)`]);
  });

  serve(op.getDefaultRouterConfig, async () => ok({ configId: store.defaultConfigId }));

  serve(op.setDefaultRouterConfig, async (request) => {
    const body = parseBody(op.setDefaultRouterConfig.body, request.body);
    const configId = body.configId.trim() || null;
    if (configId !== null && !store.configById.has(configId)) refuse(422, `Router config ${configId} was not found on this account`, ['configId']);
    // Routers of kits added under the old default keep it: the default is taken when a router joins.
    const terminals = fleet.userTerminals();
    for (let k = terminals.length - 1; k >= 0 && terminals.at(k) >= fleet.size; k--) {
      for (const router of fleet.terminal(terminals.at(k)).routers) {
        const id = router.routerId.toUpperCase();
        if (!store.assigned.has(id)) store.assigned.set(id, store.defaultConfigId);
      }
    }
    store.defaultConfigId = configId;
    return done([configId === null ? 'Default router config cleared' : `Default router config set to ${configId}`]);
  });

  // ---- TLS configs ----

  const decodePem = (base64: string, member: string, kind: string) => {
    const text = Buffer.from(base64.trim(), 'base64').toString('utf8');
    if (!text.includes('-----BEGIN ')) refuse(400, `${member} is not a base64-encoded PEM ${kind}`, [member]);
    return text;
  };

  serve(op.listTlsConfigs, async (request) => {
    const pageIndex = intParam(request.query as Query, 'page', 0, 0);
    return ok(
      page(positions(store.tls.length), pageIndex, PAGE_SIZE, (k) => {
        const { certificateBase64Pem, notBefore, notAfter } = store.tls[k]!;
        return { certificateBase64Pem, notBefore, notAfter };
      }),
    );
  });

  serve(op.createTlsConfig, async (request, reply) => {
    const body = parseBody(op.createTlsConfig.body, request.body);
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(decodePem(body.certificateBase64Pem, 'certificateBase64Pem', 'certificate'));
    } catch (error) {
      if (error instanceof WireError) throw error;
      return refuse(400, 'certificateBase64Pem is not a valid X.509 certificate', ['certificateBase64Pem']);
    }
    let key: ReturnType<typeof createPrivateKey>;
    try {
      key = createPrivateKey(decodePem(body.keyBase64Pem, 'keyBase64Pem', 'private key'));
    } catch (error) {
      if (error instanceof WireError) throw error;
      return refuse(400, 'keyBase64Pem is not a valid private key', ['keyBase64Pem']);
    }
    if (!certificate.checkPrivateKey(key)) refuse(422, "The key does not match the certificate's public key", ['keyBase64Pem']);
    const certificateBase64Pem = body.certificateBase64Pem.trim();
    if (store.tls.some((c) => c.certificateBase64Pem === certificateBase64Pem)) {
      refuse(422, 'A TLS config with this certificate already exists on the account: certificates must be unique', ['certificateBase64Pem']);
    }
    store.tls.push({
      certificateBase64Pem,
      keyBase64Pem: body.keyBase64Pem.trim(),
      notBefore: new Date(certificate.validFrom).toISOString(),
      notAfter: new Date(certificate.validTo).toISOString(),
    });
    void reply.code(201);
    // The document gives this create the DefaultRouterConfigResponse shape; a TLS config has no config id.
    return ok({ configId: null });
  });

  serve(op.deleteTlsConfig, async (request) => {
    const body = parseBody(op.deleteTlsConfig.body, request.body);
    const k = store.tls.findIndex((c) => c.certificateBase64Pem === body.certificateBase64Pem.trim());
    if (k < 0) refuse(422, 'No TLS config with this certificate is on the account', ['certificateBase64Pem']);
    store.tls.splice(k, 1);
    return done(['TLS config deleted']);
  });

  // ---- Local content ----

  serve(op.listLocalContent, async () => ok(store.localContent.map((f) => ({ ...f }))));

  // Its own route: a file of up to 4 MB (as JSON text) is over the server's usual body limit.
  api.route({
    method: op.uploadLocalContent.method,
    url: op.uploadLocalContent.path.replace(/^\/public\/v2/, ''),
    bodyLimit: 2 * LOCAL_CONTENT_MAX_BYTES + 64 * 1024,
    handler: async (request, reply) => {
      const { File: file } = parseBody(op.uploadLocalContent.body, request.body);
      if (Buffer.byteLength(file, 'utf8') >= LOCAL_CONTENT_MAX_BYTES) refuse(422, 'File must be under 4 MB', ['File']);
      if (!/<(!doctype\s+html|html|head|body|title|meta|div|p|h[1-6])[\s>/]/i.test(file)) refuse(422, 'File must be HTML', ['File']);
      const k = store.localContent.length;
      const fileContentHash = createHash('md5').update(file, 'utf8').digest('hex');
      const id = createHash('md5').update(`${fleet.seed}:${TAG.content}:${k}`).digest('hex');
      const title = /<title>([^<]{1,200})<\/title>/i.exec(file)?.[1]?.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
      const record: RouterLocalContentResponse = {
        nickname: title ? `${title}.html` : `local-content-${k + 1}.html`,
        uploadDate: iso(nowMs()),
        fileContentId: `${id.slice(0, 8)}-${id.slice(8, 12)}-4${id.slice(13, 16)}-${'89ab'[parseInt(id[16]!, 16) & 3]}${id.slice(17, 20)}-${id.slice(20, 32)}`,
        fileContentHash,
      };
      store.localContent.push(record);
      void reply.code(201);
      return ok({ nickname: record.nickname, fileContentId: record.fileContentId, fileContentHash });
    },
  });

  // ---- Router sandbox ----

  serve(op.listSandboxClients, async (request) => {
    const query = request.query as Query;
    const pageIndex = intParam(query, 'page', 0, 0);
    const rawSandbox = stringParam(query, 'sandboxId');
    if (rawSandbox !== undefined && !/^-?\d{1,10}$/.test(rawSandbox)) refuse(400, `The value '${rawSandbox}' is not valid for sandboxId.`, ['sandboxId']);
    const sandboxId = rawSandbox === undefined ? undefined : Number(rawSandbox);
    const rawAfter = stringParam(query, 'expiryAfter');
    const afterMs = rawAfter === undefined ? -Infinity : Date.parse(rawAfter);
    if (Number.isNaN(afterMs)) refuse(400, `The value '${rawAfter}' is not valid for expiryAfter.`, ['expiryAfter']);
    // Only access not yet expired: an expired client is back in its sandbox.
    const fromMs = Math.max(nowMs(), afterMs);
    const clients = [...store.sandbox.values()]
      .filter((c) => c.expiryMs > fromMs && (sandboxId === undefined || c.sandboxId === sandboxId))
      .sort((a, b) => a.sandboxId - b.sandboxId || (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0));
    return ok(
      page(positions(clients.length), pageIndex, SANDBOX_PAGE_SIZE, (k): SandboxClientResponse => {
        const c = clients[k]!;
        return { clientId: c.clientId, sandboxId: c.sandboxId, expiry: iso(c.expiryMs) };
      }),
    );
  });

  serve(op.updateSandboxClients, async (request) => {
    const body = parseBody(op.updateSandboxClients.body, request.body);
    // A client named twice: the latest expiry counts.
    const batch = new Map<string, { clientId: string; sandboxId: number; expiryMs: number }>();
    for (const entry of body) {
      const clientId = entry.clientId.trim();
      const key = `${entry.sandboxId} ${clientId}`;
      const expiryMs = Date.parse(entry.expiry);
      const seen = batch.get(key);
      if (!seen || expiryMs > seen.expiryMs) batch.set(key, { clientId, sandboxId: entry.sandboxId, expiryMs });
    }
    for (const [key, client] of batch) store.sandbox.set(key, client);
    return done([`${batch.size} sandbox client(s) updated`]);
  });

  serve(op.sendSandboxHeartbeat, async (request) => {
    const { healthy } = parseBody(op.sendSandboxHeartbeat.body, request.body);
    store.heartbeat = { healthy, atMs: nowMs() };
    return done();
  });

  // ---- User terminal configs and L2VPN ----

  serve(op.assignUserTerminalConfig, async (request) => {
    const body = parseBody(op.assignUserTerminalConfig.body, request.body);
    const configId = body.configId?.trim() || null;
    // The document answers 403 for a terminal or config not on the account.
    if (configId !== null && !store.terminalConfigIds.includes(configId)) {
      if (store.configById.has(configId)) refuse(422, `${configId} is a router config, not a user terminal config`, ['configId']);
      refuse(403, `Config ${configId} is not on this account`, ['configId']);
    }
    const terminals = body.userTerminalIds.map((id) => fleet.terminalIndex(id) ?? refuse(403, `User terminal ${id} is not on this account`, ['userTerminalIds']));
    for (const t of terminals) store.terminalConfigs.set(t, configId);
    const count = new Set(terminals).size;
    return done([configId === null ? `Config removed from ${count} user terminal(s)` : `Config ${configId} assigned to ${count} user terminal(s)`]);
  });

  serve(op.listL2VpnCircuits, async () => ok(store.circuits.map((c) => ({ ...c, circuitIds: [...c.circuitIds] }))));

  serve(op.setL2VpnCircuits, async (request) => {
    const { deviceId } = request.params as { deviceId: string };
    const t = fleet.terminalIndex(deviceId) ?? refuse(404, `User terminal ${deviceId} was not found on this account`, ['deviceId']);
    const requested = parseBody(op.setL2VpnCircuits.body, request.body) ?? [];
    if (requested.length === 0) {
      store.l2vpn.delete(t);
      return done(['L2VPN circuits cleared']);
    }
    const terminal = fleet.terminal(t);
    if (terminal.serviceLineNumber === null) refuse(422, `User terminal ${deviceId} is on no service line: L2VPN needs a line whose plan allows it`, ['deviceId']);
    const line = fleet.serviceLine(terminal.serviceLineNumber!)!;
    if (!line.active) refuse(422, `Service line ${line.serviceLineNumber} of user terminal ${deviceId} is not active`, ['deviceId']);
    if (!fleet.plan(line.productReferenceId)?.isSla) {
      refuse(422, `Product ${line.productReferenceId} of service line ${line.serviceLineNumber} does not allow L2VPN`, ['deviceId']);
    }
    const known = new Set(store.circuits.flatMap((c) => c.circuitIds));
    const perPop = new Map<string, number>();
    const vlans = new Set<number>();
    const used = new Set<L2VpnCircuitResponse>();
    const circuits = requested.map((c, k): L2VpnCircuitDefinition => {
      const at = `[${k}]`;
      if (c.circuitId && c.circuitIds.length > 0) refuse(400, `${at}.circuitId and circuitIds are mutually exclusive`, [`${at}.circuitId`]);
      const ids = c.circuitIds.length > 0 ? c.circuitIds : c.circuitId ? [c.circuitId.trim()] : refuse(400, `${at}.circuitIds must name a circuit`, [`${at}.circuitIds`]);
      for (const id of ids) if (!known.has(id)) refuse(422, `Circuit ${id} is not available on this account`, [`${at}.circuitIds`]);
      const group =
        store.circuits.find((g) => g.circuitIds.length === new Set(ids).size && g.circuitIds.every((id) => ids.includes(id))) ??
        refuse(422, `Circuits ${ids.join(', ')} are not one circuit group: a redundant group is used whole, and only alone`, [`${at}.circuitIds`]);
      if (used.has(group)) refuse(422, `Circuit group ${group.circuitIds.join(', ')} is named twice`, [`${at}.circuitIds`]);
      used.add(group);
      const onPop = (perPop.get(group.popName) ?? 0) + 1;
      if (onPop > MAX_L2VPN_CIRCUITS_PER_POP) refuse(422, `At most ${MAX_L2VPN_CIRCUITS_PER_POP} circuits per Starlink PoP (${group.popName})`, [`${at}.circuitIds`]);
      perPop.set(group.popName, onPop);
      if (c.customerVlanRemap && c.customerVlans.length !== 1) refuse(400, `${at}.customerVlanRemap needs exactly one customer VLAN`, [`${at}.customerVlans`]);
      for (const vlan of c.customerVlans) {
        if (vlans.has(vlan)) refuse(422, `Customer VLAN ${vlan} is used twice`, [`${at}.customerVlans`]);
        vlans.add(vlan);
      }
      return {
        circuitId: group.circuitIds[0]!,
        circuitIds: [...group.circuitIds],
        customerVlans: [...c.customerVlans],
        serviceVlan: c.serviceVlan || null,
        customerVlanRemap: c.customerVlanRemap || null,
      };
    });
    store.l2vpn.set(t, circuits);
    return done([`${circuits.length} L2VPN circuit(s) set on user terminal ${terminal.userTerminalId}`]);
  });
}
