// A list page's table is the costliest thing on it to render (PrimeReact builds every cell, menu
// and button again), and it is memoised so that typing in the search box or in a dialog does not
// render it again. Its callbacks come from the route as new closures at every render; this hook
// hands the table one function for the page's life that calls the route's latest one.
import { useCallback, useLayoutEffect, useRef } from 'react';

export function useStableCallback<TArgs extends unknown[], TResult>(fn: (...args: TArgs) => TResult): (...args: TArgs) => TResult {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: TArgs) => latest.current(...args), []);
}
