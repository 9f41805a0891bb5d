// Terminal Details → Settings (lineSettings machine): its generated paths walked on the machine and
// through the Settings tab of the dialog opened from a row of /terminals, as an administrator and as
// a portal user who is not one (the settings only), plus journeys pinned by hand. Each dialog step
// is a dialog of its own over the Terminal Details dialog.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { SERVICE_LINE_MESSAGES, topUpPrice, type ServiceLineSettingsWire } from '../../../src/domain/service-lines';
import { LINE_SETTINGS_MESSAGES, lineSettingsMachine, type LineSettingsInput } from '../../../src/machines/line-settings';
import { LINE_SETTINGS_TEXTS, dataText, priceText } from '../../../src/ui/terminals/detail/SettingsTab';
import { adminProfile, userProfile } from '../../machines/fixtures';
import { lineSettingsFixture } from '../../fixtures/service-lines';
import { terminalRowWire } from '../../fixtures/terminals-client';
import { fleetHealth } from '../../fixtures/terminals-ui';
import { ok, refused } from '../../machines/scripted-actors';
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
  startLineSettings,
  submit,
  target,
  togglePriority,
  togglePublicIp,
  topUp,
  topUpCount,
  when,
} from '../../machines/starters/line-settings';
import { defineModel, done, failed, type UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { enteredDialog } from '../../ui/dialogs';

const LINE = 'AST-511274-31364-54';
/** The active line a terminal is moved to on the paths. */
const OTHER_LINE = 'AST-600100-20020-11';
const settings = lineSettingsFixture({ serviceLineNumber: LINE });
/** What every change answers on the paths: the line after it (renamed, public IP and priority on, blocks and a top-up bought, set to end). */
const after: ServiceLineSettingsWire = {
  ...settings,
  nickname: 'South yard',
  publicIp: true,
  optedIn: true,
  nextRecurringBlocks: { productId: 'block-1tb', count: 3, dataGB: 3000 },
  topUpBlocksThisCycle: 4,
  topUpBlocksLeft: 6,
  endDate: '2099-11-30T23:59:59.000Z',
};
const PROVIDER_WORDS = 'The provider refused the change';
const admin: LineSettingsInput = { serviceLineNumber: LINE, canEdit: true, canOperate: true };
const reader: LineSettingsInput = { serviceLineNumber: LINE, canEdit: false, canOperate: false };

const rows = [terminalRowWire({ service_line_number: LINE })];
const TERMINAL_DIALOG = 'Terminal Details';
const HEADERS = [
  LINE_SETTINGS_TEXTS.renameHeader,
  LINE_SETTINGS_TEXTS.publicIpHeader,
  LINE_SETTINGS_TEXTS.priorityHeader,
  LINE_SETTINGS_TEXTS.blocksHeader,
  LINE_SETTINGS_TEXTS.topUpHeader,
  LINE_SETTINGS_TEXTS.deactivateHeader,
  LINE_SETTINGS_TEXTS.moveHeader,
  LINE_SETTINGS_TEXTS.removeHeader,
  LINE_SETTINGS_TEXTS.rebootRouterHeader,
  LINE_SETTINGS_TEXTS.routerConfigHeader,
] as const;
type Header = (typeof HEADERS)[number];
/** The button that confirms each step (the toggles' say what they do). */
const CONFIRM: Record<Header, readonly string[]> = {
  [LINE_SETTINGS_TEXTS.renameHeader]: [LINE_SETTINGS_TEXTS.save],
  [LINE_SETTINGS_TEXTS.publicIpHeader]: [LINE_SETTINGS_TEXTS.enable, LINE_SETTINGS_TEXTS.disable],
  [LINE_SETTINGS_TEXTS.priorityHeader]: [LINE_SETTINGS_TEXTS.turnOn, LINE_SETTINGS_TEXTS.turnOff],
  [LINE_SETTINGS_TEXTS.blocksHeader]: [LINE_SETTINGS_TEXTS.updateBlocks],
  [LINE_SETTINGS_TEXTS.topUpHeader]: [LINE_SETTINGS_TEXTS.buy],
  [LINE_SETTINGS_TEXTS.deactivateHeader]: [LINE_SETTINGS_TEXTS.confirmDeactivate],
  [LINE_SETTINGS_TEXTS.moveHeader]: [],
  [LINE_SETTINGS_TEXTS.removeHeader]: [LINE_SETTINGS_TEXTS.removeAction],
  [LINE_SETTINGS_TEXTS.rebootRouterHeader]: [LINE_SETTINGS_TEXTS.reboot],
  [LINE_SETTINGS_TEXTS.routerConfigHeader]: [],
};
/** The button that submits each form step. */
const SUBMIT: Partial<Record<Header, string>> = {
  [LINE_SETTINGS_TEXTS.renameHeader]: LINE_SETTINGS_TEXTS.save,
  [LINE_SETTINGS_TEXTS.moveHeader]: LINE_SETTINGS_TEXTS.moveAction,
  [LINE_SETTINGS_TEXTS.routerConfigHeader]: LINE_SETTINGS_TEXTS.assign,
};
const kitOf = (deviceId: string) => settings.terminals.find((t) => t.deviceId === deviceId)!.kitSerialNumber;
const routerOf = (routerId: string) => settings.terminals.flatMap((t) => t.routers).find((r) => r.routerId === routerId)!;
const routerLabel = (routerId: string) => routerOf(routerId).nickname ?? routerId;
/** How the configuration dropdown names a choice ('' is the account's default). */
const configLabel = (id: string) => (id === '' ? LINE_SETTINGS_TEXTS.defaultConfig : (settings.routerConfigs.find((c) => c.configId === id)?.nickname ?? id));

const terminalDialog = () => within(screen.getByRole('dialog', { name: TERMINAL_DIALOG }));
const panel = () => within(terminalDialog().getByRole('tabpanel'));
const stepDialog = (name: Header) => within(screen.getByRole('dialog', { name }));
const stepDialogs = () => screen.queryAllByRole('dialog').filter((d) => HEADERS.some((h) => d.textContent?.includes(h)) && !d.textContent?.includes('Terminal Details'));
/** The one step dialog open now, and its header. */
function openStep(): { header: Header; dialog: ReturnType<typeof within> } {
  const found = screen.queryAllByRole('dialog').map((d) => {
    const id = d.getAttribute('aria-labelledby');
    return { d, header: (id ? document.getElementById(id)?.textContent : null) ?? '' };
  });
  const step = found.find((f) => (HEADERS as readonly string[]).includes(f.header));
  if (!step) throw new Error(`No step dialog is open (found ${found.map((f) => f.header).join(', ')})`);
  return { header: step.header as Header, dialog: within(step.d) };
}
const buttonIn = (dialog: ReturnType<typeof within>, name: string) => dialog.getByRole('button', { name }) as HTMLButtonElement;
const field = (label: string) => panel().getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

/** A step dialog ready for input: its buttons enabled, and the failure (the server's words) in it when there was one. */
function expectStepReady(header: Header, primary: string, failure: string | null) {
  const dialog = stepDialog(header);
  expect(buttonIn(dialog, primary).disabled).toBe(false);
  expect(dialog.getByRole('button', { name: 'Close' })).toBeTruthy();
  if (failure) expect(dialog.getByText(failure)).toBeTruthy();
  else expect(dialog.queryByText(new RegExp(PROVIDER_WORDS))).toBeNull();
}
/** A step whose request runs: its button says so and nothing can be pressed or closed. */
function expectStepBusy(header: Header, busyLabel: string) {
  const dialog = stepDialog(header);
  expect(buttonIn(dialog, busyLabel).disabled).toBe(true);
  expect(dialog.queryByRole('button', { name: 'Close' })).toBeNull();
  // A Dropdown's trigger is a button by role only; the Dropdown is checked as a whole below.
  for (const b of dialog.getAllByRole('button')) {
    if (b instanceof HTMLButtonElement) expect(b.disabled).toBe(true);
    else expect(b.closest('.p-dropdown')?.classList.contains('p-disabled')).toBe(true);
  }
}
async function pickOption(page: PageScreen, dialog: ReturnType<typeof within>, label: string, option: string) {
  await page.user.click(dialog.getByLabelText(label).closest('.p-dropdown')!);
  await page.user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
}
const blocksWord = (n: number) => (n === 1 ? '1 block' : `${n} blocks`);

const ui = {
  open: async (seam, input) => {
    const profile = input!.canEdit ? adminProfile : userProfile;
    const page = openPage(
      '/terminals',
      seam,
      {
        'GET /api/v1/terminals': { body: { success: true, message: 'ok', data: { results: rows, totalCount: rows.length, page: 1, limit: 25 } } },
        'GET /api/v1/terminals/health': { body: { success: true, message: 'ok', data: fleetHealth({ total: rows.length }) } },
      },
      profile,
    );
    await page.user.click(await screen.findByRole('button', { name: `View details of ${LINE}` }, { timeout: 5000 }));
    await enteredDialog(TERMINAL_DIALOG);
    await page.user.click(terminalDialog().getByRole('tab', { name: 'Settings' }));
    return page;
  },
  events: {
    'user.retry': async ({ user }) => user.click(panel().getByRole('button', { name: 'Try Again' })),
    'user.rename': async ({ user }) => user.click(panel().getByRole('button', { name: LINE_SETTINGS_TEXTS.rename })),
    'user.togglePublicIp': async ({ user }) => user.click(panel().getByRole('button', { name: /Public IP$/ })),
    'user.togglePriority': async ({ user }) => user.click(panel().getByRole('button', { name: /Priority Data$/ })),
    'user.editBlocks': async ({ user }) => user.click(panel().getByRole('button', { name: LINE_SETTINGS_TEXTS.editBlocks })),
    'user.topUp': async ({ user }) => user.click(panel().getByRole('button', { name: LINE_SETTINGS_TEXTS.topUp })),
    'user.deactivate': async ({ user }) => user.click(panel().getByRole('button', { name: LINE_SETTINGS_TEXTS.deactivate })),
    'user.nickname': async ({ user }, event) => {
      const input = stepDialog(LINE_SETTINGS_TEXTS.renameHeader).getByLabelText('Nickname');
      await user.click(input);
      await user.clear(input);
      // Pasted: one input event, as the step is one event. Clicked again first: the dialog may have
      // taken the focus to itself as it finished opening.
      if (event.value) {
        await user.click(input);
        await user.paste(event.value);
      }
    },
    'user.blockProduct': async ({ user }, event) => {
      const product = settings.blockProducts.find((p) => p.productId === event.productId)!;
      await user.click(stepDialog(LINE_SETTINGS_TEXTS.blocksHeader).getByLabelText(`${dataText(product.dataGB)} · ${priceText(product.price, product.currency)} a block`));
    },
    'user.blockCount': async (page, event) => pickOption(page, stepDialog(LINE_SETTINGS_TEXTS.blocksHeader), 'Blocks a month', blocksWord(event.count)),
    'user.applyNow': async ({ user }) => user.click(stepDialog(LINE_SETTINGS_TEXTS.blocksHeader).getByLabelText('Also add them to this cycle now')),
    'user.topUpCount': async (page, event) => pickOption(page, stepDialog(LINE_SETTINGS_TEXTS.topUpHeader), 'Blocks', blocksWord(event.count)),
    'user.when': async ({ user }, event) =>
      user.click(stepDialog(LINE_SETTINGS_TEXTS.deactivateHeader).getByLabelText(event.when === 'now' ? 'Now' : 'At the end of the billing cycle')),
    'user.reason': async ({ user }, event) => {
      const input = stepDialog(LINE_SETTINGS_TEXTS.deactivateHeader).getByLabelText('Reason');
      await user.click(input);
      await user.clear(input);
      if (event.value) {
        await user.click(input);
        await user.paste(event.value);
      }
    },
    'user.move': async ({ user }, event) => user.click(panel().getByRole('button', { name: `Move ${kitOf(event.deviceId)}` })),
    'user.remove': async ({ user }, event) => user.click(panel().getByRole('button', { name: `Remove ${kitOf(event.deviceId)} from the line` })),
    'user.rebootRouter': async ({ user }, event) => user.click(panel().getByRole('button', { name: `Reboot router ${routerLabel(event.routerId)}` })),
    'user.routerConfig': async ({ user }, event) => user.click(panel().getByRole('button', { name: `Configure router ${routerLabel(event.routerId)}` })),
    'user.target': async ({ user }, event) => {
      const input = stepDialog(LINE_SETTINGS_TEXTS.moveHeader).getByLabelText('To Service Line');
      await user.click(input);
      await user.clear(input);
      if (event.value) {
        await user.click(input);
        await user.paste(event.value);
      }
    },
    'user.configId': async (page, event) => pickOption(page, stepDialog(LINE_SETTINGS_TEXTS.routerConfigHeader), 'Configuration', configLabel(event.configId)),
    'user.submit': async ({ user }) => {
      const { header, dialog } = openStep();
      await user.click(buttonIn(dialog, SUBMIT[header] ?? LINE_SETTINGS_TEXTS.continue));
    },
    'user.confirm': async ({ user }) => {
      const { header, dialog } = openStep();
      const name = CONFIRM[header].find((label) => dialog.queryByRole('button', { name: label }));
      await user.click(buttonIn(dialog, name!));
    },
    'user.back': async ({ user }) => user.click(buttonIn(openStep().dialog, LINE_SETTINGS_TEXTS.back)),
    'user.close': async ({ user }) => user.click(buttonIn(openStep().dialog, 'Close')),
  },
  states: {
    loading: () => {
      expect(panel().getByRole('status').textContent).toContain(LINE_SETTINGS_TEXTS.loading);
      expect(panel().queryByText('Service Line Number', { selector: 'dt' })).toBeNull();
    },
    failed: ({ context }) => {
      expect(panel().getByRole('alert').textContent).toContain(context.loadError!);
      expect(panel().getByRole('button', { name: 'Try Again' })).toBeTruthy();
      expect(panel().queryByText('Service Line Number', { selector: 'dt' })).toBeNull();
    },
    'loaded.idle': ({ context }) => {
      const s = context.settings!;
      expect(stepDialogs()).toEqual([]);
      expect(panel().queryByRole('status')).toBeNull();
      expect(field('Name')).toBe(s.nickname);
      expect(field('Public IP')).toBe(s.publicIp ? 'Enabled' : 'Disabled');
      expect(field('Priority Data Past the Limit')).toBe(s.optedIn ? 'On' : 'Off');
      expect(field('Left This Cycle')).toBe(blocksWord(s.topUpBlocksLeft));
      expect(field('Status')).toContain(s.endDate ? 'Ends on 30 Nov 2099' : 'Active');
      if (context.canEdit) {
        expect(panel().getByRole('button', { name: LINE_SETTINGS_TEXTS.rename })).toBeTruthy();
        expect(panel().getByRole('button', { name: s.publicIp ? LINE_SETTINGS_TEXTS.disablePublicIp : LINE_SETTINGS_TEXTS.enablePublicIp })).toBeTruthy();
        expect(panel().getByRole('button', { name: s.optedIn ? LINE_SETTINGS_TEXTS.priorityOff : LINE_SETTINGS_TEXTS.priorityOn })).toBeTruthy();
        expect(panel().getByRole('button', { name: LINE_SETTINGS_TEXTS.topUp })).toBeTruthy();
        // A line already set to end cannot be deactivated again.
        expect(panel().queryByRole('button', { name: LINE_SETTINGS_TEXTS.deactivate }) === null).toBe(s.endDate !== null);
      } else {
        expect(panel().queryAllByRole('button')).toEqual([]);
        expect(panel().getByText(LINE_SETTINGS_TEXTS.readOnly)).toBeTruthy();
      }
    },
    'loaded.renaming.editing': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.renameHeader, LINE_SETTINGS_TEXTS.save, context.failure);
      const input = stepDialog(LINE_SETTINGS_TEXTS.renameHeader).getByLabelText('Nickname') as HTMLInputElement;
      expect(input.value).toBe(context.nickname);
      expect(input.getAttribute('aria-invalid')).toBe(context.nicknameError ? 'true' : null);
      if (context.nicknameError) expect(stepDialog(LINE_SETTINGS_TEXTS.renameHeader).getByText(context.nicknameError)).toBeTruthy();
    },
    'loaded.renaming.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.renameHeader, LINE_SETTINGS_TEXTS.saving),
    'loaded.publicIp.confirming': ({ context }) => {
      const enabling = !context.settings!.publicIp;
      expectStepReady(LINE_SETTINGS_TEXTS.publicIpHeader, enabling ? LINE_SETTINGS_TEXTS.enable : LINE_SETTINGS_TEXTS.disable, context.failure);
      expect(stepDialog(LINE_SETTINGS_TEXTS.publicIpHeader).getByText(new RegExp(`^${enabling ? 'Enable' : 'Disable'} the public IP of`))).toBeTruthy();
    },
    'loaded.publicIp.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.publicIpHeader, LINE_SETTINGS_TEXTS.saving),
    'loaded.priority.confirming': ({ context }) => {
      const on = !context.settings!.optedIn;
      expectStepReady(LINE_SETTINGS_TEXTS.priorityHeader, on ? LINE_SETTINGS_TEXTS.turnOn : LINE_SETTINGS_TEXTS.turnOff, context.failure);
    },
    'loaded.priority.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.priorityHeader, LINE_SETTINGS_TEXTS.saving),
    'loaded.blocks.editing': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.blocksHeader, LINE_SETTINGS_TEXTS.continue, context.failure);
      const dialog = stepDialog(LINE_SETTINGS_TEXTS.blocksHeader);
      for (const p of context.settings!.blockProducts) {
        const radio = dialog.getByLabelText(`${dataText(p.dataGB)} · ${priceText(p.price, p.currency)} a block`) as HTMLInputElement;
        expect(radio.checked).toBe(p.productId === context.blockProductId);
      }
      expect((dialog.getByLabelText('Blocks a month') as HTMLInputElement).value).toBe(blocksWord(context.blockCount));
      expect((dialog.getByLabelText('Also add them to this cycle now') as HTMLInputElement).checked).toBe(context.applyNow);
    },
    'loaded.blocks.confirming': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.blocksHeader, LINE_SETTINGS_TEXTS.updateBlocks, context.failure);
      const product = context.settings!.blockProducts.find((p) => p.productId === context.blockProductId)!;
      const text = stepDialog(LINE_SETTINGS_TEXTS.blocksHeader).getByText(/a month/).textContent!;
      expect(text).toContain(`${blocksWord(context.blockCount)} of ${dataText(product.dataGB)}`);
      expect(text).toContain(priceText(topUpPrice(product, context.blockCount), product.currency));
      expect(text.includes('added to this cycle now')).toBe(context.applyNow);
    },
    'loaded.blocks.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.blocksHeader, LINE_SETTINGS_TEXTS.updating),
    'loaded.topUp.choosing': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.topUpHeader, LINE_SETTINGS_TEXTS.continue, context.failure);
      expect((stepDialog(LINE_SETTINGS_TEXTS.topUpHeader).getByLabelText('Blocks') as HTMLInputElement).value).toBe(blocksWord(context.topUpCount));
    },
    'loaded.topUp.confirming': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.topUpHeader, LINE_SETTINGS_TEXTS.buy, context.failure);
      const product = context.settings!.topUpProduct!;
      // The price before anything is bought.
      expect(stepDialog(LINE_SETTINGS_TEXTS.topUpHeader).getByText(priceText(topUpPrice(product, context.topUpCount), product.currency))).toBeTruthy();
    },
    'loaded.topUp.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.topUpHeader, LINE_SETTINGS_TEXTS.buying),
    'loaded.deactivating.form': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.deactivateHeader, LINE_SETTINGS_TEXTS.continue, context.failure);
      const dialog = stepDialog(LINE_SETTINGS_TEXTS.deactivateHeader);
      expect((dialog.getByLabelText('Now') as HTMLInputElement).checked).toBe(context.when === 'now');
      expect((dialog.getByLabelText('At the end of the billing cycle') as HTMLInputElement).checked).toBe(context.when === 'end_of_cycle');
      expect((dialog.getByLabelText('Reason') as HTMLTextAreaElement).value).toBe(context.reason);
      for (const problem of Object.values(context.deactivationErrors)) if (problem) expect(dialog.getByText(problem)).toBeTruthy();
      if (!context.deactivationErrors.reason) expect(dialog.queryByText(SERVICE_LINE_MESSAGES.reasonRequired)).toBeNull();
    },
    'loaded.deactivating.confirming': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.deactivateHeader, LINE_SETTINGS_TEXTS.confirmDeactivate, context.failure);
      const dialog = stepDialog(LINE_SETTINGS_TEXTS.deactivateHeader);
      expect(dialog.getByText(context.settings!.customer!.name)).toBeTruthy();
      expect(dialog.getByRole('list', { name: 'Terminals losing service' }).textContent).toContain('KIT00001');
      expect(dialog.getByLabelText('Reason').textContent).toBe(context.reason.trim());
    },
    'loaded.deactivating.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.deactivateHeader, LINE_SETTINGS_TEXTS.deactivating),
    'loaded.moving.editing': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.moveHeader, LINE_SETTINGS_TEXTS.moveAction, context.failure);
      const dialog = stepDialog(LINE_SETTINGS_TEXTS.moveHeader);
      expect(dialog.getByRole('form').textContent).toContain(kitOf(context.deviceId));
      const input = dialog.getByLabelText('To Service Line') as HTMLInputElement;
      expect(input.value).toBe(context.target);
      expect(input.getAttribute('aria-invalid')).toBe(context.targetError ? 'true' : null);
      if (context.targetError) expect(dialog.getByText(context.targetError)).toBeTruthy();
    },
    'loaded.moving.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.moveHeader, LINE_SETTINGS_TEXTS.moving),
    'loaded.removing.confirming': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.removeHeader, LINE_SETTINGS_TEXTS.removeAction, context.failure);
      expect(stepDialog(LINE_SETTINGS_TEXTS.removeHeader).getByText(new RegExp(kitOf(context.deviceId)))).toBeTruthy();
    },
    'loaded.removing.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.removeHeader, LINE_SETTINGS_TEXTS.removing),
    'loaded.routerReboot.confirming': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.rebootRouterHeader, LINE_SETTINGS_TEXTS.reboot, context.failure);
      expect(stepDialog(LINE_SETTINGS_TEXTS.rebootRouterHeader).getByText(routerLabel(context.routerId))).toBeTruthy();
    },
    'loaded.routerReboot.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.rebootRouterHeader, LINE_SETTINGS_TEXTS.rebooting),
    'loaded.routerConfig.editing': ({ context }) => {
      expectStepReady(LINE_SETTINGS_TEXTS.routerConfigHeader, LINE_SETTINGS_TEXTS.assign, context.failure);
      const dialog = stepDialog(LINE_SETTINGS_TEXTS.routerConfigHeader);
      expect(dialog.getByText(routerLabel(context.routerId))).toBeTruthy();
      expect((dialog.getByLabelText('Configuration') as HTMLInputElement).value).toBe(configLabel(context.configId));
    },
    'loaded.routerConfig.submitting': () => expectStepBusy(LINE_SETTINGS_TEXTS.routerConfigHeader, LINE_SETTINGS_TEXTS.saving),
  },
  drivable: (snapshot, event) => {
    const c = snapshot.context;
    switch (event.type) {
      // A control reports a change only: choosing what is already chosen sends nothing.
      case 'user.nickname':
        return event.value !== c.nickname;
      case 'user.reason':
        return event.value !== c.reason;
      case 'user.blockProduct':
        return event.productId !== c.blockProductId;
      case 'user.blockCount':
        return event.count !== c.blockCount;
      case 'user.applyNow':
        return event.value !== c.applyNow;
      case 'user.topUpCount':
        return event.count !== c.topUpCount;
      case 'user.when':
        return event.when !== c.when;
      case 'user.target':
        return event.value !== c.target;
      case 'user.configId':
        return event.configId !== c.configId;
      default:
        return true;
    }
  },
} satisfies UiModel<typeof lineSettingsMachine, PageScreen>;

