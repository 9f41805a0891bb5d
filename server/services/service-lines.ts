// A service line's settings and the lifecycle actions on it (Terminal Details → Settings): the
// provider's line read live, and rename, public IP, priority data opt-in/out, recurring blocks,
// one-time top-ups and deactivation (now, or at the end of the cycle). Each action goes to the
// provider first; once it accepted, the line is read again from the provider and stored (the row
// the inventory sync writes), with its audit entry, in one transaction. The line's terminals can
// be moved to another line or taken off it, and the routers behind them rebooted or given a
// configuration; a moved or removed terminal is read again from the provider into the inventory.
import {
  MAX_TOP_UP_BLOCKS_PER_CYCLE,
  SERVICE_LINE_MESSAGES as M,
  type DataProductWire,
  type DeactivateLinePayload,
  type LineTerminalWire,
  type MoveTerminalPayload,
  type RecurringBlocksPayload,
  type RouterConfigPayload,
  type RecurringBlocksWire,
  type ServiceLineSettingsWire,
  type TopUpPayload,
  moveTargetProblem,
} from '../../src/domain/service-lines';
import { DEFAULT_CURRENCY, GB_PER_TB } from '../../src/domain/subscriptions';
import type { Clock } from '../clock';
import type { Repositories } from '../db/repositories';
import type { LineContext } from '../db/repositories/service-lines';
import type { StoredProduct } from '../db/repositories/subscriptions';
import { ConflictError, NotFoundError, ServiceUnavailableError, fieldError } from '../errors';
import type { ProviderDataBlockSummary, ProviderServiceLine, ProviderUserTerminal } from '../provider/schemas';
import type { AuditService, RequestContext } from './audit';
import { clickIntentKey, type IntentSpec, type ProviderIntents } from './provider-intents';
import { clientForLine, type ProviderDirectory } from '../provider-access';
import { providerRefusal } from './provider-failures';
import type { TerminalSyncService } from './terminal-sync';
import { serviceLineRow } from './terminal-sync-map';

export interface WriteOptions {
  intentKey?: string;
}

export interface ServiceLinesService {
  settings(serviceLineNumber: string): Promise<ServiceLineSettingsWire>;
  rename(serviceLineNumber: string, nickname: string, context: RequestContext): Promise<ServiceLineSettingsWire>;
  setPublicIp(serviceLineNumber: string, publicIp: boolean, context: RequestContext): Promise<ServiceLineSettingsWire>;
  /**
   * `intentKey` on these writes: what the write is for, once (a customer request's approval, an
   * automatic action, a scheduled change); a fresh one per call by default.
   */
  setPriorityData(serviceLineNumber: string, optedIn: boolean, context: RequestContext, options?: WriteOptions): Promise<ServiceLineSettingsWire>;
  setRecurringBlocks(serviceLineNumber: string, payload: RecurringBlocksPayload, context: RequestContext, options?: WriteOptions): Promise<ServiceLineSettingsWire>;
  topUp(serviceLineNumber: string, payload: TopUpPayload, context: RequestContext, options?: WriteOptions): Promise<ServiceLineSettingsWire>;
  deactivate(serviceLineNumber: string, payload: DeactivateLinePayload, context: RequestContext, options?: WriteOptions): Promise<ServiceLineSettingsWire>;
  /** Takes a terminal off this line and puts it on another; answers this line's settings. */
  moveTerminal(serviceLineNumber: string, userTerminalId: string, payload: MoveTerminalPayload, context: RequestContext): Promise<ServiceLineSettingsWire>;
  removeTerminal(serviceLineNumber: string, userTerminalId: string, context: RequestContext): Promise<ServiceLineSettingsWire>;
  rebootRouter(serviceLineNumber: string, routerId: string, context: RequestContext): Promise<ServiceLineSettingsWire>;
  setRouterConfig(serviceLineNumber: string, routerId: string, payload: RouterConfigPayload, context: RequestContext): Promise<ServiceLineSettingsWire>;
}

