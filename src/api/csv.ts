// A CSV export as every api module asks for it (statements, each list): the list's own query
// parameters without its paging (the file holds every page), fetched with the bearer token like
// any call; the file keeps the name the server gives it, else `filename`.
import type { ApiClient, ApiResult, Download, RequestOptions } from './client';
import { withSignal } from './normalise';

export async function downloadCsv(
  client: ApiClient,
  path: string,
  params: NonNullable<RequestOptions['query']>,
  filename: string,
  signal?: AbortSignal,
): Promise<ApiResult<Download>> {
  const { page: _page, limit: _limit, ...filter } = params;
  const result = await client.download(path, { query: filter, ...withSignal(signal) });
  return result.ok ? { ...result, data: { blob: result.data.blob, filename: result.data.filename ?? filename } } : result;
}
