import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/theme';
import { loadInspector } from './inspect';
import { createApp } from './routes/create-app';
import { AppRoot } from './routes/AppRoot';

async function main() {
  const inspect = await loadInspector();
  const app = createApp({ storage: window.localStorage, ...(inspect ? { inspect } : {}) });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppRoot app={app} />
    </StrictMode>,
  );
}

void main();
