// The provider accounts a page lets the user choose between, read once per visit from
// `GET /provider-accounts/refs`. One account, or none read, is no choice: the page then shows no
// picker and its requests name no account, as they did before the portal held several.
import { useSelector } from '@xstate/react';
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
