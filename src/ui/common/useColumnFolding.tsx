// Responsive list tables: each table declares its columns with a priority. On a phone
// (the portal's one breakpoint, see useNarrowViewport) the 'fold' columns leave the table and show,
// with the same cell renderers, in an expansion row under their row, opened by a per-row toggle
// "More about <row>". At desktop widths nothing folds: a table must fit its card by layout instead.
//
// PrimeReact's DataTable reads its columns from its direct children, so the hook hands the table
// its columns and expansion props together: `<DataTable … {...folding.table(columns)} />`.
import { useCallback, useId, useState, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Column, type ColumnProps } from 'primereact/column';
import { FoldedFields } from './FoldedFields';
import { useNarrowViewport } from './useNarrowViewport';
import './responsive-table.css';

/**
 * A column of a list table: PrimeReact's column props, a body renderer over the row, and whether
 * the column stays on a phone ('always': the row's identity, its status and its actions) or
 * folds into the row's expansion ('fold').
 */
export interface FoldableColumn<T> extends Omit<ColumnProps, 'body' | 'header'> {
  priority: 'always' | 'fold';
  header?: ReactNode;
  body?: (row: T) => ReactNode;
}

/** What a table shows in a row's expansion besides the folded columns (e.g. a delivery's attempts). */
export interface ExtraExpansion<T> {
  /** The rows whose extra expansion is open. */
  rows: readonly T[];
  render(row: T): ReactNode;
}

export interface ColumnFoldingOptions<T> {
  /** The row's stable key (the DataTable's dataKey value). */
  rowKey(row: T): string;
  /** How a person names the row, for its toggle: "More about <name>". */
  rowName(row: T): string;
  extraExpansion?: ExtraExpansion<T>;
}

/** The props `table(columns)` gives the DataTable: its columns and its row expansion. */
export interface FoldingTableProps<T> {
  children: ReactElement[];
  expandedRows: T[];
  rowExpansionTemplate: (row: T) => ReactNode;
  tableClassName: string;
}

export interface ColumnFolding<T> {
  /** The viewport is narrow: 'fold' columns are in the expansion rows. */
  folded: boolean;
  table(columns: ReadonlyArray<FoldableColumn<T> | false | null | undefined>): FoldingTableProps<T>;
}

export const moreAboutLabel = (name: string) => `More about ${name}`;

function columnKey<T>(column: FoldableColumn<T>, index: number): string {
  return typeof column.header === 'string' ? column.header : `column-${index}`;
}

export function useColumnFolding<T>({ rowKey, rowName, extraExpansion }: ColumnFoldingOptions<T>): ColumnFolding<T> {
  const folded = useNarrowViewport();
  const baseId = useId();
  // Row objects, not keys: PrimeReact matches them to the shown rows by dataKey, so a reloaded page
  // keeps its open rows.
  const [open, setOpen] = useState<readonly T[]>([]);

  const toggle = useCallback(
    (row: T) => {
      const key = rowKey(row);
      setOpen((current) => (current.some((r) => rowKey(r) === key) ? current.filter((r) => rowKey(r) !== key) : [...current, row]));
    },
    [rowKey],
  );

  const table = (all: ReadonlyArray<FoldableColumn<T> | false | null | undefined>): FoldingTableProps<T> => {
    const columns = all.filter((c): c is FoldableColumn<T> => !!c);
    const foldable = columns.filter((c) => c.priority === 'fold');
    const folding = folded && foldable.length > 0;
    const isFoldOpen = (row: T) => folding && open.some((r) => rowKey(r) === rowKey(row));
    const isExtraOpen = (row: T) => !!extraExpansion?.rows.some((r) => rowKey(r) === rowKey(row));
    const fieldsId = (row: T) => `${baseId}-${rowKey(row).replace(/\s+/g, '_')}`;

    const shown = columns
      .map((column, index) => ({ column, key: columnKey(column, index) }))
      .filter(({ column }) => !folding || column.priority === 'always')
      .map(({ column: { priority: _priority, ...props }, key }) => <Column key={key} {...props} />);
    const toggleColumn = (
      <Column
        key="fold-toggle"
        header={<span className="sr-only">More</span>}
        headerClassName="fold-toggle-cell"
        bodyClassName="fold-toggle-cell"
        body={(row: T) => {
          const expanded = isFoldOpen(row);
          return (
            <Button
              type="button"
              icon={expanded ? 'pi pi-chevron-down' : 'pi pi-chevron-right'}
              text
              rounded
              size="small"
              aria-label={moreAboutLabel(rowName(row))}
              aria-expanded={expanded}
              aria-controls={expanded ? fieldsId(row) : undefined}
              onClick={(event: MouseEvent) => {
                // A row may open its detail on click (terminals): the toggle only opens the fields.
                event.stopPropagation();
                toggle(row);
              }}
            />
          );
        }}
      />
    );

    const expandedRows = [...(folding ? open : []), ...(extraExpansion?.rows ?? []).filter((row) => !isFoldOpen(row))];
    return {
      children: folding ? [toggleColumn, ...shown] : shown,
      expandedRows,
      rowExpansionTemplate: (row: T) => (
        <>
          {isExtraOpen(row) && extraExpansion?.render(row)}
          {isFoldOpen(row) && <FoldedFields id={fieldsId(row)} row={row} columns={foldable} />}
        </>
      ),
      tableClassName: folding ? 'responsive-table responsive-table-folded' : 'responsive-table',
    };
  };

  return { folded, table };
}
