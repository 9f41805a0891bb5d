// Small building blocks shared by the console's result panels.
import { useId, type ReactNode } from 'react';
import { Card } from 'primereact/card';
import { Tag } from 'primereact/tag';
import { DASH } from './format';

export const PAGE_SIZES = [10, 25, 50];

/** PrimeReact labels its rows-per-page dropdown "Jump to Page Dropdown"; name it for what it does. */
export const PAGINATOR_PT = { RPPDropdown: { input: { 'aria-label': 'Rows per page' } } };

export type FieldList = ReadonlyArray<readonly [label: string, value: ReactNode]>;

/** Label / value pairs as a definition list. */
export function Fields({ items, className }: { items: FieldList; className?: string }) {
  return (
    <dl className={`console-fields${className ? ` ${className}` : ''}`}>
      {items.map(([label, value]) => (
        <div key={label} className="console-field">
          <dt>{label}</dt>
          <dd>{value ?? DASH}</dd>
        </div>
      ))}
    </dl>
  );
}

export function StatusTag({ active }: { active: boolean }) {
  return <Tag value={active ? 'Active' : 'Inactive'} severity={active ? 'success' : 'danger'} rounded />;
}

/** A card that says there is nothing to show, with a heading and one line. */
export function EmptyCard({ icon, title, text, children }: { icon: string; title: string; text: string; children?: ReactNode }) {
  return (
    <Card className="console-empty-card">
      <div className="console-empty-body">
        <i className={`${icon} console-empty-icon`} aria-hidden="true" />
        <h3 className="console-empty-title">{title}</h3>
        <p className="text-muted">{text}</p>
        {children}
      </div>
    </Card>
  );
}

export { ErrorCard } from '../common/ErrorCard';

/** Pretty JSON in a scrollable, focusable block. */
export function RawJson({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="console-raw" tabIndex={0} aria-label={label}>
      {JSON.stringify(value ?? null, null, 2)}
    </pre>
  );
}

/** A headed block inside a tab. */
export function Block({
  title,
  children,
  level = 3,
  wide = false,
}: {
  title: string;
  children: ReactNode;
  level?: 3 | 4;
  /** Spans the whole row of a column layout (tables). */
  wide?: boolean;
}) {
  const id = useId();
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <section className={`console-block console-block-${level}${wide ? ' console-block-wide' : ''}`} aria-labelledby={id}>
      <Heading id={id} className="console-block-title">
        {title}
      </Heading>
      {children}
    </section>
  );
}
