// The /billing/reconciliation page as the leak-fix model opens it: the board of the reconciliation
// fixtures for their cycle (a leak of every kind, one handled).
import { screen, within } from '@testing-library/react';
import { LEAK_LABELS, type LeakWire } from '../../../src/domain/billing';
import { CYCLE, boardWire } from '../../fixtures/reconciliation';
import type { ModelSeam } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';

/** Opens the board of CYCLE; returns once its first section shows. */
export async function openReconciliationPage(seam: ModelSeam): Promise<PageScreen> {
  const page = openPage(`/billing/reconciliation?cycle=${CYCLE}`, seam, {
    'GET /api/v1/billing/reconciliation': { body: { success: true, message: 'ok', data: boardWire() } },
  });
  await screen.findByRole('region', { name: LEAK_LABELS.unassigned }, { timeout: 5000 });
  return page;
}

/** The row of a leak in its kind's section (by its service line, or its key). */
export function leakRow(leak: LeakWire) {
  const section = within(screen.getByRole('region', { name: LEAK_LABELS[leak.kind] }));
  return within(section.getByText(leak.serviceLineNumber ?? leak.key).closest('tr') as HTMLElement);
}
