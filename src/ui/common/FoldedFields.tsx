import type { ReactNode } from 'react';

interface FoldedColumn<T> {
  header?: ReactNode;
  field?: string;
  body?: (row: T) => ReactNode;
}

/** A row's folded columns as header → cell pairs, rendered by the columns' own cell renderers. */
export function FoldedFields<T>({ id, row, columns }: { id: string; row: T; columns: readonly FoldedColumn<T>[] }) {
  return (
    <dl id={id} className="folded-fields">
      {columns.map((column, index) => (
        <div key={typeof column.header === 'string' ? column.header : index} className="folded-field">
          <dt>{column.header}</dt>
          <dd>{column.body ? column.body(row) : column.field ? String((row as Record<string, unknown>)[column.field] ?? '') : null}</dd>
        </div>
      ))}
    </dl>
  );
}
