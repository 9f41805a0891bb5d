// Payments → Import bank statement: the bank's file, its format, for a CSV which column holds
// what, and Import; then the server's words and the file's lines with what became of each.
// Renders props and calls callbacks; the steps are the bank import machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { SelectButton } from 'primereact/selectbutton';
import { BANK_FORMATS, type BankFormat, type BankImportReportWire, type BankLineWire, type CsvMappingForm } from '../../../domain/ledger';
import { DASH } from '../../common/format';
import { useColumnFolding } from '../../common/useColumnFolding';
import { SelectField, TextField } from '../prices/fields';
import { BankLineStatusTag, FORMAT_LABELS, PAYMENTS_TEXTS as T, lineAmount, lineName } from './parts';

/** The CSV mapping as typed (the bank import machine's form). */
export type CsvMappingValues = CsvMappingForm;
export type CsvMappingName = keyof CsvMappingValues;

export const DATE_FORMAT_OPTIONS = (['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const).map((value) => ({ label: value, value }));
export const DECIMAL_OPTIONS = [
  { label: 'Point (120.50)', value: '.' },
  { label: 'Comma (120,50)', value: ',' },
] as const;
export const DELIMITER_OPTIONS = [
  { label: 'Comma (,)', value: ',' },
  { label: 'Semicolon (;)', value: ';' },
] as const;

export const MAPPING_LABELS: Readonly<Record<Exclude<CsvMappingName, 'dateFormat' | 'decimalSeparator' | 'delimiter'>, string>> = {
  date: 'Date column',
  amount: 'Amount column',
  payer: 'Payer column',
  remittance: 'Remittance column',
  reference: 'Reference column (optional)',
  currencyColumn: 'Currency column (optional)',
  currency: 'Currency of every line',
};

export interface BankImportPanelProps {
  step: 'form' | 'report';
  reading: boolean;
  importing: boolean;
  busy: boolean;
  fileName: string | null;
  format: BankFormat;
  csv: CsvMappingValues;
  errors: Partial<Record<'file' | CsvMappingName, string>>;
  failure: string | null;
  report: BankImportReportWire | null;
  message: string | null;
  onFile(file: File | null): void;
  onFormat(format: BankFormat): void;
  onMapping(field: CsvMappingName, value: string): void;
  onImport(): void;
  onAgain(): void;
}

export function BankImportPanel(props: BankImportPanelProps) {
  const id = useId();
  return (
    <section className="list-card payments-import" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.importTitle}</h2>
      {props.step === 'report' && props.report ? <ImportReport report={props.report} message={props.message} onAgain={props.onAgain} /> : <ImportForm {...props} />}
    </section>
  );
}

function ImportForm(props: BankImportPanelProps) {
  const id = useId();
  const { busy, errors, csv } = props;
  const text = (field: keyof typeof MAPPING_LABELS, extra: { placeholder?: string; hint?: string } = {}) => (
    <TextField label={MAPPING_LABELS[field]} value={csv[field]} error={errors[field]} disabled={busy} {...extra} onChange={(value) => props.onMapping(field, value)} />
  );
  return (
    <form
      className="dialog-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onImport();
      }}
    >
      {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
      <div className="payments-import-row">
        <div className="form-field">
          <label htmlFor={`${id}-file`}>{T.fileLabel}</label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".xml,.csv,.txt"
            disabled={busy}
            aria-invalid={errors.file !== undefined}
            aria-describedby={errors.file ? `${id}-file-error` : undefined}
            onChange={(event) => props.onFile(event.currentTarget.files?.[0] ?? null)}
          />
          {errors.file && (
            <small id={`${id}-file-error`} className="p-error">
              {errors.file}
            </small>
          )}
        </div>
        <div className="form-field">
          <span id={`${id}-format`}>{T.formatLabel}</span>
          <SelectButton
            aria-labelledby={`${id}-format`}
            value={props.format}
            allowEmpty={false}
            disabled={busy}
            options={BANK_FORMATS.map((value) => ({ label: FORMAT_LABELS[value], value }))}
            onChange={(event) => {
              if (event.value) props.onFormat(event.value as BankFormat);
            }}
          />
        </div>
      </div>
      {props.format === 'csv' && (
        <fieldset className="form-field payments-mapping" disabled={busy}>
          <legend>{T.mappingTitle}</legend>
          <small className="cell-secondary">{T.mappingHint}</small>
          <div className="price-dialog-grid">
            {text('date')}
            {text('amount')}
            {text('payer')}
            {text('remittance')}
            {text('reference')}
            {text('currencyColumn')}
            {text('currency', { placeholder: 'USD', hint: 'Used when there is no currency column' })}
            <SelectField label="Date format" value={csv.dateFormat} options={DATE_FORMAT_OPTIONS} error={errors.dateFormat} disabled={busy} onChange={(value) => props.onMapping('dateFormat', value)} />
            <SelectField label="Decimal separator" value={csv.decimalSeparator} options={DECIMAL_OPTIONS} error={errors.decimalSeparator} disabled={busy} onChange={(value) => props.onMapping('decimalSeparator', value)} />
            <SelectField label="Delimiter" value={csv.delimiter} options={DELIMITER_OPTIONS} error={errors.delimiter} disabled={busy} onChange={(value) => props.onMapping('delimiter', value)} />
          </div>
        </fieldset>
      )}
      <div className="payments-import-actions">
        <Button
          type="submit"
          label={props.reading ? T.reading : props.importing ? T.importing : T.importButton}
          icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-upload'}
          disabled={busy}
        />
      </div>
    </form>
  );
}

function ImportReport({ report, message, onAgain }: { report: BankImportReportWire; message: string | null; onAgain(): void }) {
  const folding = useColumnFolding<BankLineWire>({ rowKey: (line) => line.id, rowName: lineName });
  return (
    <div className="payments-report">
      <p role="status" className="payments-report-message">
        <strong>{report.fileName}</strong>: {message}
        {report.skipped > 0 && ` (${report.skipped} ${report.skipped === 1 ? 'line was' : 'lines were'} not money in and ${report.skipped === 1 ? 'was' : 'were'} skipped)`}
      </p>
      <DataTable
        value={[...report.items]}
        dataKey="id"
        emptyMessage="The file held no money-in line"
        pt={{ table: { 'aria-label': T.reportTable } }}
        {...folding.table([
          { priority: 'always', header: 'Booked on', body: (line) => <span className="price-nowrap">{line.bookedOn}</span> },
          { priority: 'fold', header: 'Payer', body: (line) => line.payer ?? DASH },
          { priority: 'fold', header: 'Remittance', body: (line) => line.remittance ?? DASH },
          { priority: 'always', header: 'Amount', body: (line) => lineAmount(line), className: 'price-number' },
          { priority: 'always', header: 'Status', body: (line) => <BankLineStatusTag status={line.status} /> },
          {
            priority: 'fold',
            header: 'Matched to',
            body: (line) => (line.customerName ? `${line.customerName}${line.statementNumbers.length > 0 ? ` \u00b7 ${line.statementNumbers.join(', ')}` : ''}` : DASH),
          },
        ])}
      />
      <div className="payments-import-actions">
        <Button type="button" label={T.importAnother} icon="pi pi-refresh" outlined onClick={onAgain} />
      </div>
    </div>
  );
}
