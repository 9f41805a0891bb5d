// The customer terminal page → Rename / Reboot (terminalActions machine): its generated
// paths walked on the machine and through the /my/terminals/$terminalId page signed in as a
// customer, plus a journey pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { MY_AREA_MESSAGES as M } from '../../../src/domain/my-area';
import type { LoadOutcome } from '../../../src/machines/resource';
import { terminalActionsMachine } from '../../../src/machines/terminal-actions';
import { customerProfile } from '../../machines/fixtures';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed, type ModelSeam } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { myTerminalDetailWire } from '../../fixtures/my-terminal';

const TERMINAL = 'UT1001';

const detail = myTerminalDetailWire(TERMINAL);

const rename = { type: 'user.rename', name: 'North Barn' } as const;
const confirm = { type: 'user.confirm' } as const;
const close = { type: 'user.close' } as const;

type Screen = PageScreen;

/** The terminal page signed in as the fixture customer, over a fake API that answers the page. */
function openTerminalPage(seam: ModelSeam): Screen {
  return openPage(`/my/terminals/${TERMINAL}`, seam, { [`GET /api/v1/my/terminals/${TERMINAL}`]: { body: { success: true, message: 'ok', data: detail } } }, customerProfile);
}

const dialog = (name: string) => within(screen.getByRole('dialog', { name }));
const button = (dialogName: string, name: string) => dialog(dialogName).getByRole('button', { name }) as HTMLButtonElement;
const expectNoDialog = () => expect(screen.queryByRole('dialog')).toBeNull();

export const terminalActionsModel = defineModel<typeof terminalActionsMachine, Screen>({
  name: 'terminal-actions',
  machine: terminalActionsMachine,
  input: { terminalId: TERMINAL },
  events: {
    'user.rename': [rename],
    // A valid name and an empty one (the guard keeps the dialog and names the problem).
    'user.name': [
      { type: 'user.name', value: 'Shed' },
      { type: 'user.name', value: '' },
    ],
    'user.reboot': [{ type: 'user.reboot' }],
    'user.confirm': [confirm],
    'user.close': [close],
  },
  actorResults: [
    done('renameTerminal', ok({ nickname: 'Shed' })),
    done('renameTerminal', refused('The provider did not make the change')),
    failed('renameTerminal', new Error('boom')),
    done('rebootTerminal', ok({ terminalId: TERMINAL })),
    done('rebootTerminal', refused(M.rebootTooSoonTerminal(6))),
    failed('rebootTerminal', new Error('boom')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    'renaming.editing': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      // A problem is only named for a name that has one.
      if (s.context.nameError) expect(s.context.name.trim()).toBe('');
    },
    'renaming.saving': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
      expect(s.context.failure).toBeNull();
      expect(s.context.name.trim()).not.toBe('');
    },
    'rebooting.confirming': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
    },
    'rebooting.sending': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
      expect(s.context.failure).toBeNull();
    },
  },
  ui: {
    open: async (seam) => {
      const opened = openTerminalPage(seam);
      await screen.findByRole('heading', { level: 1, name: 'North Barn' }, { timeout: 5000 });
      return opened;
    },
    events: {
      'user.rename': async ({ user }) => user.click(screen.getByRole('button', { name: 'Rename' })),
      'user.name': async ({ user }, event) => {
        const input = dialog('Rename terminal').getByLabelText('Name');
        await user.clear(input);
        if (event.value) await user.type(input, event.value);
      },
      'user.reboot': async ({ user }) => user.click(screen.getByRole('button', { name: 'Reboot' })),
      'user.confirm': async ({ user }) => {
        const open = screen.getByRole('dialog');
        await user.click(within(open).getByRole('button', { name: /^(Save|Reboot)$/ }));
      },
      'user.close': async ({ user }) => user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' })),
    },
    states: {
      closed: () => {
        expectNoDialog();
        expect((screen.getByRole('button', { name: 'Rename' }) as HTMLButtonElement).disabled).toBe(false);
      },
      'renaming.editing': ({ context }) => {
        expect((dialog('Rename terminal').getByLabelText('Name') as HTMLInputElement).value).toBe(context.name);
        if (context.nameError) expect(dialog('Rename terminal').getByText(context.nameError)).toBeTruthy();
        if (context.failure) expect(dialog('Rename terminal').getByText(context.failure)).toBeTruthy();
        expect(button('Rename terminal', 'Save').disabled).toBe(false);
      },
      'renaming.saving': () => {
        expect(button('Rename terminal', 'Cancel').disabled).toBe(true);
      },
      'rebooting.confirming': ({ context }) => {
        expect(dialog('Reboot terminal').getByText(M.rebootConfirm)).toBeTruthy();
        if (context.failure) expect(dialog('Reboot terminal').getByText(context.failure)).toBeTruthy();
        expect(button('Reboot terminal', 'Cancel').disabled).toBe(false);
      },
      'rebooting.sending': () => {
        expect(button('Reboot terminal', 'Cancel').disabled).toBe(true);
      },
    },
  },
});

modelSuite(terminalActionsModel);

describe('terminal actions machine (pinned journeys)', () => {
  it('a reboot held back by the pace, then a rename: one rename sent, one reload', async () => {
    const answers: LoadOutcome<unknown>[] = [refused(M.rebootTooSoonTerminal(6)), ok({ nickname: 'Shed' })];
    const inputs: unknown[] = [];
    const terminalChanged = vi.fn();
    const answer = async ({ input }: { input: unknown }) => {
      inputs.push(input);
      return answers.shift() as never;
    };
    const actor = createActor(
      terminalActionsMachine.provide({ actors: { renameTerminal: fromPromise(answer) as never, rebootTerminal: fromPromise(answer) as never }, actions: { terminalChanged } }),
      { input: { terminalId: TERMINAL } },
    ).start();
    actor.send({ type: 'user.reboot' });
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches({ rebooting: 'confirming' }) && s.context.failure !== null);
    actor.send(close);
    actor.send(rename);
    actor.send({ type: 'user.name', value: ' Shed ' });
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches('closed'));
    expect(snapshot.context).toMatchObject({ name: ' Shed ', failure: null, nameError: null });
    expect(inputs).toEqual([{ terminalId: TERMINAL }, { terminalId: TERMINAL, name: 'Shed' }]);
    expect(terminalChanged).toHaveBeenCalledOnce();
  });
});
