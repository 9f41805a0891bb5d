// Starts the customerCreate machine with scripted createCustomer answers and recorded actions: shared
// by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { CustomerListItem } from '../../../src/domain/customers';
import { customerCreateMachine, type CreateResult, type TextField } from '../../../src/machines/customer-create';
import { customerFixture } from '../../fixtures/customers';

export const created = customerFixture({ isActive: false, hasPassword: false, accountExpiresAt: '2027-11-20T10:00:00.000Z', createdAt: '2026-11-20T10:00:00.000Z' });

export const ok = (data: CustomerListItem): CreateResult => ({ ok: true, status: 201, data, message: 'Customer created' });
export const refused = (status: number, message: string, errors?: { path: string; message: string }[]): CreateResult => ({
  ok: false,
  status,
  message,
  ...(errors ? { errors } : {}),
});

export type Answer = CreateResult | Error | 'hang';

export function startCreate(answers: Answer[] = [ok(created)]) {
  const payloads = vi.fn();
  const notifyCreated = vi.fn();
  const notifyFailure = vi.fn();
  const customerCreated = vi.fn();
  const actor = createActor(
    customerCreateMachine.provide({
      actors: {
        createCustomer: fromPromise(async ({ input }) => {
          payloads(input);
          const answer = answers[Math.min(payloads.mock.calls.length - 1, answers.length - 1)]!;
          if (answer === 'hang') return new Promise<never>(() => {});
          if (answer instanceof Error) throw answer;
          return answer;
        }),
      },
      actions: {
        notifyCreated: (_, notice) => notifyCreated(notice),
        notifyFailure: (_, message) => notifyFailure(message),
        customerCreated: (_, customer) => customerCreated(customer),
      },
    }),
  ).start();
  return { actor, payloads, notifyCreated, notifyFailure, customerCreated };
}

export const field = (name: TextField, value: string) => ({ type: 'user.field', field: name, value }) as const;

/** Opens the form and types a valid customer (with stray spaces the payload trims). */
export function fill(actor: ReturnType<typeof startCreate>['actor']) {
  actor.send({ type: 'user.open' });
  actor.send(field('company', ' Northwind Shipping '));
  actor.send(field('name', 'Nina Park'));
  actor.send(field('email', 'ops@northwind.example '));
}
