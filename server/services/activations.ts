// Activating a terminal: the provider's steps run in order — the kit added to the account, the
// address created when it is new, the line created, the kit attached to it, the line named — then
// the inventory refreshed from the provider and the line assigned to the customer. Each step is
// recorded as it completes; a failure stops the run with the reason and Resume continues from the
// first step not done. No step makes anything twice: each first looks for what it would make
// (the kit on the account, the address by the key in its metadata, a line made for this
// activation at its address, the kit already on the line), and the provider client never resends
// a create whose answer was lost without looking for it first.
import { randomUUID } from 'node:crypto';
import {
  ACTIVATION_ADDRESSES_LIMIT,
  ACTIVATION_MESSAGES as M,
  ACTIVATION_STEP_LABELS,
  ACTIVATION_STEPS,
  type ActivationAddressWire,
  type ActivationPayload,
  type ActivationStep,
  type ActivationWire,
  type NewAddressInput,
} from '../../src/domain/activations';
import type { Clock } from '../clock';
import type { Repositories } from '../db/repositories';
import type { ActivationRow } from '../db/repositories/activations';
import { ConflictError, NotFoundError, ServiceUnavailableError, fieldError } from '../errors';
import { isProviderError } from '../provider/errors';
import type { StarlinkClient } from '../provider';
import type { AuditService, RequestContext } from './audit';
import type { ProviderDirectory } from '../provider-access';
import type { CustomerTerminalsService } from './customer-terminals';
import { providerFailure } from './provider-failures';
import type { TerminalSyncService } from './terminal-sync';

export interface ActivationsService {
  start(payload: ActivationPayload, context: RequestContext): Promise<ActivationWire>;
  resume(id: string, context: RequestContext): Promise<ActivationWire>;
  get(id: string): Promise<ActivationWire>;
  /** One account's addresses (the first account's when none is named): a line is put at an address of its own account. */
  addresses(search: string | null, accountId?: number | null): Promise<ActivationAddressWire[]>;
}

/** A run untouched this long is taken to have died with its server: Resume may take it over. */
export const ACTIVATION_STALE_MS = 2 * 60_000;
/** A line made for an activation starts no earlier than this before the activation was recorded. */
const LINE_CLOCK_SKEW_MS = 60_000;

/** Why a step could not be done: the activation stops with this message. */
class StepFailed extends Error {}

const sameDevice = (wanted: string, terminal: { userTerminalId: string; kitSerialNumber: string; dishSerialNumber: string | null }) =>
  [terminal.userTerminalId, terminal.kitSerialNumber, terminal.dishSerialNumber].some((id) => id?.toUpperCase() === wanted.toUpperCase());

