// Starts the passwordSetup machine for a link's token with scripted checkToken/setPassword answers
// (the last entry repeating; an Error rejects): shared by its actor tests and the pinned journeys of
// its model.
import { vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { passwordSetupMachine, type CheckResult, type CompleteResult } from '../../../src/machines/customer-password-setup';

export const account = { email: 'ops@northwind.example', name: 'Nina Park', company: 'Northwind Shipping', expiresAt: '2026-11-27T10:00:00.000Z' };
export const ok = <T>(data: T) => ({ ok: true as const, status: 200, data, message: 'ok' });
export const refused = (status: number, message: string) => ({ ok: false as const, status, message });

export type Answer<T> = T | Error;

export function startSetup(token: string | null, checks: Array<Answer<CheckResult>>, completes: Array<Answer<CompleteResult>> = [ok({ email: account.email })]) {
  const checked = vi.fn();
  const submitted = vi.fn();
  const pick = <T>(answers: Array<Answer<T>>, call: number) => {
    const answer = answers[Math.min(call, answers.length - 1)]!;
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  const actor = createActor(
    passwordSetupMachine.provide({
      actors: {
        checkToken: fromPromise(async ({ input }) => (checked(input), pick(checks, checked.mock.calls.length - 1))),
        setPassword: fromPromise(async ({ input }) => (submitted(input), pick(completes, submitted.mock.calls.length - 1))),
      },
    }),
    { input: { token } },
  ).start();
  return { actor, checked, submitted };
}
