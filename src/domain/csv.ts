// CSV as the portal writes it (RFC 4180, CRLF rows): every export — statements, every list, the
// audit log — goes through these, so a spreadsheet reads them all alike. And CSV as people give it
// to the portal (bulk actions, bank statements): one lenient reader for both.

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

// ---- Reading -----------------------------------------------------------------------------------

export const csvUnclosedQuote = (line: number) => `Line ${line} opens a quoted field that never closes`;

/**
 * CSV as people paste or export it: commas (or semicolons, as banks in comma-decimal countries
 * write it), fields quoted with "" for a quote, lines ending in LF or CRLF (or nothing at the end),
 * a byte-order mark ignored. Returns each record with the line it starts on; blank lines are
 * dropped. A quote left open is the only thing that cannot be read.
 */
export function readCsvRecords(
  text: string,
  delimiter: ',' | ';' = ',',
): { ok: true; records: { line: number; fields: string[] }[] } | { ok: false; message: string } {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const end = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0]!.trim() === '')) records.push({ line: start, fields });
    fields = [];
    field = '';
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && field.trim() === '') {
      field = '';
      quoted = true;
    } else if (ch === delimiter) {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && source[i + 1] === '\n') i++;
      end();
      line++;
      start = line;
    } else field += ch;
  }
  if (quoted) return { ok: false, message: csvUnclosedQuote(start) };
  if (field !== '' || fields.length > 0) end();
  return { ok: true, records };
}
