import { RouterProvider } from '@tanstack/react-router';
import { PrimeReactProvider } from 'primereact/api';
import { A11Y_PASS_THROUGH } from '../ui/primereact-a11y';
import type { App } from './create-app';
import { AppServicesProvider } from './services';

export function AppRoot({ app }: { app: App }) {
  return (
    <PrimeReactProvider value={{ pt: A11Y_PASS_THROUGH }}>
      <AppServicesProvider services={app.services}>
        <RouterProvider router={app.router} />
      </AppServicesProvider>
    </PrimeReactProvider>
  );
}
