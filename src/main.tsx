import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/theme';
import { loadInspector } from './inspect';
import { createApp } from './routes/create-app';
import { AppRoot } from './routes/AppRoot';
import { startTheme } from './ui/theme/store';
import { installFocusReturn } from './ui/common/focus-return';

async function main() {
  // The theme's sheet is in before the first render, so nothing paints unstyled.
  await startTheme();
  installFocusReturn();
  const inspect = await loadInspector();
  const app = createApp({ storage: window.localStorage, ...(inspect ? { inspect } : {}) });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppRoot app={app} />
    </StrictMode>,
  );
}

void main();
