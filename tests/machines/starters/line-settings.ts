// Starts the lineSettings machine with scripted answers for the load and each change, and recorded
// toasts: shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { DeactivateLinePayload, DeactivationWhen, MoveTerminalPayload, RecurringBlocksPayload, RouterConfigPayload, TopUpPayload } from '../../../src/domain/service-lines';
import { lineSettingsMachine, type LineChange, type LineSettingsInput, type SettingsOutcome } from '../../../src/machines/line-settings';
import { LINE, lineSettingsFixture } from '../../fixtures/service-lines';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const settings = lineSettingsFixture();

export interface Answers {
  load?: ReadonlyArray<Answer<SettingsOutcome>>;
  rename?: ReadonlyArray<Answer<SettingsOutcome>>;
  publicIp?: ReadonlyArray<Answer<SettingsOutcome>>;
  priority?: ReadonlyArray<Answer<SettingsOutcome>>;
  blocks?: ReadonlyArray<Answer<SettingsOutcome>>;
  topUp?: ReadonlyArray<Answer<SettingsOutcome>>;
  deactivate?: ReadonlyArray<Answer<SettingsOutcome>>;
  move?: ReadonlyArray<Answer<SettingsOutcome>>;
  remove?: ReadonlyArray<Answer<SettingsOutcome>>;
  routerReboot?: ReadonlyArray<Answer<SettingsOutcome>>;
  routerConfig?: ReadonlyArray<Answer<SettingsOutcome>>;
}

/** Every change answers the line's settings unchanged unless told otherwise. */
export function startLineSettings(answers: Answers = {}, input: Partial<LineSettingsInput> = {}) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const same = [ok(settings)];
  const actor = createActor(
    lineSettingsMachine.provide({
      actors: {
        loadSettings: answer<SettingsOutcome, string>('loadSettings', answers.load ?? same),
        renameLine: answer<SettingsOutcome, LineChange<string>>('renameLine', answers.rename ?? same),
        setPublicIp: answer<SettingsOutcome, LineChange<boolean>>('setPublicIp', answers.publicIp ?? same),
        setPriorityData: answer<SettingsOutcome, LineChange<boolean>>('setPriorityData', answers.priority ?? same),
        setRecurringBlocks: answer<SettingsOutcome, LineChange<RecurringBlocksPayload>>('setRecurringBlocks', answers.blocks ?? same),
        topUp: answer<SettingsOutcome, LineChange<TopUpPayload>>('topUp', answers.topUp ?? same),
        deactivateLine: answer<SettingsOutcome, LineChange<DeactivateLinePayload>>('deactivateLine', answers.deactivate ?? same),
        moveTerminal: answer<SettingsOutcome, LineChange<MoveTerminalPayload & { deviceId: string }>>('moveTerminal', answers.move ?? same),
        removeTerminal: answer<SettingsOutcome, LineChange<string>>('removeTerminal', answers.remove ?? same),
        rebootRouter: answer<SettingsOutcome, LineChange<string>>('rebootRouter', answers.routerReboot ?? same),
        setRouterConfig: answer<SettingsOutcome, LineChange<RouterConfigPayload & { routerId: string }>>('setRouterConfig', answers.routerConfig ?? same),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
      },
    }),
    { input: { serviceLineNumber: LINE, canEdit: true, canOperate: true, ...input } },
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure };
}

export type Snapshot = SnapshotFrom<typeof lineSettingsMachine>;
/** Nothing is loading or being sent. */
export const settled = (s: Snapshot) => !s.hasTag('loading') && !s.hasTag('busy');

export const retry = { type: 'user.retry' } as const;
export const rename = { type: 'user.rename' } as const;
export const togglePublicIp = { type: 'user.togglePublicIp' } as const;
export const togglePriority = { type: 'user.togglePriority' } as const;
export const editBlocks = { type: 'user.editBlocks' } as const;
export const topUp = { type: 'user.topUp' } as const;
export const deactivate = { type: 'user.deactivate' } as const;
export const submit = { type: 'user.submit' } as const;
export const confirm = { type: 'user.confirm' } as const;
export const back = { type: 'user.back' } as const;
export const close = { type: 'user.close' } as const;
export const nickname = (value: string) => ({ type: 'user.nickname', value }) as const;
export const blockProduct = (productId: string) => ({ type: 'user.blockProduct', productId }) as const;
export const blockCount = (count: number) => ({ type: 'user.blockCount', count }) as const;
export const applyNow = (value: boolean) => ({ type: 'user.applyNow', value }) as const;
export const topUpCount = (count: number) => ({ type: 'user.topUpCount', count }) as const;
export const when = (value: DeactivationWhen) => ({ type: 'user.when', when: value }) as const;
export const reason = (value: string) => ({ type: 'user.reason', value }) as const;
export const move = (deviceId: string) => ({ type: 'user.move', deviceId }) as const;
export const target = (value: string) => ({ type: 'user.target', value }) as const;
export const remove = (deviceId: string) => ({ type: 'user.remove', deviceId }) as const;
export const rebootRouter = (routerId: string) => ({ type: 'user.rebootRouter', routerId }) as const;
export const routerConfig = (routerId: string) => ({ type: 'user.routerConfig', routerId }) as const;
export const configId = (value: string) => ({ type: 'user.configId', configId: value }) as const;
/** The first terminal of the fixture line and the router behind it. */
export const DEVICE = settings.terminals[0]!.deviceId;
export const ROUTER = settings.terminals[0]!.routers[0]!.routerId;
