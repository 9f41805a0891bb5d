// The paging row under a list page's table: shown only when there is more than one page; pages
// are 1-based as the server counts them.
import { Paginator } from 'primereact/paginator';
import type { Pagination } from '../../domain/customers';

export function ListPaginator(props: { pagination: Pagination; onPage: (page: number) => void }) {
  const { pagination } = props;
  if (pagination.pages <= 1) return null;
  return <Paginator first={(pagination.page - 1) * pagination.limit} rows={pagination.limit} totalRecords={pagination.total} onPageChange={(e) => props.onPage(e.page + 1)} />;
}