const CHANGES = [
  'renameLine',
  'setPublicIp',
  'setPriorityData',
  'setRecurringBlocks',
  'topUp',
  'deactivateLine',
  'moveTerminal',
  'removeTerminal',
  'rebootRouter',
  'setRouterConfig',
] as const;
const FAILURE_OF: Record<(typeof CHANGES)[number], string> = {
  renameLine: 'rename the service line',
  setPublicIp: 'change the public IP',
  setPriorityData: 'change priority data',
  setRecurringBlocks: 'update the recurring data blocks',
  topUp: 'buy the top-up',
  deactivateLine: 'deactivate the service line',
  moveTerminal: 'move the terminal',
  removeTerminal: 'remove the terminal from the line',
  rebootRouter: 'reboot the router',
  setRouterConfig: 'assign the router configuration',
};
/** The words a step may hold after a failure: the provider's, or "try again" when there was no answer. */
const failures = new Set(Object.values(FAILURE_OF).flatMap((what) => [`Failed to ${what}: ${PROVIDER_WORDS}`, `Failed to ${what}. Please try again.`]));
const expectFailure = (failure: string | null) => {
  if (failure !== null) expect(failures).toContain(failure);
};
const expectIdleStep = (s: { hasTag(tag: string): boolean; context: { settings: unknown } }) => {
  expect(s.hasTag('busy')).toBe(false);
  expect(s.hasTag('loading')).toBe(false);
  expect([settings, after]).toContainEqual(s.context.settings);
};
const expectSubmitting = (s: { hasTag(tag: string): boolean; can(event: { type: 'user.close' }): boolean; context: { failure: string | null } }) => {
  expect(s.hasTag('busy')).toBe(true);
  expect(s.can(close)).toBe(false);
  expect(s.context.failure).toBeNull();
};

