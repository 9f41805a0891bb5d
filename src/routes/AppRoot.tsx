import { RouterProvider } from '@tanstack/react-router';
import type { App } from './create-app';
import { AppServicesProvider } from './services';

export function AppRoot({ app }: { app: App }) {
  return (
    <AppServicesProvider services={app.services}>
      <RouterProvider router={app.router} />
    </AppServicesProvider>
  );
}
