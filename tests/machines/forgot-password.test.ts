import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { NETWORK_ERROR_MESSAGE } from '../../src/domain/login';
import { FORGOT_PASSWORD_MESSAGES } from '../../src/domain/password-reset';
import { forgotPasswordMachine } from '../../src/machines/forgot-password';
import type { LoadOutcome } from '../../src/machines/resource';
import { ok, refused } from './scripted-actors';

function start(answer: (input: { email: string }, signal: AbortSignal) => Promise<LoadOutcome<unknown>>) {
  const calls = vi.fn();
  const actor = createActor(
    forgotPasswordMachine.provide({ actors: { requestReset: fromPromise(async ({ input, signal }) => (calls(input), answer(input, signal))) } }),
  ).start();
  return { actor, calls };
}

describe('forgot-password machine (actor)', () => {
  it('sends the trimmed address and ends on the same "sent" answer', async () => {
    const { actor, calls } = start(async () => ok(null));
    actor.send({ type: 'user.email', value: '  ana.lima@example.com ' });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('sent');
    expect(calls).toHaveBeenCalledExactlyOnceWith({ email: 'ana.lima@example.com' });
  });

  it.each([
    ['', FORGOT_PASSWORD_MESSAGES.emailRequired],
    ['ana.lima', FORGOT_PASSWORD_MESSAGES.emailInvalid],
    ['ana @example.com', FORGOT_PASSWORD_MESSAGES.emailInvalid],
  ])('refuses "%s" without a request, and typing clears the problem', (typed, message) => {
    const { actor, calls } = start(async () => ok(null));
    actor.send({ type: 'user.email', value: typed });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBe(message);
    expect(calls).not.toHaveBeenCalled();
    actor.send({ type: 'user.email', value: 'a' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it("shows the server's refusal (too many requests) and keeps the address for another try", async () => {
    const tooMany = FORGOT_PASSWORD_MESSAGES.tooMany('15 minutes');
    const { actor } = start(async () => refused(tooMany));
    actor.send({ type: 'user.email', value: 'ana.lima@example.com' });
    actor.send({ type: 'user.submit' });
    const snapshot = await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(snapshot.context).toEqual({ email: 'ana.lima@example.com', error: tooMany });
  });

  it('a network failure says so and stays on the form', async () => {
    const { actor } = start(() => Promise.reject(new TypeError('fetch failed')));
    actor.send({ type: 'user.email', value: 'ana.lima@example.com' });
    actor.send({ type: 'user.submit' });
    const snapshot = await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(snapshot.context.error).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('leaving the page while sending aborts the request', async () => {
    let seen: AbortSignal | undefined;
    const { actor } = start((_input, signal) => ((seen = signal), new Promise<never>(() => {})));
    actor.send({ type: 'user.email', value: 'ana.lima@example.com' });
    actor.send({ type: 'user.submit' });
    await vi.waitFor(() => expect(seen).toBeDefined());
    actor.stop();
    expect(seen!.aborted).toBe(true);
  });
});
