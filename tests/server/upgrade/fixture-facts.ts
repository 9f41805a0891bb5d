// What the upgrade fixtures hold besides what the portal itself wrote: the administrator and the
// secret they were written with, and the jobs the release's queue was given just before it stopped.
import type { JobContracts, QueueName } from '../../../server/jobs/contracts';

export const FIXTURE_ADMIN = { email: 'upgrade-admin@test.local', password: 'upgrade-admin-password-1' };
export const FIXTURE_JWT_SECRET = 'upgrade-fixture-secret-at-least-32-characters';

export interface FixtureJob<N extends QueueName = QueueName> {
  id: string;
  queue: N;
  payload: JobContracts[N];
  /** ISO time; absent for a job due at once. */
  startAfter?: string;
}

export const FIXTURE_JOBS: FixtureJob[] = [
  { id: '5d4f3a52-7c1e-4d0b-9a8e-1f2b3c4d5e01', queue: 'alerts-evaluate', payload: { reason: 'rules' } },
  { id: '5d4f3a52-7c1e-4d0b-9a8e-1f2b3c4d5e02', queue: 'billing-run', payload: { reason: 'prices' } },
  // Due long after any test runs: it must arrive with its time and wait for it.
  { id: '5d4f3a52-7c1e-4d0b-9a8e-1f2b3c4d5e03', queue: 'webhook-deliver', payload: {}, startAfter: '2040-01-01T06:00:00.000Z' },
];
