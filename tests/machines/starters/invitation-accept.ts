// Starts the invitationAccept machine for a link's token with scripted checkInvitation and
// acceptInvitation answers (the last entry repeating; an Error rejects): shared by its actor tests
// and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { InvitationInfoWire } from '../../../src/domain/members';
import { invitationAcceptMachine, type InvitationAcceptResult, type InvitationCheckResult } from '../../../src/machines/invitation-accept';

export const invitation: InvitationInfoWire = { email: 'sam.site@northwind.example', name: 'Sam Site', company: 'Northwind Shipping', role: 'manager', expiresAt: '2026-11-27T10:00:00.000Z' };
export const ok = <T>(data: T) => ({ ok: true as const, status: 200, data, message: 'ok' });
export const refused = (status: number, message: string) => ({ ok: false as const, status, message });

export type Answer<T> = T | Error;

export function startInvitation(token: string | null, checks: Array<Answer<InvitationCheckResult>>, accepts: Array<Answer<InvitationAcceptResult>> = [ok({ email: invitation.email })]) {
  const checked = vi.fn();
  const submitted = vi.fn();
  const pick = <T>(answers: Array<Answer<T>>, call: number) => {
    const answer = answers[Math.min(call, answers.length - 1)]!;
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  const actor = createActor(
    invitationAcceptMachine.provide({
      actors: {
        checkInvitation: fromPromise(async ({ input }) => (checked(input), pick(checks, checked.mock.calls.length - 1))),
        acceptInvitation: fromPromise(async ({ input }) => (submitted(input), pick(accepts, submitted.mock.calls.length - 1))),
      },
    }),
    { input: { token } },
  ).start();
  return { actor, checked, submitted };
}
