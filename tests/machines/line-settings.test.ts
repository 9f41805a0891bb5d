import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { SERVICE_LINE_MESSAGES } from '../../src/domain/service-lines';
import { LINE_SETTINGS_MESSAGES } from '../../src/machines/line-settings';
import { LINE, lineSettingsFixture } from '../fixtures/service-lines';
import { ok, refused } from './scripted-actors';
import {
  applyNow,
  back,
  blockCount,
  blockProduct,
  close,
  configId,
  confirm,
  deactivate,
  DEVICE,
  editBlocks,
  move,
  nickname,
  reason,
  rebootRouter,
  remove,
  rename,
  retry,
  ROUTER,
  routerConfig,
  settings,
  settled,
  startLineSettings,
  submit,
  target,
  togglePriority,
  togglePublicIp,
  topUp,
  topUpCount,
  when,
} from './starters/line-settings';

const loaded = async (actor: ReturnType<typeof startLineSettings>['actor']) => waitFor(actor, (s) => s.matches({ loaded: 'idle' }));

describe('line settings machine: loading', () => {
  it('loads the line named by its input, then shows it', async () => {
    const { actor, called } = startLineSettings();
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    const snapshot = await loaded(actor);
    expect(snapshot.context.settings).toEqual(settings);
    expect(called('loadSettings').map((c) => c.input)).toEqual([LINE]);
  });

  it.each([
    ['a refusal keeps the server’s words', refused('Service line not found'), 'Service line not found'],
    ['a refusal without words', refused(''), LINE_SETTINGS_MESSAGES.loadFailed],
    ['no answer', new TypeError('fetch failed'), LINE_SETTINGS_MESSAGES.loadFailed],
  ])('%s, and Try Again loads again', async (_name, answer, message) => {
    const { actor, called } = startLineSettings({ load: [answer, ok(settings)] });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.loadError).toBe(message);
    actor.send(retry);
    const snapshot = await loaded(actor);
    expect(snapshot.context).toMatchObject({ settings, loadError: null });
    expect(called('loadSettings')).toHaveLength(2);
  });
});

describe('line settings machine: who may change what', () => {
  it('offers nothing to a user whose roles change neither terminals nor the lifecycle', async () => {
    const { actor } = startLineSettings({}, { canEdit: false, canOperate: false });
    const snapshot = await loaded(actor);
    for (const event of [rename, togglePublicIp, togglePriority, editBlocks, topUp, deactivate]) expect(snapshot.can(event)).toBe(false);
  });

  it('offers the configuration alone to terminals:manage, and service changes alone to lifecycle:manage', async () => {
    const configure = await loaded(startLineSettings({}, { canEdit: true, canOperate: false }).actor);
    for (const event of [rename, togglePublicIp, routerConfig(ROUTER)]) expect(configure.can(event)).toBe(true);
    for (const event of [togglePriority, editBlocks, topUp, deactivate, move(DEVICE), remove(DEVICE), rebootRouter(ROUTER)]) expect(configure.can(event)).toBe(false);
    const operate = await loaded(startLineSettings({}, { canEdit: false, canOperate: true }).actor);
    for (const event of [rename, togglePublicIp, routerConfig(ROUTER)]) expect(operate.can(event)).toBe(false);
    for (const event of [togglePriority, editBlocks, topUp, deactivate, move(DEVICE), remove(DEVICE), rebootRouter(ROUTER)]) expect(operate.can(event)).toBe(true);
  });

  it('offers every action to an administrator on an active Priority line', async () => {
    const { actor } = startLineSettings();
    const snapshot = await loaded(actor);
    for (const event of [rename, togglePublicIp, togglePriority, editBlocks, topUp, deactivate]) expect(snapshot.can(event)).toBe(true);
  });

  it('offers no change on an inactive line, no blocks on a metered plan, no top-up with none left, no deactivation of a line already ending', async () => {
    const inactive = await loaded(startLineSettings({ load: [ok(lineSettingsFixture({ active: false }))] }).actor);
    for (const event of [rename, togglePublicIp, togglePriority, editBlocks, topUp, deactivate]) expect(inactive.can(event)).toBe(false);
    const metered = await loaded(startLineSettings({ load: [ok(lineSettingsFixture({ planKind: 'metered', blockProducts: [] }))] }).actor);
    expect(metered.can(editBlocks)).toBe(false);
    expect(metered.can(rename)).toBe(true);
    const spent = await loaded(startLineSettings({ load: [ok(lineSettingsFixture({ topUpBlocksThisCycle: 10, topUpBlocksLeft: 0 }))] }).actor);
    expect(spent.can(topUp)).toBe(false);
    const ending = await loaded(startLineSettings({ load: [ok(lineSettingsFixture({ endDate: '2026-11-30T23:59:59.000Z' }))] }).actor);
    expect(ending.can(deactivate)).toBe(false);
    expect(ending.can(topUp)).toBe(true);
  });
});

