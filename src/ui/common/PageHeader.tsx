import type { ReactNode } from 'react';
import { BreadCrumb } from 'primereact/breadcrumb';
import type { MenuItem as PrimeMenuItem } from 'primereact/menuitem';
import type { Crumb } from '../../domain/navigation';
import { NavLink } from './NavLink';

export interface PageHeaderProps {
  title: string;
  subtitle?: ReactNode;
  /** Crumbs with a url are links (through onNavigate); the last one is usually the current page. */
  breadcrumb: Crumb[];
  /** Buttons shown on the right of the title. */
  actions?: ReactNode;
  onNavigate(url: string): void;
}

export function PageHeader({ title, subtitle, breadcrumb, actions, onNavigate }: PageHeaderProps) {
  const model: PrimeMenuItem[] = breadcrumb.map((crumb, index) => ({
    id: `crumb-${index}`,
    label: crumb.label,
    template: () =>
      crumb.url ? (
        <NavLink url={crumb.url} onNavigate={onNavigate} className="p-menuitem-link">
          <span className="p-menuitem-text">{crumb.label}</span>
        </NavLink>
      ) : (
        <span className="p-menuitem-text" aria-current={index === breadcrumb.length - 1 ? 'page' : undefined}>
          {crumb.label}
        </span>
      ),
  }));

  return (
    <header className="page-header">
      {model.length > 0 && <BreadCrumb model={model} aria-label="Breadcrumb" className="page-breadcrumb" />}
      <div className="page-header-row">
        <div className="page-header-text">
          <h1 className="page-title">{title}</h1>
          {subtitle != null && <p className="page-subtitle">{subtitle}</p>}
        </div>
        {actions != null && <div className="page-header-actions">{actions}</div>}
      </div>
    </header>
  );
}
