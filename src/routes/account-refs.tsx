// The provider accounts a page lets the user choose between, read once per visit from
// `GET /provider-accounts/refs`. One account, or none read, is no choice: the page then shows no
// picker and its requests name no account, as they did before the portal held several.
import { useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { AccountPicker } from '../ui/common/AccountPicker';
import type { ProviderAccountRef } from '../domain/provider-accounts';
import { loadAccountRefs } from '../api/provider-accounts';
import { createResourceMachine } from '../machines/resource';
import { useAppServices, usePageActor } from './services';

const accountRefsMachine = createResourceMachine<ProviderAccountRef[]>('accountRefs');

/** The accounts to choose between, or null when there is nothing to choose. */
export function useAccountChoices(): readonly ProviderAccountRef[] | null {
  const { api } = useAppServices();
  const accountRefs = usePageActor(accountRefsMachine.provide({ actors: { load: loadAccountRefs(api.client) } }));
  return useSelector(accountRefs, (s) => (s.matches('ready') && s.context.data && s.context.data.length > 1 ? s.context.data : null));
}

/**
 * A page that works on one account at a time (the provider console, Provider Billing): the account
 * chosen (the first one the picker lists until another is), and the picker to show; null and no
 * picker with one account, whose requests then name none.
 */
export function useChosenAccount(): { accountId: number | null; picker: ReactNode } {
  const accounts = useAccountChoices();
  const [chosen, setChosen] = useState<number | null>(null);
  const accountId = accounts ? (accounts.find((a) => a.id === chosen) ?? accounts[0]!).id : null;
  return { accountId, picker: accounts ? <AccountPicker accounts={accounts} value={accountId} onChange={setChosen} /> : null };
}