describe('line settings machine: rename', () => {
  it('starts from the current name, refuses a blank one inline, sends the trimmed one and takes the answer', async () => {
    const renamed = lineSettingsFixture({ nickname: 'South yard' });
    const { actor, called, notifySuccess } = startLineSettings({ rename: [ok(renamed)] });
    await loaded(actor);
    actor.send(rename);
    expect(actor.getSnapshot().context.nickname).toBe('North yard');
    actor.send(nickname('   '));
    actor.send(submit);
    expect(actor.getSnapshot().matches({ loaded: { renaming: 'editing' } })).toBe(true);
    expect(actor.getSnapshot().context.nicknameError).toBe(SERVICE_LINE_MESSAGES.nicknameRequired);
    actor.send(nickname(' South yard '));
    expect(actor.getSnapshot().context.nicknameError).toBeNull();
    actor.send(submit);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(close)).toBe(false);
    const snapshot = await loaded(actor);
    expect(called('renameLine').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE, payload: 'South yard' }]);
    expect(snapshot.context.settings).toEqual(renamed);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(SERVICE_LINE_MESSAGES.renamed);
  });

  it('a refusal goes back to the name as typed with the server’s words', async () => {
    const { actor, notifyFailure } = startLineSettings({ rename: [refused('The provider refused the nickname')] });
    await loaded(actor);
    actor.send(rename);
    actor.send(nickname('South yard'));
    actor.send(submit);
    const snapshot = await waitFor(actor, (s) => s.matches({ loaded: { renaming: 'editing' } }) && s.context.failure !== null);
    expect(snapshot.context).toMatchObject({ nickname: 'South yard', failure: 'Failed to rename the service line: The provider refused the nickname', settings });
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith('Failed to rename the service line: The provider refused the nickname');
  });
});

describe('line settings machine: public IP and priority data', () => {
  it.each([
    ['enables a disabled public IP', togglePublicIp, 'setPublicIp', settings, true, SERVICE_LINE_MESSAGES.publicIpOn],
    ['disables an enabled public IP', togglePublicIp, 'setPublicIp', lineSettingsFixture({ publicIp: true }), false, SERVICE_LINE_MESSAGES.publicIpOff],
    ['opts in to priority data', togglePriority, 'setPriorityData', settings, true, SERVICE_LINE_MESSAGES.optedIn],
    ['opts out of priority data', togglePriority, 'setPriorityData', lineSettingsFixture({ optedIn: true }), false, SERVICE_LINE_MESSAGES.optedOut],
  ] as const)('%s after a confirmation', async (_name, open, src, start, payload, message) => {
    const answer = lineSettingsFixture({ publicIp: src === 'setPublicIp' ? payload : start.publicIp, optedIn: src === 'setPriorityData' ? payload : start.optedIn });
    const { actor, called, notifySuccess } = startLineSettings({ load: [ok(start)], publicIp: [ok(answer)], priority: [ok(answer)] });
    await loaded(actor);
    actor.send(open);
    expect(called(src)).toHaveLength(0);
    actor.send(confirm);
    const snapshot = await loaded(actor);
    expect(called(src).map((c) => c.input)).toEqual([{ serviceLineNumber: LINE, payload }]);
    expect(snapshot.context.settings).toEqual(answer);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(message);
  });

  it('Cancel sends nothing; a provider outage stays on the confirmation', async () => {
    const { actor, called, notifyFailure } = startLineSettings({ publicIp: [new TypeError('fetch failed')] });
    await loaded(actor);
    actor.send(togglePublicIp);
    actor.send(close);
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
    expect(called('setPublicIp')).toHaveLength(0);
    actor.send(togglePublicIp);
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches({ loaded: { publicIp: 'confirming' } }) && s.context.failure !== null);
    expect(snapshot.context.failure).toBe('Failed to change the public IP. Please try again.');
    expect(notifyFailure).toHaveBeenCalledOnce();
  });
});