export const SERVICE_LINE_SERVER_MESSAGES = {
  loadFailed: 'Could not read the service line',
  actionFailed: 'The provider did not make the change',
} as const;

interface RawDataProduct {
  productId?: unknown;
  price?: unknown;
  isoCurrencyCode?: unknown;
  dataAmount?: unknown;
  dataUnit?: unknown;
}

const gbOf = (amount: number, unit: unknown) => (typeof unit === 'string' && unit.toUpperCase() === 'TB' ? amount * GB_PER_TB : amount);

function dataProduct(raw: RawDataProduct | null | undefined, fallbackCurrency: string): DataProductWire | null {
  if (!raw || typeof raw.productId !== 'string' || typeof raw.dataAmount !== 'number') return null;
  return {
    productId: raw.productId,
    dataGB: gbOf(raw.dataAmount, raw.dataUnit),
    price: typeof raw.price === 'number' ? raw.price : 0,
    currency: typeof raw.isoCurrencyCode === 'string' ? raw.isoCurrencyCode : fallbackCurrency,
  };
}

/** What a plan sells beside itself: its recurring blocks and its one-time top-up. */
export function planProducts(product: StoredProduct | null): { blockProducts: DataProductWire[]; topUpProduct: DataProductWire | null } {
  const raw = (product?.raw ?? null) as { dataProducts?: { topUpProduct?: RawDataProduct | null; dataBlockProducts?: RawDataProduct[] | null } | null } | null;
  const currency = product?.isoCurrencyCode ?? DEFAULT_CURRENCY;
  const blockProducts = (raw?.dataProducts?.dataBlockProducts ?? []).map((p) => dataProduct(p, currency)).filter((p): p is DataProductWire => p !== null);
  return { blockProducts, topUpProduct: dataProduct(raw?.dataProducts?.topUpProduct, currency) };
}

function recurring(blocks: ProviderDataBlockSummary[]): RecurringBlocksWire | null {
  const first = blocks[0];
  if (!first?.productId) return null;
  const count = blocks.filter((b) => b.productId === first.productId).reduce((sum, b) => sum + b.count, 0);
  return { productId: first.productId, count, dataGB: gbOf(first.dataAmount, first.dataUnitType) * count };
}

/** What a settings view reads from the provider besides the line itself. */
interface ViewReads {
  periods: boolean;
  /** The routers behind the line's terminals and the account's router configurations. */
  equipment: boolean;
}
const EVERYTHING: ViewReads = { periods: true, equipment: true };

