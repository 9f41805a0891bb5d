/**
 * Terminal Details → Settings: one service line's settings as the provider holds them, and the
 * changes the user's permissions allow, one at a time, each a dialog step.
 *
 *   loading                    the settings are asked for                             (tag: loading)
 *   failed                     why they could not be loaded (`loadError`); Try Again
 *   loaded.idle                the settings; the action buttons the user's permissions offer
 *   loaded.renaming.editing    "Rename Service Line": the nickname (required, at most 100)
 *   loaded.renaming.submitting                                                        (tag: busy)
 *   loaded.publicIp.confirming "Enable / Disable Public IP?"
 *   loaded.publicIp.submitting                                                        (tag: busy)
 *   loaded.priority.confirming "Turn on / off priority data past the limit?"
 *   loaded.priority.submitting                                                        (tag: busy)
 *   loaded.blocks.editing      "Recurring Data Blocks": block, count, also this cycle
 *   loaded.blocks.confirming   the change, with its monthly price
 *   loaded.blocks.submitting                                                          (tag: busy)
 *   loaded.topUp.choosing      "Buy Top-Up": how many blocks (1 to the blocks left this cycle)
 *   loaded.topUp.confirming    the blocks, their data and their price (`topUpPrice`)
 *   loaded.topUp.submitting                                                           (tag: busy)
 *   loaded.deactivating.form   "Deactivate Service Line": now or at the end of the cycle, and a
 *                              reason (required), checked with `deactivationProblems`
 *   loaded.deactivating.confirming  names the customer and the terminals that lose service
 *   loaded.deactivating.submitting                                                    (tag: busy)
 *   loaded.moving.editing      "Move Terminal": the line it goes to (`moveTargetProblem`)
 *   loaded.moving.submitting                                                          (tag: busy)
 *   loaded.removing.confirming "Remove from Line?": the terminal stays on the account, on no line
 *   loaded.removing.submitting                                                        (tag: busy)
 *   loaded.routerReboot.confirming  "Reboot Router?"
 *   loaded.routerReboot.submitting                                                    (tag: busy)
 *   loaded.routerConfig.editing     "Router Configuration": one of the account's, or the default
 *   loaded.routerConfig.submitting                                                    (tag: busy)
 *
 * The actions are offered by the user's permissions, as the server holds them: the line's own
 * configuration (rename, public IP, a router's configuration) to `canEdit` (terminals:manage), and
 * what changes its service or its bill (priority data, blocks, top-up, deactivation, moving or
 * removing a terminal, a router's reboot) to `canOperate` (lifecycle:manage); and each only when
 * the line takes it (an active line; blocks on a Priority plan; a top-up while the
 * cycle has blocks left; a deactivation unless the line is already set to end; a move or removal
 * for a terminal on the active line; a router's reboot or configuration for a router behind one of
 * the line's terminals). Every change is a
 * `submittingStates` state: its answer is the line's fresh settings, which replace the context,
 * with a success toast (`notifySuccess`); a refusal goes back to the step confirmed from with the
 * server's words in it (`failure`) and in a toast (`notifyFailure`).
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  MAX_RECURRING_BLOCKS,
  SERVICE_LINE_MESSAGES,
  deactivationProblems,
  moveTargetProblem,
  nicknameProblem,
  type DeactivateLinePayload,
  type DeactivationWhen,
  type MoveTerminalPayload,
  type RecurringBlocksPayload,
  type RouterConfigPayload,
  type ServiceLineSettingsWire,
  type TopUpPayload,
} from '../domain/service-lines';
import { failureText } from './customer-forms';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export interface LineSettingsInput {
  serviceLineNumber: string;
  /** May change the line's configuration (terminals:manage). */
  canEdit: boolean;
  /** May change the line's service and bill (lifecycle:manage). */
  canOperate: boolean;
}

export type SettingsOutcome = LoadOutcome<ServiceLineSettingsWire>;
export type DeactivationErrors = Partial<Record<'when' | 'reason', string>>;