describe('line settings machine: recurring blocks', () => {
  it('starts from the blocks the line has, takes a sold block and a count, confirms and sends them', async () => {
    const { actor, called, notifySuccess } = startLineSettings();
    await loaded(actor);
    actor.send(editBlocks);
    expect(actor.getSnapshot().context).toMatchObject({ blockProductId: 'block-50', blockCount: 2, applyNow: false });
    actor.send(blockProduct('block-unknown'));
    actor.send(blockCount(0));
    actor.send(blockCount(101));
    expect(actor.getSnapshot().context).toMatchObject({ blockProductId: 'block-50', blockCount: 2 });
    actor.send(blockProduct('block-1tb'));
    actor.send(blockCount(3));
    actor.send(applyNow(true));
    actor.send(submit);
    expect(actor.getSnapshot().matches({ loaded: { blocks: 'confirming' } })).toBe(true);
    actor.send(back);
    expect(actor.getSnapshot().context).toMatchObject({ blockProductId: 'block-1tb', blockCount: 3, applyNow: true });
    actor.send(submit);
    actor.send(confirm);
    await loaded(actor);
    expect(called('setRecurringBlocks').map((c) => c.input)).toEqual([
      { serviceLineNumber: LINE, payload: { productId: 'block-1tb', count: 3, applyToCurrentCycle: true } },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(SERVICE_LINE_MESSAGES.recurringSet);
  });
});

describe('line settings machine: top-up', () => {
  it('takes a count up to the blocks left, confirms and buys', async () => {
    const bought = lineSettingsFixture({ topUpBlocksThisCycle: 4, topUpBlocksLeft: 6 });
    const { actor, called, notifySuccess } = startLineSettings({ topUp: [ok(bought)] });
    await loaded(actor);
    actor.send(topUp);
    expect(actor.getSnapshot().context.topUpCount).toBe(1);
    actor.send(topUpCount(10));
    expect(actor.getSnapshot().context.topUpCount).toBe(1);
    actor.send(topUpCount(3));
    actor.send(submit);
    expect(actor.getSnapshot().matches({ loaded: { topUp: 'confirming' } })).toBe(true);
    actor.send(confirm);
    const snapshot = await loaded(actor);
    expect(called('topUp').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE, payload: { productId: 'topup-50', count: 3 } }]);
    expect(snapshot.context.settings).toEqual(bought);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(SERVICE_LINE_MESSAGES.toppedUp);
  });

  it('the provider’s refusal stays on the confirmation in its own words', async () => {
    const words = SERVICE_LINE_MESSAGES.topUpLimit(0);
    const { actor } = startLineSettings({ topUp: [refused(words)] });
    await loaded(actor);
    actor.send(topUp);
    actor.send(submit);
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches({ loaded: { topUp: 'confirming' } }) && s.context.failure !== null);
    expect(snapshot.context.failure).toBe(`Failed to buy the top-up: ${words}`);
    actor.send(back);
    expect(actor.getSnapshot().context.failure).toBeNull();
  });
});

describe('line settings machine: deactivate', () => {
  it('needs when and a reason, then confirms and deactivates at the end of the cycle', async () => {
    const ending = lineSettingsFixture({ endDate: '2026-11-30T23:59:59.000Z' });
    const { actor, called, notifySuccess } = startLineSettings({ deactivate: [ok(ending)] });
    await loaded(actor);
    actor.send(deactivate);
    actor.send(submit);
    expect(actor.getSnapshot().matches({ loaded: { deactivating: 'form' } })).toBe(true);
    expect(actor.getSnapshot().context.deactivationErrors).toEqual({
      when: SERVICE_LINE_MESSAGES.whenInvalid,
      reason: SERVICE_LINE_MESSAGES.reasonRequired,
    });
    actor.send(when('end_of_cycle'));
    actor.send(reason('  Customer moved  '));
    expect(actor.getSnapshot().context.deactivationErrors).toEqual({ when: undefined, reason: undefined });
    actor.send(submit);
    expect(actor.getSnapshot().matches({ loaded: { deactivating: 'confirming' } })).toBe(true);
    actor.send(confirm);
    const snapshot = await loaded(actor);
    expect(called('deactivateLine').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE, payload: { when: 'end_of_cycle', reason: 'Customer moved' } }]);
    expect(snapshot.context.settings).toEqual(ending);
    expect(snapshot.can(deactivate)).toBe(false);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(SERVICE_LINE_MESSAGES.deactivationScheduled);
  });

  it('now: says it is deactivated; a refusal comes back to the confirmation with the provider’s words', async () => {
    const { actor, notifySuccess, notifyFailure } = startLineSettings({
      deactivate: [refused('Service line has pending changes'), ok(lineSettingsFixture({ active: false }))],
    });
    await loaded(actor);
    actor.send(deactivate);
    actor.send(when('now'));
    actor.send(reason('Fraud'));
    actor.send(submit);
    actor.send(confirm);
    const refusedAt = await waitFor(actor, (s) => s.matches({ loaded: { deactivating: 'confirming' } }) && s.context.failure !== null);
    expect(refusedAt.context).toMatchObject({ when: 'now', reason: 'Fraud', failure: 'Failed to deactivate the service line: Service line has pending changes' });
    expect(notifyFailure).toHaveBeenCalledOnce();
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches({ loaded: 'idle' }) && settled(s));
    expect(snapshot.context.settings!.active).toBe(false);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(SERVICE_LINE_MESSAGES.deactivatedNow);
  });

  it('closing forgets what was typed', async () => {
    const { actor } = startLineSettings();
    await loaded(actor);
    actor.send(deactivate);
    actor.send(when('now'));
    actor.send(reason('Fraud'));
    actor.send(close);
    actor.send(deactivate);
    expect(actor.getSnapshot().context).toMatchObject({ when: '', reason: '', deactivationErrors: {}, failure: null });
  });
});

