// The customer terminal page's Rename and Reboot dialogs: one machine, both built on
// the shared submitting state; the requests are stubbed at the actor seam.
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { MY_AREA_MESSAGES as M } from '../../src/domain/my-area';
import type { LoadOutcome } from '../../src/machines/resource';
import { terminalActionsMachine, type RenameTerminalInput } from '../../src/machines/terminal-actions';

type Answer = LoadOutcome<unknown> | Error;

function start(answers: { rename?: Answer[]; reboot?: Answer[] } = {}) {
  const calls: { src: string; input: unknown }[] = [];
  // The stubs answer whatever the test scripted; the machine reads only `ok` and `message`.
  const next = <T,>(list: Answer[] | undefined): Promise<LoadOutcome<T>> => {
    const answer = list?.shift() ?? { ok: true, data: { nickname: 'x' } };
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer as LoadOutcome<T>);
  };
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const terminalChanged = vi.fn();
  const actor = createActor(
    terminalActionsMachine.provide({
      actors: {
        renameTerminal: fromPromise(async ({ input }: { input: RenameTerminalInput }) => {
          calls.push({ src: 'renameTerminal', input });
          return next<{ nickname: string }>(answers.rename);
        }),
        rebootTerminal: fromPromise(async ({ input }: { input: { terminalId: string } }) => {
          calls.push({ src: 'rebootTerminal', input });
          return next<unknown>(answers.reboot);
        }),
      },
      actions: {
        notifySuccess: (_, message: string) => notifySuccess(message),
        notifyFailure: (_, message: string) => notifyFailure(message),
        terminalChanged: () => terminalChanged(),
      },
    }),
    { input: { terminalId: 'UT1' } },
  ).start();
  return { actor, calls, notifySuccess, notifyFailure, terminalChanged };
}

describe('terminal actions machine: Rename', () => {
  it('opens with the current name, sends the trimmed new one, closes with a toast and reloads the page', async () => {
    const { actor, calls, notifySuccess, terminalChanged } = start();
    actor.send({ type: 'user.rename', name: 'Barn' });
    expect(actor.getSnapshot().matches({ renaming: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.name).toBe('Barn');
    actor.send({ type: 'user.name', value: '  North Barn ' });
    actor.send({ type: 'user.confirm' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([{ src: 'renameTerminal', input: { terminalId: 'UT1', name: 'North Barn' } }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(M.renamed('North Barn'));
    expect(terminalChanged).toHaveBeenCalledOnce();
  });

  it.each([
    ['', M.nameRequired],
    ['   ', M.nameRequired],
    ['x'.repeat(101), M.nameTooLong],
  ])('keeps the dialog and names the problem for %j, sending nothing', (name, problem) => {
    const { actor, calls } = start();
    actor.send({ type: 'user.rename', name: 'Barn' });
    actor.send({ type: 'user.name', value: name });
    actor.send({ type: 'user.confirm' });
    expect(actor.getSnapshot().matches({ renaming: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.nameError).toBe(problem);
    expect(calls).toEqual([]);
    // Typing again clears the problem.
    actor.send({ type: 'user.name', value: 'ok' });
    expect(actor.getSnapshot().context.nameError).toBeNull();
  });

  it("keeps the dialog open with the server's words when the rename is refused, and Cancel closes it", async () => {
    const { actor, notifyFailure, terminalChanged } = start({ rename: [{ ok: false, message: 'The provider did not make the change' }] });
    actor.send({ type: 'user.rename', name: 'Barn' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches({ renaming: 'editing' }));
    expect(actor.getSnapshot().context.failure).toBe('The provider did not make the change');
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith('The provider did not make the change');
    expect(terminalChanged).not.toHaveBeenCalled();
    actor.send({ type: 'user.close' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });

  it('cannot be closed while the name is being saved', () => {
    const { actor } = start();
    actor.send({ type: 'user.rename', name: 'Barn' });
    actor.send({ type: 'user.confirm' });
    expect(actor.getSnapshot().can({ type: 'user.close' })).toBe(false);
  });
});

describe('terminal actions machine: Reboot', () => {
  it('asks first, then sends the reboot, closes with a toast and reloads the page', async () => {
    const { actor, calls, notifySuccess, terminalChanged } = start({ reboot: [{ ok: true, data: {} }] });
    actor.send({ type: 'user.reboot' });
    expect(actor.getSnapshot().matches({ rebooting: 'confirming' })).toBe(true);
    expect(calls).toEqual([]);
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([{ src: 'rebootTerminal', input: { terminalId: 'UT1' } }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(M.rebooted);
    expect(terminalChanged).toHaveBeenCalledOnce();
  });

  it('shows how long to wait when the server refuses with the pace (429), and a retry clears it', async () => {
    const wait = M.rebootTooSoonTerminal(6);
    const { actor } = start({ reboot: [{ ok: false, message: wait }, { ok: true, data: {} }] });
    actor.send({ type: 'user.reboot' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches({ rebooting: 'confirming' }) && s.context.failure !== null);
    expect(actor.getSnapshot().context.failure).toBe(wait);
    actor.send({ type: 'user.confirm' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    await waitFor(actor, (s) => s.matches('closed'));
  });

  it('says the reboot failed when no answer came', async () => {
    const { actor, notifyFailure } = start({ reboot: [new TypeError('fetch failed')] });
    actor.send({ type: 'user.reboot' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches({ rebooting: 'confirming' }) && s.context.failure !== null);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(M.rebootFailed);
  });

  it('Cancel closes the confirmation without sending anything', () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.reboot' });
    actor.send({ type: 'user.close' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(calls).toEqual([]);
  });
});
