// The XState inspector, for developers: `?inspect=1` in the URL or VITE_INSPECT=1 at build time.
// Loaded with a dynamic import so the normal bundle neither ships it on its critical path nor runs it.
import type { Inspect } from './routes/services';

export function inspectorRequested(search: string, env: string | undefined): boolean {
  return new URLSearchParams(search).get('inspect') === '1' || env === '1';
}

export async function loadInspector(): Promise<Inspect | undefined> {
  if (!inspectorRequested(window.location.search, import.meta.env.VITE_INSPECT)) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}
