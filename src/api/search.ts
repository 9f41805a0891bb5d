// The command palette's search (`GET /search`): answers it cannot read are dropped, not shown.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { isRecord, present, str, withSignal } from './normalise';
import { SEARCH_KINDS, type SearchKind, type SearchResultWire } from '../domain/search';

const isKind = (value: unknown): value is SearchKind => (SEARCH_KINDS as readonly unknown[]).includes(value);

export function normaliseSearchResult(raw: unknown): SearchResultWire | null {
  if (!isRecord(raw) || !isKind(raw.kind)) return null;
  const id = str(raw.id);
  const label = str(raw.label);
  if (!id || !label) return null;
  return { kind: raw.kind, id, label, detail: str(raw.detail) ?? '' };
}

export function createSearchApi(client: ApiClient) {
  return {
    search: async (q: string, signal?: AbortSignal): Promise<ApiResult<SearchResultWire[]>> =>
      mapResult(await client.request<unknown>('/search', { query: { q }, ...withSignal(signal) }), (data) =>
        isRecord(data) && Array.isArray(data.results) ? data.results.map(normaliseSearchResult).filter(present) : null,
      ),
  };
}

export type SearchApi = ReturnType<typeof createSearchApi>;