describe('line settings machine: terminals and routers', () => {
  it('moves a terminal: the target is required, a line number and not this line; the trimmed one is sent with the terminal', async () => {
    const { actor, called, notifySuccess } = startLineSettings();
    await loaded(actor);
    actor.send(move('ut-unknown'));
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
    actor.send(move(DEVICE));
    expect(actor.getSnapshot().context).toMatchObject({ deviceId: DEVICE, target: '', targetError: null });
    actor.send(submit);
    expect(actor.getSnapshot().context.targetError).toBe(SERVICE_LINE_MESSAGES.targetRequired);
    actor.send(target(LINE));
    actor.send(submit);
    expect(actor.getSnapshot().context.targetError).toBe(SERVICE_LINE_MESSAGES.sameLine);
    actor.send(target('not a line!'));
    actor.send(submit);
    expect(actor.getSnapshot().context.targetError).toBe(SERVICE_LINE_MESSAGES.targetInvalid);
    actor.send(target('  AST-1-2-3  '));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }) && settled(s));
    expect(called('moveTerminal').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE, payload: { deviceId: DEVICE, toServiceLineNumber: 'AST-1-2-3' } }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(SERVICE_LINE_MESSAGES.terminalMoved);
  });

  it('a refused move stays in the form with the server’s words; a removal is confirmed first', async () => {
    const words = SERVICE_LINE_MESSAGES.movedHalfway(LINE, 'AST-1-2-3', 'Service line is full');
    const { actor, called, notifyFailure } = startLineSettings({ move: [refused(words)] });
    await loaded(actor);
    actor.send(move(DEVICE));
    actor.send(target('AST-1-2-3'));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches({ loaded: { moving: 'editing' } }) && s.context.failure !== null);
    expect(back.context.failure).toBe(`Failed to move the terminal: ${words}`);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(`Failed to move the terminal: ${words}`);
    actor.send(close);
    actor.send(remove(DEVICE));
    expect(actor.getSnapshot().matches({ loaded: { removing: 'confirming' } })).toBe(true);
    expect(called('removeTerminal')).toEqual([]);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }) && settled(s));
    expect(called('removeTerminal').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE, payload: DEVICE }]);
  });

  it('reboots a router behind the line after confirming; an unknown router opens nothing', async () => {
    const { actor, called, notifySuccess } = startLineSettings();
    await loaded(actor);
    actor.send(rebootRouter('Router-unknown'));
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
    actor.send(rebootRouter(ROUTER));
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }) && settled(s));
    expect(called('rebootRouter').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE, payload: ROUTER }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(SERVICE_LINE_MESSAGES.routerRebooted);
  });

  it("starts from the router's configuration, takes only the account's, sends nothing unchanged and null for the default", async () => {
    const withConfig = lineSettingsFixture({
      terminals: [{ ...settings.terminals[0]!, routers: [{ routerId: ROUTER, nickname: null, configId: 'rc-crew' }] }],
    });
    const { actor, called } = startLineSettings({ load: [ok(withConfig)], routerConfig: [ok(withConfig)] });
    await loaded(actor);
    actor.send(routerConfig(ROUTER));
    expect(actor.getSnapshot().context.configId).toBe('rc-crew');
    actor.send(configId('rc-not-ours'));
    expect(actor.getSnapshot().context.configId).toBe('rc-crew');
    actor.send(submit);
    expect(actor.getSnapshot().matches({ loaded: { routerConfig: 'editing' } })).toBe(true);
    actor.send(configId(''));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }) && settled(s));
    expect(called('setRouterConfig').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE, payload: { routerId: ROUTER, configId: null } }]);
  });

  it('offers no terminal or router change to a user who is not an administrator, and no terminal change on an inactive line', async () => {
    const reader = startLineSettings({}, { canEdit: false, canOperate: false });
    const s = await loaded(reader.actor);
    expect(s.can(move(DEVICE))).toBe(false);
    expect(s.can(rebootRouter(ROUTER))).toBe(false);
    const ended = startLineSettings({ load: [ok(lineSettingsFixture({ active: false }))] });
    const e = await loaded(ended.actor);
    expect(e.can(move(DEVICE))).toBe(false);
    expect(e.can(remove(DEVICE))).toBe(false);
    // A router can still be rebooted behind a line that ended.
    expect(e.can(rebootRouter(ROUTER))).toBe(true);
  });
});