export const lineSettingsModel = defineModel<typeof lineSettingsMachine, PageScreen>({
  name: 'line-settings',
  machine: lineSettingsMachine,
  inputs: [admin, reader],
  events: {
    'user.retry': [retry],
    'user.rename': [rename],
    'user.nickname': [nickname('South yard'), nickname('')],
    'user.togglePublicIp': [togglePublicIp],
    'user.togglePriority': [togglePriority],
    'user.editBlocks': [editBlocks],
    'user.blockProduct': [blockProduct('block-1tb')],
    'user.blockCount': [blockCount(3)],
    'user.applyNow': [applyNow(true)],
    'user.topUp': [topUp],
    'user.topUpCount': [topUpCount(3)],
    'user.deactivate': [deactivate],
    'user.when': [when('end_of_cycle')],
    'user.reason': [reason('Customer moved')],
    'user.move': [move(DEVICE)],
    'user.target': [target(OTHER_LINE), target('')],
    'user.remove': [remove(DEVICE)],
    'user.rebootRouter': [rebootRouter(ROUTER)],
    'user.routerConfig': [routerConfig(ROUTER)],
    'user.configId': [configId('rc-guest-wifi'), configId('')],
    'user.submit': [submit],
    'user.confirm': [confirm],
    'user.back': [back],
    'user.close': [close],
  },
  actorResults: [
    done('loadSettings', ok(settings)),
    done('loadSettings', refused(SERVICE_LINE_MESSAGES.notFound)),
    failed('loadSettings', new TypeError('fetch failed')),
    ...CHANGES.flatMap((id) => [done(id, ok(after)), done(id, refused(PROVIDER_WORDS)), failed(id, new TypeError('fetch failed'))]),
  ],
  states: {
    loading: (s) => {
      expect(s.hasTag('loading')).toBe(true);
      expect(s.context.settings).toBeNull();
    },
    failed: (s) => {
      expect([SERVICE_LINE_MESSAGES.notFound, LINE_SETTINGS_MESSAGES.loadFailed]).toContain(s.context.loadError);
      expect(s.can(retry)).toBe(true);
    },
    'loaded.idle': (s) => {
      expectIdleStep(s);
      expect(s.context).toMatchObject({ loadError: null, failure: null, nickname: '', reason: '', when: '' });
      // A change is offered by the permission it needs; a line set to end is not offered its deactivation.
      expect(s.can(rename)).toBe(s.context.canEdit);
      expect(s.can(deactivate)).toBe(s.context.canOperate && s.context.settings!.endDate === null);
    },
    'loaded.renaming.editing': (s) => {
      expectIdleStep(s);
      expect(s.context.canEdit).toBe(true);
      expectFailure(s.context.failure);
      expect(['North yard', 'South yard', '']).toContain(s.context.nickname);
      if (s.context.nicknameError) expect(s.context.nicknameError).toBe(SERVICE_LINE_MESSAGES.nicknameRequired);
    },
    'loaded.renaming.submitting': (s) => {
      expectSubmitting(s);
      expect(s.context.nickname.trim()).not.toBe('');
    },
    'loaded.publicIp.confirming': (s) => {
      expectIdleStep(s);
      expectFailure(s.context.failure);
    },
    'loaded.publicIp.submitting': expectSubmitting,
    'loaded.priority.confirming': (s) => {
      expectIdleStep(s);
      expectFailure(s.context.failure);
    },
    'loaded.priority.submitting': expectSubmitting,
    'loaded.blocks.editing': (s) => {
      expectIdleStep(s);
      expect(s.context.failure).toBeNull();
      expect(['block-50', 'block-1tb']).toContain(s.context.blockProductId);
      expect([2, 3]).toContain(s.context.blockCount);
    },
    'loaded.blocks.confirming': (s) => {
      expectIdleStep(s);
      expectFailure(s.context.failure);
    },
    'loaded.blocks.submitting': expectSubmitting,
    'loaded.topUp.choosing': (s) => {
      expectIdleStep(s);
      expect(s.context.failure).toBeNull();
      expect(s.context.topUpCount).toBeLessThanOrEqual(s.context.settings!.topUpBlocksLeft);
    },
    'loaded.topUp.confirming': (s) => {
      expectIdleStep(s);
      expectFailure(s.context.failure);
    },
    'loaded.topUp.submitting': expectSubmitting,
    'loaded.deactivating.form': (s) => {
      expectIdleStep(s);
      expect(s.context.failure).toBeNull();
      expect(s.context.settings!.endDate).toBeNull();
    },
    'loaded.deactivating.confirming': (s) => {
      expectIdleStep(s);
      expectFailure(s.context.failure);
      expect(s.context).toMatchObject({ when: 'end_of_cycle', reason: 'Customer moved', deactivationErrors: {} });
    },
    'loaded.deactivating.submitting': expectSubmitting,
    'loaded.moving.editing': (s) => {
      expectIdleStep(s);
      expectFailure(s.context.failure);
      expect(s.context.deviceId).toBe(DEVICE);
      expect(['', OTHER_LINE]).toContain(s.context.target);
      if (s.context.targetError) expect(s.context.targetError).toBe(SERVICE_LINE_MESSAGES.targetRequired);
    },
    'loaded.moving.submitting': (s) => {
      expectSubmitting(s);
      expect(s.context.target).toBe(OTHER_LINE);
    },
    'loaded.removing.confirming': (s) => {
      expectIdleStep(s);
      expectFailure(s.context.failure);
      expect(s.context.deviceId).toBe(DEVICE);
    },
    'loaded.removing.submitting': expectSubmitting,
    'loaded.routerReboot.confirming': (s) => {
      expectIdleStep(s);
      expectFailure(s.context.failure);
      expect(s.context.routerId).toBe(ROUTER);
    },
    'loaded.routerReboot.submitting': expectSubmitting,
    'loaded.routerConfig.editing': (s) => {
      expectIdleStep(s);
      expectFailure(s.context.failure);
      expect(s.context.routerId).toBe(ROUTER);
      expect(['', 'rc-guest-wifi']).toContain(s.context.configId);
    },
    'loaded.routerConfig.submitting': (s) => {
      expectSubmitting(s);
      // Only a change is sent: the router has the default, so the new one is the guest configuration.
      expect(s.context.configId).toBe('rc-guest-wifi');
    },
  },
  ui,
});

