// The /customers/provider-accounts page as the provider accounts model opens it, signed in as an
// Owner: the fake API lists a Starlink account, a simulated one and a disabled one, and the
// simulator's accounts; the machine's own actors (the choices, save, enable/disable, test, delete)
// are answered by the path.
import { screen, within } from '@testing-library/react';
import type { ProviderAccountWire } from '../../../src/domain/provider-accounts';
import { PROVIDER_ACCOUNT_TEXTS as T } from '../../../src/ui/provider-accounts/parts';
import { disabledAccount, simulatedAccount, simulatedChoices, starlinkAccount } from '../../fixtures/provider-accounts';
import type { ModelSeam } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';

const envelope = (data: unknown) => ({ body: { success: true, message: 'ok', data } });

export const listedAccounts: readonly ProviderAccountWire[] = [starlinkAccount, simulatedAccount, disabledAccount];

/** Opens the page listing `listedAccounts`; returns once the table shows. */
export async function openProviderAccountsPage(seam: ModelSeam): Promise<PageScreen> {
  const page = openPage('/customers/provider-accounts', seam, {
    'GET /api/v1/provider-accounts': envelope(listedAccounts),
    'GET /api/v1/provider-accounts/simulated': envelope(simulatedChoices),
  });
  await screen.findByRole('table', { name: T.tableLabel }, { timeout: 5000 });
  return page;
}

export const accountsTable = () => within(screen.getByRole('table', { name: T.tableLabel }));
/** A row's button: "Test connection: United States (USD)". */
export const rowButton = (label: string, account: ProviderAccountWire) => accountsTable().getByRole('button', { name: `${label}: ${account.name}` }) as HTMLButtonElement;
