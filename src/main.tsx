import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/theme';
import { loadInspector } from './inspect';
import { createApp } from './routes/create-app';
import { AppRoot } from './routes/AppRoot';
import { startTheme } from './ui/theme/store';
import { installFocusReturn } from './ui/common/focus-return';

/**
 * Starts the portal on the page, and answers what stops it again: the root unmounted, the theme no
 * longer following the system, the focus return uninstalled (a test starts this real entry, then
 * stops it so nothing of it outlives the test).
 */
export async function startPortal(): Promise<() => void> {
  // The theme's sheet is in before the first render, so nothing paints unstyled.
  const stopTheme = await startTheme();
  const stopFocusReturn = installFocusReturn();
  const inspect = await loadInspector();
  const app = createApp({ storage: window.localStorage, ...(inspect ? { inspect } : {}) });
  const root = createRoot(document.getElementById('root')!);
  root.render(
    <StrictMode>
      <AppRoot app={app} />
    </StrictMode>,
  );
  return () => {
    root.unmount();
    stopFocusReturn();
    stopTheme();
  };
}

export const started = startPortal();
