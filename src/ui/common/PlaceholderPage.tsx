import { Card } from 'primereact/card';
import type { Crumb } from '../../domain/navigation';
import { PageHeader } from './PageHeader';

export interface PlaceholderPageProps {
  title: string;
  breadcrumb: Crumb[];
  onNavigate(url: string): void;
  /** What the finished page will hold, in a sentence or two. */
  description: string;
}

/** Stands in for a screen that is not built yet: says what will be here, shows no made-up data. */
export function PlaceholderPage({ title, breadcrumb, onNavigate, description }: PlaceholderPageProps) {
  return (
    <div className="page">
      <PageHeader title={title} breadcrumb={breadcrumb} onNavigate={onNavigate} />
      <Card className="placeholder-card">
        <div className="placeholder-body">
          <i className="pi pi-wrench placeholder-icon" aria-hidden="true" />
          <div>
            <h2 className="placeholder-title">Not available yet</h2>
            <p>{description}</p>
            <p className="text-muted">This page is still being built; nothing on it is live yet.</p>
          </div>
        </div>
      </Card>
    </div>
  );
}
