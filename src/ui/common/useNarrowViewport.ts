import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT } from '../../domain/navigation';

// One breakpoint for the whole portal: below it the sidebar is a sheet and tables fold columns.
const NARROW_QUERY = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined' || !window.matchMedia) return () => {};
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function isNarrow(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia(NARROW_QUERY).matches;
}

/** The viewport is phone-sized (below 768 px), following the media query as it changes. */
export function useNarrowViewport(): boolean {
  return useSyncExternalStore(subscribe, isNarrow, () => false);
}