modelSuite(lineSettingsModel);

describe('line settings machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('load fails, Try Again; top-up refused then bought; deactivation at the end of the cycle: the line set to end, two changes sent', async () => {
    const bought = lineSettingsFixture({ topUpBlocksThisCycle: 3, topUpBlocksLeft: 7 });
    const ending = { ...bought, endDate: '2026-11-30T23:59:59.000Z' };
    const { actor, called, notifySuccess, notifyFailure } = startLineSettings({
      load: [refused(SERVICE_LINE_MESSAGES.notFound), ok(lineSettingsFixture())],
      topUp: [refused(PROVIDER_WORDS), ok(bought)],
      deactivate: [ok(ending)],
    });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send(retry);
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }));
    actor.send(topUp);
    actor.send(topUpCount(2));
    actor.send(submit);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches({ loaded: { topUp: 'confirming' } }) && s.context.failure !== null);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }));
    actor.send(deactivate);
    actor.send(when('end_of_cycle'));
    actor.send(reason('Moved'));
    actor.send(submit);
    actor.send(confirm);
    const end = await waitFor(actor, (s) => s.matches({ loaded: 'idle' }) && s.context.settings!.endDate !== null);
    expect(end.value).toEqual({ loaded: 'idle' });
    expect(end.context).toMatchObject({ settings: ending, loadError: null, failure: null, topUpCount: 1, when: '', reason: '' });
    expect(end.can(deactivate)).toBe(false);
    expect(called('topUp').map((c) => c.input)).toEqual([
      { serviceLineNumber: 'SL-DF-2281-4410', payload: { productId: 'topup-50', count: 2 } },
      { serviceLineNumber: 'SL-DF-2281-4410', payload: { productId: 'topup-50', count: 2 } },
    ]);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(`Failed to buy the top-up: ${PROVIDER_WORDS}`);
    expect(notifySuccess.mock.calls.map(([m]) => m)).toEqual([SERVICE_LINE_MESSAGES.toppedUp, SERVICE_LINE_MESSAGES.deactivationScheduled]);
  });
});
