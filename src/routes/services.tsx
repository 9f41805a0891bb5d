// What the route components need from the composition root: the API, the session actor and the
// inspector hook. The session actor is created before React renders (the router needs it in its
// context for guards), so it is handed down here rather than created by `createActorContext`.
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorOptions, ActorRefFrom, AnyStateMachine, InspectionEvent, Observer } from 'xstate';
import type { Api } from '../api';
import type { Profile } from '../domain/auth';
import { allows, type Permission } from '../domain/permissions';
import type { sessionMachine } from '../machines/session';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/**
 * The seam the model-based UI runs (tests/model) use to drive a page's own machine: they replace
 * the actors the page provides with ones the generated path answers, and give actors a simulated
 * clock. The app never sets it; every page actor goes through `usePageActor`, so none escapes it.
 */
export interface ActorSeam {
  adapt<TLogic extends AnyStateMachine>(logic: TLogic): TLogic;
  clock?: ActorOptions<AnyStateMachine>['clock'];
}

export interface AppServices {
  api: Api;
  session: SessionActor;
  inspect: Inspect | undefined;
  seam?: ActorSeam;
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

const NO_PERMISSIONS: readonly Permission[] = [];

/**
 * What the session's profile lets the signed-in portal user do. A customer holds none; a profile
 * stored by an earlier release (no permissions yet) holds none until /auth/me answers the new one.
 */
export function permissionsOf(context: { userType: string | null; profile: Profile | null }): readonly Permission[] {
  const profile = context.profile;
  if (context.userType !== 'admin' || !profile || !('permissions' in profile) || !Array.isArray(profile.permissions)) return NO_PERMISSIONS;
  return profile.permissions;
}

/** Every permission the signed-in user holds (manage includes read); the same array until it changes. */
export function usePermissions(): readonly Permission[] {
  const { session } = useAppServices();
  return useSelector(session, (s) => permissionsOf(s.context));
}

/**
 * Whether the signed-in user may do what `permission` allows: the UI offers a page, a button or a
 * row action only to those the server would let through (it refuses everyone else as well).
 */
export function useCan(permission: Permission): boolean {
  const { session } = useAppServices();
  return useSelector(session, (s) => allows(permissionsOf(s.context), permission));
}

/**
 * A page's local actor: started with the page, stopped when it leaves, reported to the inspector
 * with the app-wide ones, and open to the test seam.
 */
export function usePageActor<TLogic extends AnyStateMachine>(logic: TLogic, options: ActorOptions<TLogic> = {}): ActorRefFrom<TLogic> {
  const { inspect, seam } = useAppServices();
  // The seam's copy is made once per page: useActorRef starts from the first render's logic only
  // (a page's `.provide(…)` is a new machine at every render), and adapting builds the machine again.
  const [adapted] = useState(() => (seam ? seam.adapt(logic) : null));
  return useActorRef(adapted ?? logic, {
    ...(inspect ? { inspect } : {}),
    ...(seam?.clock ? { clock: seam.clock } : {}),
    ...options,
  }) as ActorRefFrom<TLogic>;
}
