// A summary card: a titled figure with its icon, a skeleton while it loads, and whatever the page
// puts beneath it (a hint, a list of facts). The customers, terminals, customer usage and dashboard
// pages all draw their cards with it.
import { useId, type ReactNode } from 'react';
import { Skeleton } from 'primereact/skeleton';

export interface StatCardProps {
  title: string;
  icon: string;
  loading: boolean;
  /** The figure: null is not known yet (a skeleton, as while loading); leave it out for a card of facts only. */
  value?: ReactNode;
  /** h2 on a page, h3 inside a section that has its own heading. */
  headingLevel?: 2 | 3;
  className?: string;
  valueClassName?: string;
  children?: ReactNode;
}

export function StatCard({ title, icon, loading, value, headingLevel = 2, className, valueClassName, children }: StatCardProps) {
  const headingId = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <section className={className ? `stat-card ${className}` : 'stat-card'} aria-labelledby={headingId} aria-busy={loading || undefined}>
      <div className="stat-card-head">
        <Heading id={headingId} className="stat-card-title">
          {title}
        </Heading>
        <i className={`${icon} stat-card-icon`} aria-hidden="true" />
      </div>
      {value !== undefined &&
        (loading || value === null ? (
          <Skeleton width="4rem" height="2rem" className="stat-skeleton" />
        ) : (
          <div className={valueClassName ? `stat-card-value ${valueClassName}` : 'stat-card-value'}>{value}</div>
        ))}
      {children}
    </section>
  );
}
