// What a list page reads from its list actor, and the one rule that keeps the list on the URL:
// when the address changes (back, forward, a link, a reload) the list follows it.
import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ListLocation, ListMachine } from '../machines/list';

export function useListState<TRow, TStatus extends string>(list: ActorRefFrom<ListMachine<TRow, TStatus>>, location: ListLocation<TStatus>) {
  const { page, search, status } = location;
  useEffect(() => {
    list.send({ type: 'query.change', query: { page, search, status } });
  }, [list, page, search, status]);

  return {
    rows: useSelector(list, (s) => s.context.rows),
    pagination: useSelector(list, (s) => s.context.pagination),
    query: useSelector(list, (s) => s.context.query),
    searchInput: useSelector(list, (s) => s.context.searchInput),
    loading: useSelector(list, (s) => s.hasTag('loading')),
    error: useSelector(list, (s) => (s.matches({ data: 'failed' }) ? s.context.error : null)),
  };
}