export function createServiceLinesService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  provider: ProviderDirectory | null;
  noProvider: string;
  terminalSync: Pick<TerminalSyncService, 'refreshTerminal'>;
  intents: Pick<ProviderIntents, 'run' | 'attempted'>;
}): ServiceLinesService {
  const { repos, audit, now } = deps;

  /** The client of the account the line lives under. */
  const client = (serviceLineNumber: string) => {
    if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
    return clientForLine(deps.provider, repos.serviceLines, serviceLineNumber);
  };

  /** A write that changes money or service, sent once under its intent (provider-intents.ts). */
  const once = (spec: IntentSpec, send: () => Promise<unknown>) => deps.intents.run(spec, send);

  async function known(serviceLineNumber: string): Promise<LineContext> {
    const context = await repos.serviceLines.context(serviceLineNumber);
    if (!context) throw new NotFoundError(M.notFound);
    return context;
  }

  async function providerLine(serviceLineNumber: string): Promise<ProviderServiceLine> {
    try {
      return await (await client(serviceLineNumber)).getServiceLine(serviceLineNumber);
    } catch (error) {
      throw providerRefusal(error, SERVICE_LINE_SERVER_MESSAGES.loadFailed);
    }
  }

  /** The line's terminals with the routers the provider reports behind each, and the configurations a router may take. */
  async function terminalsOf(serviceLineNumber: string, context: LineContext): Promise<Pick<ServiceLineSettingsWire, 'terminals' | 'routerConfigs'>> {
    const provider = await client(serviceLineNumber);
    const listed = new Map<string, ProviderUserTerminal>();
    for (const terminal of (await provider.listUserTerminals({ serviceLineNumbers: [serviceLineNumber] })).items) listed.set(terminal.userTerminalId, terminal);
    const terminals: LineTerminalWire[] = context.terminals.map((t) => ({
      ...t,
      routers: (listed.get(t.deviceId)?.routers ?? []).map((r) => ({ routerId: r.routerId, nickname: r.nickname, configId: r.configId })),
    }));
    const anyRouter = terminals.some((t) => t.routers.length > 0);
    const routerConfigs = anyRouter ? (await provider.listRouterConfigs()).items.map((c) => ({ configId: c.configId, nickname: c.nickname })) : [];
    return { terminals, routerConfigs };
  }

  /**
   * The settings wire. An answer reads everything; an action's checks read only what they look at
   * (see `current`): each read is a provider call, and the account's call budget is shared.
   */
  async function view(line: ProviderServiceLine, context: LineContext, reads: ViewReads = EVERYTHING): Promise<ServiceLineSettingsWire> {
    // The line's plan is a product of the account the line lives under, not another account's namesake.
    const product = await repos.subscriptions.findLiveProduct(line.productReferenceId, context.accountId);
    const { blockProducts, topUpProduct } = planProducts(product);
    let partialPeriods: ServiceLineSettingsWire['partialPeriods'];
    let equipment: Pick<ServiceLineSettingsWire, 'terminals' | 'routerConfigs'>;
    try {
      [partialPeriods, equipment] = await Promise.all([
        reads.periods ? client(line.serviceLineNumber).then((c) => c.listPartialPeriods(line.serviceLineNumber)) : Promise.resolve([]),
        reads.equipment ? terminalsOf(line.serviceLineNumber, context) : Promise.resolve({ terminals: context.terminals.map((t) => ({ ...t, routers: [] })), routerConfigs: [] }),
      ]);
    } catch (error) {
      throw providerRefusal(error, SERVICE_LINE_SERVER_MESSAGES.loadFailed);
    }
    const blocks = line.dataBlocks;
    const current = recurring(blocks?.recurringBlocksCurrentBillingCycle ?? []);
    const next = recurring(blocks?.recurringBlocksNextBillingCycle ?? []);
    const boughtThisCycle = (blocks?.topUpBlocksOneTimePurchase ?? []).reduce((sum, b) => sum + b.count, 0);
    return {
      serviceLineNumber: line.serviceLineNumber,
      nickname: line.nickname,
      productReferenceId: line.productReferenceId,
      planName: product?.name ?? null,
      planKind: blockProducts.length > 0 ? 'blocks' : 'metered',
      active: line.active,
      endDate: line.endDate,
      publicIp: line.publicIp ?? false,
      optedIn: line.optInProductId !== null,
      recurringBlocks: current,
      nextRecurringBlocks: next && (next.productId !== current?.productId || next.count !== current?.count) ? next : null,
      blockProducts,
      topUpProduct,
      topUpBlocksThisCycle: boughtThisCycle,
      topUpBlocksLeft: Math.max(0, MAX_TOP_UP_BLOCKS_PER_CYCLE - boughtThisCycle),
      partialPeriods,
      customer: context.customer,
      ...equipment,
    };
  }

  /**
   * Runs an accepted change's local side: the line read again from the provider and stored, with
   * the audit entry, in one transaction; answers the fresh settings.
   */
  async function act(
    context: LineContext,
    request: RequestContext,
    entry: { action: string; before: Record<string, unknown>; after: Record<string, unknown> },
    send: () => Promise<unknown>,
  ): Promise<ServiceLineSettingsWire> {
    const { serviceLineNumber } = context;
    try {
      await send();
    } catch (error) {
      throw providerRefusal(error, SERVICE_LINE_SERVER_MESSAGES.actionFailed);
    }
    const line = await providerLine(serviceLineNumber);
    await repos.serviceLines.transaction(async (tx) => {
      await repos.terminalInventory.upsertServiceLines([serviceLineRow(line, context.accountNumber, context.accountId)], now(), tx);
      await audit.record(
        { ...request, action: entry.action, targetType: 'service_line', targetId: serviceLineNumber, before: entry.before, after: { serviceLineNumber, ...entry.after } },
        tx,
      );
    });
    return view(line, context);
  }

  /**
   * The line now, for the checks an action makes before it goes to the provider: never its partial
   * periods, and its routers only for a router's action (`equipment`).
   */
  async function current(serviceLineNumber: string, equipment = false) {
    const context = await known(serviceLineNumber);
    const line = await providerLine(serviceLineNumber);
    return { context, line, settings: await view(line, context, { periods: false, equipment }) };
  }

  const requireActive = (settings: ServiceLineSettingsWire) => {
    if (!settings.active) throw new ConflictError(M.inactive);
  };

  /** The terminal, when it is on this line in the inventory. */
  function terminalOn(context: LineContext, userTerminalId: string) {
    const terminal = context.terminals.find((t) => t.deviceId === userTerminalId);
    if (!terminal) throw new NotFoundError(M.terminalNotOnLine);
    return terminal;
  }

  /**
   * A terminal the provider moved (or took off its line) read again into the inventory, and the
   * audit entry; then this line's settings afresh.
   */
  async function afterTerminalChange(
    serviceLineNumber: string,
    userTerminalId: string,
    request: RequestContext,
    entry: { action: string; before: Record<string, unknown>; after: Record<string, unknown> },
  ): Promise<ServiceLineSettingsWire> {
    await deps.terminalSync.refreshTerminal(userTerminalId, request);
    await audit.record({ ...request, action: entry.action, targetType: 'terminal', targetId: userTerminalId, before: entry.before, after: entry.after });
    return settings(serviceLineNumber);
  }

  /** The line's settings as an answer: everything, read afresh. */
  async function settings(serviceLineNumber: string): Promise<ServiceLineSettingsWire> {
    const context = await known(serviceLineNumber);
    return view(await providerLine(serviceLineNumber), context);
  }

  return {
    settings,


    async rename(serviceLineNumber, nickname, request) {
      const { context, line } = await current(serviceLineNumber);
      const name = nickname.trim();
      return act(context, request, { action: 'service_line.renamed', before: { nickname: line.nickname }, after: { nickname: name } }, () =>
        client(serviceLineNumber).then((c) => c.setServiceLineNickname(serviceLineNumber, name)),
      );
    },

    async setPublicIp(serviceLineNumber, publicIp, request) {
      const { context, settings } = await current(serviceLineNumber);
      requireActive(settings);
      if (settings.publicIp === publicIp) throw new ConflictError(M.noChange);
      return act(context, request, { action: 'service_line.public_ip_changed', before: { publicIp: settings.publicIp }, after: { publicIp } }, () =>
        client(serviceLineNumber).then((c) => c.setServiceLinePublicIp(serviceLineNumber, publicIp)),
      );
    },

    async setPriorityData(serviceLineNumber, optedIn, request, options = {}) {
      const { context, settings } = await current(serviceLineNumber);
      requireActive(settings);
      // The line may already show an earlier attempt's own write whose answer was lost: looked up, not refused.
      if (settings.optedIn === optedIn && !(await deps.intents.attempted(options.intentKey))) throw new ConflictError(M.noChange);
      return act(context, request, { action: 'service_line.priority_data_changed', before: { optedIn: settings.optedIn }, after: { optedIn } }, () =>
        once({ key: options.intentKey ?? clickIntentKey(), operation: 'priority_data', serviceLineNumber, payload: { optedIn }, evidence: {} }, () =>
          client(serviceLineNumber).then((c) => (optedIn ? c.optInPriorityData(serviceLineNumber) : c.optOutPriorityData(serviceLineNumber))),
        ),
      );
    },

    async setRecurringBlocks(serviceLineNumber, payload, request, options = {}) {
      const { context, settings } = await current(serviceLineNumber);
      requireActive(settings);
      if (settings.planKind !== 'blocks') throw new ConflictError(M.notPriorityPlan);
      const product = settings.blockProducts.find((p) => p.productId === payload.productId);
      if (!product) throw fieldError('productId', M.unknownBlock);
      return act(
        context,
        request,
        {
          action: 'service_line.recurring_blocks_changed',
          before: { recurringBlocks: settings.nextRecurringBlocks ?? settings.recurringBlocks },
          after: { productId: payload.productId, count: payload.count, applyToCurrentCycle: payload.applyToCurrentCycle },
        },
        () =>
          once(
            {
              key: options.intentKey ?? clickIntentKey(),
              operation: 'recurring_blocks',
              serviceLineNumber,
              payload: { productId: payload.productId, count: payload.count, applyToCurrentCycle: payload.applyToCurrentCycle },
              evidence: {},
            },
            () => client(serviceLineNumber).then((c) => c.setRecurringDataBlocks(serviceLineNumber, { recurringDataBlocks: [{ productId: payload.productId, count: payload.count }], applyToCurrentMonth: payload.applyToCurrentCycle })),
          ),
      );
    },

    async topUp(serviceLineNumber, payload, request, options = {}) {
      const { context, settings } = await current(serviceLineNumber);
      requireActive(settings);
      if (!settings.topUpProduct || settings.topUpProduct.productId !== payload.productId) {
        throw fieldError('productId', M.unknownTopUp);
      }
      // The blocks left count what an earlier attempt of this top-up bought, if its answer was lost:
      // that attempt is looked up, not refused.
      if (payload.count > settings.topUpBlocksLeft && !(await deps.intents.attempted(options.intentKey))) {
        throw fieldError('count', M.topUpLimit(settings.topUpBlocksLeft));
      }
      const price = Math.round(settings.topUpProduct.price * payload.count * 100) / 100;
      return act(
        context,
        request,
        { action: 'service_line.topped_up', before: { topUpBlocksThisCycle: settings.topUpBlocksThisCycle }, after: { productId: payload.productId, count: payload.count, price, currency: settings.topUpProduct.currency } },
        () =>
          once(
            {
              key: options.intentKey ?? clickIntentKey(),
              operation: 'top_up',
              serviceLineNumber,
              payload: { productId: payload.productId, count: payload.count },
              evidence: { topUpBlocksBefore: settings.topUpBlocksThisCycle },
            },
            () => client(serviceLineNumber).then((c) => c.topUpServiceLine(serviceLineNumber, { productId: payload.productId, count: payload.count })),
          ),
      );
    },

    async deactivate(serviceLineNumber, payload, request, options = {}) {
      const { context, settings } = await current(serviceLineNumber);
      const attempted = await deps.intents.attempted(options.intentKey);
      if (!attempted) requireActive(settings);
      if (settings.endDate && !attempted) throw new ConflictError(M.alreadyEnding);
      const endNow = payload.when === 'now';
      return act(
        context,
        request,
        {
          action: endNow ? 'service_line.deactivated' : 'service_line.deactivation_scheduled',
          before: { active: settings.active, endDate: settings.endDate },
          after: { when: payload.when, reason: payload.reason.trim(), customer: settings.customer?.name ?? null, terminals: settings.terminals.map((t) => t.kitSerialNumber) },
        },
        () =>
          once({ key: options.intentKey ?? clickIntentKey(), operation: 'deactivate', serviceLineNumber, payload: { endNow }, evidence: {} }, () =>
            client(serviceLineNumber).then((c) => c.deactivateServiceLine(serviceLineNumber, { endNow, reason: payload.reason.trim() })),
          ),
      );
    },

    async moveTerminal(serviceLineNumber, userTerminalId, payload, request) {
      const context = await known(serviceLineNumber);
      const terminal = terminalOn(context, userTerminalId);
      const problem = moveTargetProblem(payload.toServiceLineNumber, serviceLineNumber);
      if (problem) throw fieldError('toServiceLineNumber', problem);
      const target = await repos.serviceLines.context(payload.toServiceLineNumber.trim());
      if (!target) throw fieldError('toServiceLineNumber', M.targetNotFound);
      // A terminal moves between lines of one provider account: the provider knows no other.
      if ((await repos.serviceLines.accountOf(target.serviceLineNumber)) !== (await repos.serviceLines.accountOf(serviceLineNumber))) {
        throw fieldError('toServiceLineNumber', M.targetOtherAccount);
      }
      const targetLine = await providerLine(target.serviceLineNumber);
      if (!targetLine.active) throw new ConflictError(M.targetInactive);
      const to = target.serviceLineNumber;
      const entry = {
        action: 'terminal.moved',
        before: { serviceLineNumber },
        after: { serviceLineNumber: to, kitSerialNumber: terminal.kitSerialNumber },
      };
      try {
        await (await client(serviceLineNumber)).detachTerminal(serviceLineNumber, userTerminalId);
      } catch (error) {
        throw providerRefusal(error, SERVICE_LINE_SERVER_MESSAGES.actionFailed);
      }
      try {
        await (await client(to)).attachTerminal(to, userTerminalId);
      } catch (error) {
        // Off its line on the provider now: the inventory says so too, and the answer says where it is.
        await deps.terminalSync.refreshTerminal(userTerminalId, request).catch(() => undefined);
        await audit.record({ ...request, action: 'terminal.removed_from_line', targetType: 'terminal', targetId: userTerminalId, before: { serviceLineNumber }, after: { serviceLineNumber: null } });
        const why = providerRefusal(error, SERVICE_LINE_SERVER_MESSAGES.actionFailed) as Error;
        throw new ConflictError(M.movedHalfway(serviceLineNumber, to, why.message), { cause: error });
      }
      return afterTerminalChange(serviceLineNumber, userTerminalId, request, entry);
    },

    async removeTerminal(serviceLineNumber, userTerminalId, request) {
      const context = await known(serviceLineNumber);
      const terminal = terminalOn(context, userTerminalId);
      try {
        await (await client(serviceLineNumber)).detachTerminal(serviceLineNumber, userTerminalId);
      } catch (error) {
        throw providerRefusal(error, SERVICE_LINE_SERVER_MESSAGES.actionFailed);
      }
      return afterTerminalChange(serviceLineNumber, userTerminalId, request, {
        action: 'terminal.removed_from_line',
        before: { serviceLineNumber },
        after: { serviceLineNumber: null, kitSerialNumber: terminal.kitSerialNumber },
      });
    },

    async rebootRouter(serviceLineNumber, routerId, request) {
      const { context, settings } = await current(serviceLineNumber, true);
      const holder = settings.terminals.find((t) => t.routers.some((r) => r.routerId === routerId));
      if (!holder) throw new NotFoundError(M.routerNotOnLine);
      return act(context, request, { action: 'router.rebooted', before: {}, after: { routerId, userTerminalId: holder.deviceId } }, () => client(serviceLineNumber).then((c) => c.rebootRouter(routerId)));
    },

    async setRouterConfig(serviceLineNumber, routerId, payload, request) {
      const { context, settings } = await current(serviceLineNumber, true);
      const router = settings.terminals.flatMap((t) => t.routers).find((r) => r.routerId === routerId);
      if (!router) throw new NotFoundError(M.routerNotOnLine);
      if (payload.configId !== null && !settings.routerConfigs.some((c) => c.configId === payload.configId)) {
        throw fieldError('configId', M.unknownConfig);
      }
      if (router.configId === payload.configId) throw new ConflictError(M.noChange);
      return act(context, request, { action: 'router.config_assigned', before: { configId: router.configId }, after: { routerId, configId: payload.configId } }, () =>
        client(serviceLineNumber).then((c) => c.assignRouterConfig(payload.configId, [routerId])),
      );
    },
  };
}