export interface LineSettingsContext {
  serviceLineNumber: string;
  canEdit: boolean;
  canOperate: boolean;
  settings: ServiceLineSettingsWire | null;
  loadError: string | null;
  /** Rename. */
  nickname: string;
  nicknameError: string | null;
  /** Recurring blocks. */
  blockProductId: string;
  blockCount: number;
  applyNow: boolean;
  /** Top-up. */
  topUpCount: number;
  /** Deactivation: '' until chosen. */
  when: DeactivationWhen | '';
  reason: string;
  deactivationErrors: DeactivationErrors;
  /** The terminal a move or removal is for (its user terminal id). */
  deviceId: string;
  /** Move: the line it goes to, and why that will not do. */
  target: string;
  targetError: string | null;
  /** The router a reboot or configuration is for, and the configuration chosen ('' = the default). */
  routerId: string;
  configId: string;
  /** Why the last request of the open step failed (shown in it as well as the toast). */
  failure: string | null;
}

export type LineSettingsEvent =
  | { type: 'user.retry' }
  | { type: 'user.rename' }
  | { type: 'user.nickname'; value: string }
  | { type: 'user.togglePublicIp' }
  | { type: 'user.togglePriority' }
  | { type: 'user.editBlocks' }
  | { type: 'user.blockProduct'; productId: string }
  | { type: 'user.blockCount'; count: number }
  | { type: 'user.applyNow'; value: boolean }
  | { type: 'user.topUp' }
  | { type: 'user.topUpCount'; count: number }
  | { type: 'user.deactivate' }
  | { type: 'user.when'; when: DeactivationWhen }
  | { type: 'user.reason'; value: string }
  | { type: 'user.move'; deviceId: string }
  | { type: 'user.target'; value: string }
  | { type: 'user.remove'; deviceId: string }
  | { type: 'user.rebootRouter'; routerId: string }
  | { type: 'user.routerConfig'; routerId: string }
  | { type: 'user.configId'; configId: string }
  | { type: 'user.submit' }
  | { type: 'user.confirm' }
  | { type: 'user.back' }
  | { type: 'user.close' };

export interface LineChange<P> {
  serviceLineNumber: string;
  payload: P;
}

export const LINE_SETTINGS_MESSAGES = {
  loadFailed: 'Failed to load the service line settings',
} as const;

const FORMS = {
  nickname: '',
  nicknameError: null,
  blockProductId: '',
  blockCount: 1,
  applyNow: false,
  topUpCount: 1,
  when: '',
  reason: '',
  deactivationErrors: {},
  deviceId: '',
  target: '',
  targetError: null,
  routerId: '',
  configId: '',
  failure: null,
} as const satisfies Partial<LineSettingsContext>;

/** The routers behind the line's terminals. */
const routersOf = (settings: ServiceLineSettingsWire | null) => settings?.terminals.flatMap((t) => t.routers) ?? [];

/** The blocks the line has from the next cycle on (what a change replaces). */
export const currentBlocksOf = (settings: ServiceLineSettingsWire) => settings.nextRecurringBlocks ?? settings.recurringBlocks;

const isWhole = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;
const live = (c: LineSettingsContext) => c.settings !== null && c.settings.active;
const changeable = (c: LineSettingsContext) => c.canEdit && live(c);
const operable = (c: LineSettingsContext) => c.canOperate && live(c);

