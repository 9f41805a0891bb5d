// What a page the signed-in user may not read shows instead of its content: the page's title, and
// why there is nothing under it. The server refuses the page's data as well.
import { Card } from 'primereact/card';
import type { PageMeta } from '../../domain/navigation';
import { PageHeader } from './PageHeader';

export const NO_PERMISSION_TEXTS = {
  title: 'You do not have permission to view this page',
  detail: 'Your roles do not include this part of the portal. Ask whoever manages portal users for a role that does.',
} as const;

export function NoPermission({ meta, onNavigate }: { meta: PageMeta | null; onNavigate(url: string): void }) {
  return (
    <div className="page">
      {meta && <PageHeader title={meta.title} breadcrumb={meta.breadcrumb} onNavigate={onNavigate} />}
      <Card className="error-card no-permission-card">
        <div className="error-card-body" role="status">
          <i className="pi pi-lock error-card-icon" aria-hidden="true" />
          <div className="error-card-text">
            <h2 className="error-card-title">{NO_PERMISSION_TEXTS.title}</h2>
            <p>{NO_PERMISSION_TEXTS.detail}</p>
          </div>
        </div>
      </Card>
    </div>
  );
}
