// "Recent syncs" on the terminals page: each run with what it changed and its calls; an Account
// column only when the portal holds more than one provider account.
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { RECENT_SYNCS_TEXTS, RecentSyncs } from '../../src/ui/terminals/RecentSyncs';
import { syncJob } from '../fixtures/terminals-ui';
import { renderStrict } from './render';

const NOW = Date.parse('2026-11-20T10:30:00.000Z');
const runs = [
  syncJob({ id: 'run-2', status: 'failed', accountId: 2, accountName: 'Demo Brasil', providerCalls: 7, counts: { added: 0, updated: 0, unchanged: 0, removed: 0, failed: 2 } }),
  syncJob({ id: 'run-1', accountId: 1, accountName: 'Demo US' }),
];

describe('Recent syncs', () => {
  it("names each run's account in an Account column when there are several accounts", () => {
    renderStrict(<RecentSyncs runs={runs} error={null} showAccount now={NOW} />);
    const table = screen.getByRole('table', { name: RECENT_SYNCS_TEXTS.title });
    expect(within(table).getByRole('columnheader', { name: 'Account' })).toBeTruthy();
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('Demo Brasil')).toBeTruthy();
    expect(within(first!).getByText('Failed')).toBeTruthy();
    expect(within(first!).getByText('2 failed')).toBeTruthy();
    expect(within(second!).getByText('Demo US')).toBeTruthy();
    expect(within(second!).getByText('3 added, 2 updated, 1 removed')).toBeTruthy();
  });

  it('has no Account column with one account, and says when there is no run yet', () => {
    renderStrict(<RecentSyncs runs={[]} error={null} showAccount={false} now={NOW} />);
    expect(screen.queryByRole('columnheader', { name: 'Account' })).toBeNull();
    expect(screen.getByText(RECENT_SYNCS_TEXTS.empty)).toBeTruthy();
  });
});