const lineSettingsSetup = setup({
  types: {
    context: {} as LineSettingsContext,
    events: {} as LineSettingsEvent,
    input: {} as LineSettingsInput,
  },
  actors: {
    loadSettings: fromPromise<SettingsOutcome, string>(async () => {
      throw new Error('loadSettings is provided by the app');
    }),
    renameLine: fromPromise<SettingsOutcome, LineChange<string>>(async () => {
      throw new Error('renameLine is provided by the app');
    }),
    setPublicIp: fromPromise<SettingsOutcome, LineChange<boolean>>(async () => {
      throw new Error('setPublicIp is provided by the app');
    }),
    setPriorityData: fromPromise<SettingsOutcome, LineChange<boolean>>(async () => {
      throw new Error('setPriorityData is provided by the app');
    }),
    setRecurringBlocks: fromPromise<SettingsOutcome, LineChange<RecurringBlocksPayload>>(async () => {
      throw new Error('setRecurringBlocks is provided by the app');
    }),
    topUp: fromPromise<SettingsOutcome, LineChange<TopUpPayload>>(async () => {
      throw new Error('topUp is provided by the app');
    }),
    deactivateLine: fromPromise<SettingsOutcome, LineChange<DeactivateLinePayload>>(async () => {
      throw new Error('deactivateLine is provided by the app');
    }),
    moveTerminal: fromPromise<SettingsOutcome, LineChange<MoveTerminalPayload & { deviceId: string }>>(async () => {
      throw new Error('moveTerminal is provided by the app');
    }),
    removeTerminal: fromPromise<SettingsOutcome, LineChange<string>>(async () => {
      throw new Error('removeTerminal is provided by the app');
    }),
    rebootRouter: fromPromise<SettingsOutcome, LineChange<string>>(async () => {
      throw new Error('rebootRouter is provided by the app');
    }),
    setRouterConfig: fromPromise<SettingsOutcome, LineChange<RouterConfigPayload & { routerId: string }>>(async () => {
      throw new Error('setRouterConfig is provided by the app');
    }),
  },
  actions: {
    storeSettings: assign((_, outcome: SettingsOutcome) => (outcome.ok ? { settings: outcome.data, loadError: null } : {})),
    storeLoadError: assign((_, message: string) => ({ loadError: message.trim() || LINE_SETTINGS_MESSAGES.loadFailed })),
    resetForms: assign(FORMS),
    openRename: assign(({ context }) => ({ ...FORMS, nickname: context.settings?.nickname ?? '' })),
    openBlocks: assign(({ context }) => {
      const current = context.settings ? currentBlocksOf(context.settings) : null;
      return {
        ...FORMS,
        blockProductId: current?.productId ?? context.settings?.blockProducts[0]?.productId ?? '',
        blockCount: current && current.count >= 1 ? current.count : 1,
      };
    }),
    storeNickname: assign((_, value: string) => ({ nickname: value, nicknameError: null, failure: null })),
    storeNicknameError: assign(({ context }) => ({ nicknameError: nicknameProblem(context.nickname) })),
    storeBlockProduct: assign((_, productId: string) => ({ blockProductId: productId, failure: null })),
    storeBlockCount: assign((_, count: number) => ({ blockCount: count, failure: null })),
    storeApplyNow: assign((_, value: boolean) => ({ applyNow: value, failure: null })),
    storeTopUpCount: assign((_, count: number) => ({ topUpCount: count, failure: null })),
    storeWhen: assign(({ context }, when: DeactivationWhen) => ({ when, deactivationErrors: { ...context.deactivationErrors, when: undefined }, failure: null })),
    storeReason: assign(({ context }, value: string) => ({ reason: value, deactivationErrors: { ...context.deactivationErrors, reason: undefined }, failure: null })),
    storeDeactivationErrors: assign(({ context }) => ({ deactivationErrors: deactivationProblems(context) })),
    openForTerminal: assign((_, deviceId: string) => ({ ...FORMS, deviceId })),
    openForRouter: assign(({ context }, routerId: string) => ({ ...FORMS, routerId, configId: routersOf(context.settings).find((r) => r.routerId === routerId)?.configId ?? '' })),
    storeTarget: assign((_, value: string) => ({ target: value, targetError: null, failure: null })),
    storeTargetError: assign(({ context }) => ({ targetError: moveTargetProblem(context.target, context.serviceLineNumber) })),
    storeConfigId: assign((_, configId: string) => ({ configId, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
  },
  guards: {
    isLoaded: (_, outcome: SettingsOutcome) => outcome.ok,
    isDone: (_, outcome: SettingsOutcome) => outcome.ok,
    canChange: ({ context }) => changeable(context),
    canOperate: ({ context }) => operable(context),
    takesBlocks: ({ context }) => operable(context) && context.settings!.planKind === 'blocks' && context.settings!.blockProducts.length > 0,
    takesTopUp: ({ context }) => operable(context) && context.settings!.topUpProduct !== null && context.settings!.topUpBlocksLeft > 0,
    canDeactivate: ({ context }) => operable(context) && context.settings!.endDate === null,
    isNicknameValid: ({ context }) => nicknameProblem(context.nickname) === null,
    isSoldBlock: ({ context }, productId: string) => context.settings?.blockProducts.some((p) => p.productId === productId) ?? false,
    isBlockCount: (_, count: number) => isWhole(count, 1, MAX_RECURRING_BLOCKS),
    isTopUpCount: ({ context }, count: number) => isWhole(count, 1, context.settings?.topUpBlocksLeft ?? 0),
    isDeactivationValid: ({ context }) => Object.keys(deactivationProblems(context)).length === 0,
    hasTerminal: ({ context }, deviceId: string) => operable(context) && context.settings!.terminals.some((t) => t.deviceId === deviceId),
    hasRouter: ({ context }, routerId: string) => context.canEdit && routersOf(context.settings).some((r) => r.routerId === routerId),
    hasRouterToReboot: ({ context }, routerId: string) => context.canOperate && routersOf(context.settings).some((r) => r.routerId === routerId),
    isTargetValid: ({ context }) => moveTargetProblem(context.target, context.serviceLineNumber) === null,
    isConfigChoice: ({ context }, configId: string) => configId === '' || (context.settings?.routerConfigs.some((c) => c.configId === configId) ?? false),
    isConfigChange: ({ context }) => (routersOf(context.settings).find((r) => r.routerId === context.routerId)?.configId ?? '') !== context.configId,
  },
});

const submitting = submittingStates(lineSettingsSetup);
const closeStep = { 'user.close': { target: '#lineSettings.loaded.idle', actions: 'resetForms' } } as const;
const line = (context: LineSettingsContext) => context.serviceLineNumber;
const done = ['resetForms'] as const;

export const lineSettingsMachine = lineSettingsSetup.createMachine({
  id: 'lineSettings',
  context: ({ input }) => ({
    serviceLineNumber: input.serviceLineNumber,
    canEdit: input.canEdit,
    canOperate: input.canOperate,
    settings: null,
    loadError: null,
    ...FORMS,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadSettings',
        src: 'loadSettings',
        input: ({ context }) => context.serviceLineNumber,
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'loaded',
            actions: { type: 'storeSettings', params: ({ event }) => event.output },
          },
          { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => (event.output.ok ? '' : event.output.message) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeLoadError', params: LINE_SETTINGS_MESSAGES.loadFailed } },
      },
    },

    failed: { on: { 'user.retry': 'loading' } },

    loaded: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'user.rename': { guard: 'canChange', target: 'renaming', actions: 'openRename' },
            'user.togglePublicIp': { guard: 'canChange', target: 'publicIp' },
            'user.togglePriority': { guard: 'canOperate', target: 'priority' },
            'user.editBlocks': { guard: 'takesBlocks', target: 'blocks', actions: 'openBlocks' },
            'user.topUp': { guard: 'takesTopUp', target: 'topUp', actions: 'resetForms' },
            'user.deactivate': { guard: 'canDeactivate', target: 'deactivating', actions: 'resetForms' },
            'user.move': {
              guard: { type: 'hasTerminal', params: ({ event }) => event.deviceId },
              target: 'moving',
              actions: { type: 'openForTerminal', params: ({ event }) => event.deviceId },
            },
            'user.remove': {
              guard: { type: 'hasTerminal', params: ({ event }) => event.deviceId },
              target: 'removing',
              actions: { type: 'openForTerminal', params: ({ event }) => event.deviceId },
            },
            'user.rebootRouter': {
              guard: { type: 'hasRouterToReboot', params: ({ event }) => event.routerId },
              target: 'routerReboot',
              actions: { type: 'openForRouter', params: ({ event }) => event.routerId },
            },
            'user.routerConfig': {
              guard: { type: 'hasRouter', params: ({ event }) => event.routerId },
              target: 'routerConfig',
              actions: { type: 'openForRouter', params: ({ event }) => event.routerId },
            },
          },
        },

        renaming: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'user.nickname': { actions: { type: 'storeNickname', params: ({ event }) => event.value } },
                'user.submit': [{ guard: 'isNicknameValid', target: 'submitting' }, { actions: 'storeNicknameError' }],
                ...closeStep,
              },
            },
            submitting: submitting({
              src: 'renameLine',
              input: ({ context }) => ({ serviceLineNumber: line(context), payload: context.nickname.trim() }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [
                  { type: 'notifySuccess', params: SERVICE_LINE_MESSAGES.renamed },
                  { type: 'storeSettings', params: ({ event }) => event.output },
                  ...done,
                ],
              },
              back: 'editing',
              failure: (why) => failureText('rename the service line', why),
            }),
          },
        },

        publicIp: {
          initial: 'confirming',
          states: {
            confirming: { on: { 'user.confirm': 'submitting', ...closeStep } },
            submitting: submitting({
              src: 'setPublicIp',
              input: ({ context }) => ({ serviceLineNumber: line(context), payload: !context.settings!.publicIp }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [
                  {
                    type: 'notifySuccess',
                    params: ({ context }) => (context.settings!.publicIp ? SERVICE_LINE_MESSAGES.publicIpOff : SERVICE_LINE_MESSAGES.publicIpOn),
                  },
                  { type: 'storeSettings', params: ({ event }) => event.output },
                  ...done,
                ],
              },
              back: 'confirming',
              failure: (why) => failureText('change the public IP', why),
            }),
          },
        },

        priority: {
          initial: 'confirming',
          states: {
            confirming: { on: { 'user.confirm': 'submitting', ...closeStep } },
            submitting: submitting({
              src: 'setPriorityData',
              input: ({ context }) => ({ serviceLineNumber: line(context), payload: !context.settings!.optedIn }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [
                  {
                    type: 'notifySuccess',
                    params: ({ context }) => (context.settings!.optedIn ? SERVICE_LINE_MESSAGES.optedOut : SERVICE_LINE_MESSAGES.optedIn),
                  },
                  { type: 'storeSettings', params: ({ event }) => event.output },
                  ...done,
                ],
              },
              back: 'confirming',
              failure: (why) => failureText('change priority data', why),
            }),
          },
        },

        blocks: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'user.blockProduct': {
                  guard: { type: 'isSoldBlock', params: ({ event }) => event.productId },
                  actions: { type: 'storeBlockProduct', params: ({ event }) => event.productId },
                },
                'user.blockCount': {
                  guard: { type: 'isBlockCount', params: ({ event }) => event.count },
                  actions: { type: 'storeBlockCount', params: ({ event }) => event.count },
                },
                'user.applyNow': { actions: { type: 'storeApplyNow', params: ({ event }) => event.value } },
                'user.submit': 'confirming',
                ...closeStep,
              },
            },
            confirming: { on: { 'user.confirm': 'submitting', 'user.back': { target: 'editing', actions: 'clearFailure' }, ...closeStep } },
            submitting: submitting({
              src: 'setRecurringBlocks',
              input: ({ context }) => ({
                serviceLineNumber: line(context),
                payload: { productId: context.blockProductId, count: context.blockCount, applyToCurrentCycle: context.applyNow },
              }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [{ type: 'notifySuccess', params: SERVICE_LINE_MESSAGES.recurringSet }, { type: 'storeSettings', params: ({ event }) => event.output }, ...done],
              },
              back: 'confirming',
              failure: (why) => failureText('update the recurring data blocks', why),
            }),
          },
        },

        topUp: {
          initial: 'choosing',
          states: {
            choosing: {
              on: {
                'user.topUpCount': {
                  guard: { type: 'isTopUpCount', params: ({ event }) => event.count },
                  actions: { type: 'storeTopUpCount', params: ({ event }) => event.count },
                },
                'user.submit': 'confirming',
                ...closeStep,
              },
            },
            confirming: { on: { 'user.confirm': 'submitting', 'user.back': { target: 'choosing', actions: 'clearFailure' }, ...closeStep } },
            submitting: submitting({
              src: 'topUp',
              input: ({ context }) => ({
                serviceLineNumber: line(context),
                payload: { productId: context.settings!.topUpProduct!.productId, count: context.topUpCount },
              }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [{ type: 'notifySuccess', params: SERVICE_LINE_MESSAGES.toppedUp }, { type: 'storeSettings', params: ({ event }) => event.output }, ...done],
              },
              back: 'confirming',
              failure: (why) => failureText('buy the top-up', why),
            }),
          },
        },

        deactivating: {
          initial: 'form',
          states: {
            form: {
              on: {
                'user.when': { actions: { type: 'storeWhen', params: ({ event }) => event.when } },
                'user.reason': { actions: { type: 'storeReason', params: ({ event }) => event.value } },
                'user.submit': [{ guard: 'isDeactivationValid', target: 'confirming' }, { actions: 'storeDeactivationErrors' }],
                ...closeStep,
              },
            },
            confirming: { on: { 'user.confirm': 'submitting', 'user.back': { target: 'form', actions: 'clearFailure' }, ...closeStep } },
            submitting: submitting({
              src: 'deactivateLine',
              input: ({ context }) => ({
                serviceLineNumber: line(context),
                payload: { when: context.when as DeactivationWhen, reason: context.reason.trim() },
              }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [
                  {
                    type: 'notifySuccess',
                    params: ({ context }) => (context.when === 'now' ? SERVICE_LINE_MESSAGES.deactivatedNow : SERVICE_LINE_MESSAGES.deactivationScheduled),
                  },
                  { type: 'storeSettings', params: ({ event }) => event.output },
                  ...done,
                ],
              },
              back: 'confirming',
              failure: (why) => failureText('deactivate the service line', why),
            }),
          },
        },

        moving: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'user.target': { actions: { type: 'storeTarget', params: ({ event }) => event.value } },
                'user.submit': [{ guard: 'isTargetValid', target: 'submitting' }, { actions: 'storeTargetError' }],
                ...closeStep,
              },
            },
            submitting: submitting({
              src: 'moveTerminal',
              input: ({ context }) => ({ serviceLineNumber: line(context), payload: { deviceId: context.deviceId, toServiceLineNumber: context.target.trim() } }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [{ type: 'notifySuccess', params: SERVICE_LINE_MESSAGES.terminalMoved }, { type: 'storeSettings', params: ({ event }) => event.output }, ...done],
              },
              back: 'editing',
              failure: (why) => failureText('move the terminal', why),
            }),
          },
        },

        removing: {
          initial: 'confirming',
          states: {
            confirming: { on: { 'user.confirm': 'submitting', ...closeStep } },
            submitting: submitting({
              src: 'removeTerminal',
              input: ({ context }) => ({ serviceLineNumber: line(context), payload: context.deviceId }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [{ type: 'notifySuccess', params: SERVICE_LINE_MESSAGES.terminalRemoved }, { type: 'storeSettings', params: ({ event }) => event.output }, ...done],
              },
              back: 'confirming',
              failure: (why) => failureText('remove the terminal from the line', why),
            }),
          },
        },

        routerReboot: {
          initial: 'confirming',
          states: {
            confirming: { on: { 'user.confirm': 'submitting', ...closeStep } },
            submitting: submitting({
              src: 'rebootRouter',
              input: ({ context }) => ({ serviceLineNumber: line(context), payload: context.routerId }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [{ type: 'notifySuccess', params: SERVICE_LINE_MESSAGES.routerRebooted }, { type: 'storeSettings', params: ({ event }) => event.output }, ...done],
              },
              back: 'confirming',
              failure: (why) => failureText('reboot the router', why),
            }),
          },
        },

        routerConfig: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'user.configId': {
                  guard: { type: 'isConfigChoice', params: ({ event }) => event.configId },
                  actions: { type: 'storeConfigId', params: ({ event }) => event.configId },
                },
                'user.submit': { guard: 'isConfigChange', target: 'submitting' },
                ...closeStep,
              },
            },
            submitting: submitting({
              src: 'setRouterConfig',
              input: ({ context }) => ({ serviceLineNumber: line(context), payload: { routerId: context.routerId, configId: context.configId === '' ? null : context.configId } }),
              success: {
                target: '#lineSettings.loaded.idle',
                actions: [{ type: 'notifySuccess', params: SERVICE_LINE_MESSAGES.routerConfigSet }, { type: 'storeSettings', params: ({ event }) => event.output }, ...done],
              },
              back: 'editing',
              failure: (why) => failureText('assign the router configuration', why),
            }),
          },
        },
      },
    },
  },
});

export type LineSettingsMachine = typeof lineSettingsMachine;