export function createActivationsService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  provider: ProviderDirectory | null;
  noProvider: string;
  terminalSync: Pick<TerminalSyncService, 'refreshTerminal'>;
  customerTerminals: Pick<CustomerTerminalsService, 'assign'>;
}): ActivationsService {
  const { repos, audit, now } = deps;
  const store = repos.activations;

  /** The client of the account the kit is activated under (refused when that account is disabled). */
  const client = async (accountId: number): Promise<StarlinkClient> => {
    if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
    return (await deps.provider.access(accountId)).client();
  };

  async function wire(row: ActivationRow): Promise<ActivationWire> {
    const customer = row.customerId ? await repos.customers.findLiveById(row.customerId) : null;
    const steps = (row.steps ?? {}) as Partial<Record<ActivationStep, string>>;
    const skipped = (step: ActivationStep) =>
      (step === 'nickname' && !row.nickname) || (step === 'assign' && !row.customerId) || (step === 'address' && !row.newAddress);
    return {
      id: row.id,
      deviceId: row.deviceId,
      status: row.status,
      steps: ACTIVATION_STEPS.map((step) => ({ step, label: ACTIVATION_STEP_LABELS[step], doneAt: steps[step] ?? null, skipped: skipped(step) })),
      customer: customer ? { uuid: customer.id, name: customer.name } : null,
      productReferenceId: row.productReferenceId,
      nickname: row.nickname,
      addressReferenceId: row.addressReferenceId,
      userTerminalId: row.userTerminalId,
      serviceLineNumber: row.serviceLineNumber,
      error: row.error,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  /** The checks made before anything goes to the provider: each a 4xx, nothing written. */
  async function check(payload: ActivationPayload, accountId: number): Promise<void> {
    if (!!payload.addressReferenceId === !!payload.newAddress) throw fieldError('addressReferenceId', M.addressChoice);
    // The plan and the address are the chosen account's own: another account's are not its to sell or use.
    if (!(await repos.subscriptions.findLiveProduct(payload.productReferenceId, accountId))) {
      throw fieldError('productReferenceId', M.productUnknown);
    }
    // An address the portal has not synced yet goes to the provider as given; one it knows under
    // another account is refused here.
    const held = payload.addressReferenceId ? await store.addressAccounts(payload.addressReferenceId) : [];
    if (held.length > 0 && !held.includes(accountId)) throw fieldError('addressReferenceId', M.addressOtherAccount);
    if (payload.customerUuid) {
      const customer = await repos.customers.findLiveById(payload.customerUuid);
      if (!customer) throw new NotFoundError(M.customerUnknown);
      // As assignment has it: blocked or expired refuse; a customer who has not set a password yet
      // (inactive) may already be given terminals.
      if (customer.blockedEnabled) throw new ConflictError(M.customerBlocked);
      if (customer.accountExpiresAt && customer.accountExpiresAt.getTime() <= now().getTime()) throw new ConflictError(M.customerExpired);
    }
  }

  /** One step; answers what it found or made for the record. */
  async function runStep(step: ActivationStep, row: ActivationRow, context: RequestContext): Promise<Partial<Pick<ActivationRow, 'userTerminalId' | 'addressReferenceId' | 'serviceLineNumber'>>> {
    const provider = await client(row.accountId);
    switch (step) {
      case 'terminal': {
        const onAccount = async () => (await provider.listUserTerminals({ searchString: row.deviceId })).items.find((t) => sameDevice(row.deviceId, t));
        let terminal = await onAccount();
        if (!terminal) {
          await provider.addUserTerminal(row.deviceId);
          terminal = await onAccount();
          if (!terminal) throw new StepFailed(`The provider did not list ${row.deviceId} on the account after adding it`);
        }
        if (terminal.serviceLineNumber && terminal.serviceLineNumber !== row.serviceLineNumber) throw new StepFailed(M.alreadyOnLine(terminal.serviceLineNumber));
        return { userTerminalId: terminal.userTerminalId };
      }
      case 'address': {
        if (row.addressReferenceId) {
          await provider.getAddress(row.addressReferenceId);
          return {};
        }
        const address = await provider.createAddress(row.newAddress as NewAddressInput, { key: row.addressKey });
        return { addressReferenceId: address.addressReferenceId };
      }
      case 'line': {
        if (row.serviceLineNumber) return {};
        const addressReferenceId = row.addressReferenceId!;
        // A line an earlier run of this activation made but could not record: new at the address,
        // on the product, and with no terminal yet.
        const candidates = (await provider.listServiceLines({ addressReferenceId })).items.filter(
          (line) => line.active && line.productReferenceId === row.productReferenceId && Date.parse(line.startDate ?? '') >= row.createdAt.getTime() - LINE_CLOCK_SKEW_MS,
        );
        if (candidates.length > 0) {
          const held = new Set((await provider.listUserTerminals({ serviceLineNumbers: candidates.map((l) => l.serviceLineNumber) })).items.map((t) => t.serviceLineNumber));
          const ours = candidates.find((line) => !held.has(line.serviceLineNumber));
          if (ours) return { serviceLineNumber: ours.serviceLineNumber };
        }
        const line = await provider.createServiceLine({ addressReferenceId, productReferenceId: row.productReferenceId });
        return { serviceLineNumber: line.serviceLineNumber };
      }
      case 'attach': {
        const [terminal] = (await provider.listUserTerminals({ userTerminalIds: [row.userTerminalId!] })).items;
        if (terminal?.serviceLineNumber === row.serviceLineNumber) return {};
        await provider.attachTerminal(row.serviceLineNumber!, row.userTerminalId!);
        return {};
      }
      case 'nickname':
        if (row.nickname) await provider.setServiceLineNickname(row.serviceLineNumber!, row.nickname);
        return {};
      case 'store':
        await deps.terminalSync.refreshTerminal(row.userTerminalId!, context, row.accountId);
        return {};
      case 'assign': {
        if (!row.customerId) return {};
        const { result } = await deps.customerTerminals.assign({ customerUuid: row.customerId, serviceLineNumbers: [row.serviceLineNumber!] }, context);
        const failure = result.failed.find((f) => f.code !== 'already_assigned');
        if (failure) throw new StepFailed(failure.reason);
        return {};
      }
    }
  }

  /** Runs every step not done yet, recording each; stops at the first that fails. */
  async function run(claimed: ActivationRow, context: RequestContext): Promise<ActivationWire> {
    let row = claimed;
    const done = () => (row.steps ?? {}) as Partial<Record<ActivationStep, string>>;
    for (const step of ACTIVATION_STEPS) {
      if (done()[step]) continue;
      try {
        const found = await runStep(step, row, context);
        row = await store.stepDone(row.id, step, found, now());
      } catch (error) {
        const message =
          error instanceof StepFailed
            ? error.message
            : isProviderError(error)
              ? error.kind === 'validation' && error.messages.length > 0
                ? error.messages.join('; ')
                : (providerFailure(error, `${ACTIVATION_STEP_LABELS[step]} failed`) as Error).message
              : error instanceof Error && 'statusCode' in error
                ? error.message
                : null;
        if (message === null) throw error;
        row = await store.finish(row.id, { status: 'failed', error: message }, now());
        await audit.record({ ...context, action: 'activation.failed', targetType: 'activation', targetId: row.id, after: { deviceId: row.deviceId, step, error: message } });
        return wire(row);
      }
    }
    row = await store.finish(row.id, { status: 'completed' }, now());
    await audit.record({
      ...context,
      action: 'service_line.activated',
      targetType: 'service_line',
      targetId: row.serviceLineNumber,
      after: { serviceLineNumber: row.serviceLineNumber, deviceId: row.deviceId, userTerminalId: row.userTerminalId, productReferenceId: row.productReferenceId, customerId: row.customerId, activationId: row.id },
    });
    return wire(row);
  }

  return {
    async start(payload, context) {
      if (!!payload.addressReferenceId === !!payload.newAddress) throw fieldError('addressReferenceId', M.addressChoice);
      if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
      const accountId = payload.accountId ?? (await deps.provider.defaultAccount());
      if (!(await repos.providerAccounts.find(accountId))) {
        throw fieldError('accountId', M.unknownAccount);
      }
      await check(payload, accountId);
      await client(accountId);
      const deviceId = payload.deviceId.trim();
      const started = await store.start(
        {
          deviceId,
          deviceKey: deviceId.toUpperCase(),
          accountId,
          customerId: payload.customerUuid ?? null,
          addressReferenceId: payload.addressReferenceId ?? null,
          newAddress: payload.newAddress ?? null,
          addressKey: `activation:${randomUUID()}`,
          productReferenceId: payload.productReferenceId,
          nickname: payload.nickname?.trim() || null,
          createdBy: context.actor.type === 'user' ? context.actor.id : null,
        },
        now(),
      );
      if (!started.ok) throw new ConflictError(M.inProgress);
      await audit.record({ ...context, action: 'activation.started', targetType: 'activation', targetId: started.row.id, after: { deviceId, productReferenceId: payload.productReferenceId } });
      return run(started.row, context);
    },

    async resume(id, context) {
      const found = await store.findById(id);
      if (!found) throw new NotFoundError(M.notFound);
      await client(found.accountId);
      const claimed = await store.claim(id, now(), new Date(now().getTime() - ACTIVATION_STALE_MS));
      if (!claimed) throw new ConflictError(M.notResumable);
      return run(claimed, context);
    },

    async addresses(search, accountId = null) {
      // Without a provider there is no default account: the first one's addresses, as synced.
      const account = accountId ?? (deps.provider ? await deps.provider.defaultAccount() : 1);
      return store.addresses(search, ACTIVATION_ADDRESSES_LIMIT, account);
    },

    async get(id) {
      const row = await store.findById(id);
      if (!row) throw new NotFoundError(M.notFound);
      return wire(row);
    },
  };
}
