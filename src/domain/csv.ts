// CSV as the portal writes it (RFC 4180, CRLF rows): every export — statements, every list, the
// audit log — goes through these, so a spreadsheet reads them all alike.

/** A CSV field: quoted when it holds a comma, quote or line break; a leading =, +, - or @ of text is defused. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // A cell starting with a formula character would run as a formula in a spreadsheet (CSV injection).
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (fields: readonly (string | number | boolean | null | undefined)[]) => `${fields.map(csvField).join(',')}\r\n`;

/** One column of an exported list: its header and how a row gives its cell. */
export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | null | undefined;
}

/** The header row of a set of columns. */
export const csvHeader = <Row>(columns: readonly CsvColumn<Row>[]) => csvRow(columns.map((column) => column.header));

/** One data row of a set of columns. */
export const csvLine = <Row>(columns: readonly CsvColumn<Row>[], row: Row) => csvRow(columns.map((column) => column.value(row)));
