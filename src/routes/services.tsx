// What the route components need from the composition root: the API, the session actor and the
// inspector hook. The session actor is created before React renders (the router needs it in its
// context for guards), so it is handed down here rather than created by `createActorContext`.
import { createContext, useContext, type ReactNode } from 'react';
import type { ActorRefFrom, InspectionEvent, Observer } from 'xstate';
import type { Api } from '../api';
import type { sessionMachine } from '../machines/session';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

export interface AppServices {
  api: Api;
  session: SessionActor;
  inspect: Inspect | undefined;
}

const AppServicesContext = createContext<AppServices | null>(null);

export function AppServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <AppServicesContext.Provider value={services}>{children}</AppServicesContext.Provider>;
}

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices needs <AppServicesProvider>');
  return services;
}

/** Options for local actors so they show up in the inspector with the app-wide ones. */
export function useActorOptions(): { inspect?: Inspect } {
  const { inspect } = useAppServices();
  return inspect ? { inspect } : {};
}
