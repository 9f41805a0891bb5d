/**
 * Payments → Import bank statement (billing:manage): a bank's file, read as text in the browser
 * and sent whole to the server, which matches each money-in line to a customer's statements or
 * leaves it waiting for a person.
 *
 *   idle        the form: the file, its format (camt.053 XML or CSV) and, for a CSV, which column
 *               holds what; a problem sits under its field once Import was pressed and clears when
 *               that field changes; the server's refusal (a 400 names the element at fault) sits
 *               above the form
 *   reading     the browser reads the file                                         (tag: busy)
 *   importing   "Importing..." while the server reads, matches and posts          (tag: busy)
 *   done        the server's words ("3 matched, 1 to match by hand, 0 already imported") and the
 *               file's lines with what became of each; "Import another file" is the form again
 *
 * An import tells the page (`bankImported`), which reloads the waiting lines and the ledger.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FieldErrors } from '../domain/customers';
import { BANK_FILE_MAX_BYTES, type BankFormat, type BankImportBody, type BankImportReportWire, type CsvMapping, type CsvMappingForm } from '../domain/ledger';
import { CURRENCY_PATTERN } from '../domain/money';
import { failureText, hasErrors } from './customer-forms';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

/** What the machine needs of a chosen file (a browser File is one). */
export interface BankFile {
  name: string;
  size: number;
  text(): Promise<string>;
}

export type { CsvMappingForm };
export type CsvMappingField = keyof CsvMappingForm;
export type BankImportField = 'file' | CsvMappingField;

export const CSV_DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const satisfies readonly CsvMapping['dateFormat'][];

export const DEFAULT_CSV_MAPPING: CsvMappingForm = {
  date: 'Date',
  amount: 'Amount',
  payer: 'Payer',
  remittance: 'Remittance',
  reference: '',
  currencyColumn: '',
  currency: 'USD',
  dateFormat: 'YYYY-MM-DD',
  decimalSeparator: '.',
  delimiter: ',',
};

/** The server's words with the report. */
export interface BankImportDone {
  report: BankImportReportWire;
  message: string;
}

export interface BankImportContext {
  file: BankFile | null;
  format: BankFormat;
  csv: CsvMappingForm;
  /** The file's text, once read. */
  content: string | null;
  errors: FieldErrors<BankImportField>;
  failure: string | null;
  report: BankImportReportWire | null;
  message: string | null;
}

export type BankImportEvent =
  | { type: 'user.file'; file: BankFile | null }
  | { type: 'user.format'; format: BankFormat }
  | { type: 'user.mapping'; field: CsvMappingField; value: string }
  | { type: 'user.import' }
  | { type: 'user.again' };

export const BANK_IMPORT_TEXTS = {
  fileRequired: 'Choose the bank statement file',
  fileTooLarge: 'The file is larger than 5 MB',
  columnRequired: (label: string) => `Name the column that holds the ${label}`,
  currencyRequired: 'Name a currency column, or give the currency of every line (three letters, such as USD)',
  readFailed: 'The file could not be read. Choose it again.',
  importFailed: failureText('import the file', null),
} as const;

const REQUIRED_COLUMNS = [
  ['date', 'date'],
  ['amount', 'amount'],
  ['payer', 'payer'],
  ['remittance', 'remittance information'],
] as const;

/** The format a file's name suggests: .xml is camt.053, .csv and .txt are CSV; anything else keeps the choice. */
export function formatOfName(name: string, current: BankFormat): BankFormat {
  const lower = name.toLowerCase();
  if (lower.endsWith('.xml')) return 'camt053';
  if (lower.endsWith('.csv') || lower.endsWith('.txt')) return 'csv';
  return current;
}

export function validateBankImport(context: Pick<BankImportContext, 'file' | 'format' | 'csv'>): FieldErrors<BankImportField> {
  const errors: FieldErrors<BankImportField> = {};
  if (!context.file) errors.file = BANK_IMPORT_TEXTS.fileRequired;
  else if (context.file.size > BANK_FILE_MAX_BYTES) errors.file = BANK_IMPORT_TEXTS.fileTooLarge;
  if (context.format === 'csv') {
    for (const [field, label] of REQUIRED_COLUMNS) if (!context.csv[field].trim()) errors[field] = BANK_IMPORT_TEXTS.columnRequired(label);
    if (!context.csv.currencyColumn.trim() && !CURRENCY_PATTERN.test(context.csv.currency.trim().toUpperCase())) errors.currency = BANK_IMPORT_TEXTS.currencyRequired;
  }
  return errors;
}

/** The mapping as the server takes it: blanks are none; a currency column wins over a fixed currency. */
export function csvMappingOf(form: CsvMappingForm): CsvMapping {
  const blankIsNone = (text: string) => text.trim() || null;
  const currencyColumn = blankIsNone(form.currencyColumn);
  return {
    date: form.date.trim(),
    amount: form.amount.trim(),
    payer: form.payer.trim(),
    remittance: form.remittance.trim(),
    reference: blankIsNone(form.reference),
    currencyColumn,
    currency: currencyColumn ? null : form.currency.trim().toUpperCase(),
    dateFormat: form.dateFormat,
    decimalSeparator: form.decimalSeparator,
    delimiter: form.delimiter,
  };
}

export function bankImportBody(context: Pick<BankImportContext, 'file' | 'format' | 'csv' | 'content'>): BankImportBody {
  return {
    format: context.format,
    fileName: context.file?.name ?? '',
    content: context.content ?? '',
    csv: context.format === 'csv' ? csvMappingOf(context.csv) : null,
  };
}

const bankImportSetup = setup({
  types: {
    context: {} as BankImportContext,
    events: {} as BankImportEvent,
  },
  actors: {
    readFile: fromPromise<string, { file: BankFile }>(async () => {
      throw new Error('readFile is provided by the app');
    }),
    importFile: fromPromise<LoadOutcome<BankImportDone>, BankImportBody>(async () => {
      throw new Error('importFile is provided by the app');
    }),
  },
  actions: {
    storeFile: assign(({ context }, file: BankFile | null) => {
      const format = file ? formatOfName(file.name, context.format) : context.format;
      // A file of the other format asks other questions, as choosing the format does.
      return { file, format, content: null, errors: format === context.format ? { ...context.errors, file: undefined } : {}, failure: null };
    }),
    // Another format asks other questions: the mapping's problems go with the old one.
    storeFormat: assign((_, format: BankFormat) => ({ format, errors: {}, failure: null })),
    storeMapping: assign(({ context }, { field, value }: { field: CsvMappingField; value: string }) => ({
      csv: { ...context.csv, [field]: value },
      // A currency column or a fixed currency answers the same question.
      errors: { ...context.errors, [field]: undefined, ...(field === 'currencyColumn' ? { currency: undefined } : {}) },
      failure: null,
    })),
    storeProblems: assign(({ context }) => ({ errors: validateBankImport(context) })),
    storeContent: assign((_, content: string) => ({ content })),
    storeReport: assign((_, outcome: LoadOutcome<BankImportDone>) => (outcome.ok ? { report: outcome.data.report, message: outcome.data.message } : {})),
    startAgain: assign({ file: null, content: null, errors: {}, failure: null, report: null, message: null }),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reloads the waiting lines and the ledger. */
    bankImported: () => {},
  },
  guards: {
    isReady: ({ context }) => !hasErrors(validateBankImport(context)),
    isDone: (_, outcome: LoadOutcome<BankImportDone>) => outcome.ok,
  },
});

const submitting = submittingStates(bankImportSetup);

export const bankImportMachine = bankImportSetup.createMachine({
  id: 'bankImport',
  context: { file: null, format: 'camt053', csv: DEFAULT_CSV_MAPPING, content: null, errors: {}, failure: null, report: null, message: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'user.file': { actions: { type: 'storeFile', params: ({ event }) => event.file } },
        'user.format': { actions: { type: 'storeFormat', params: ({ event }) => event.format } },
        'user.mapping': { actions: { type: 'storeMapping', params: ({ event }) => event } },
        // A form with a problem stays, each problem under its field; nothing is read or sent.
        'user.import': [{ guard: 'isReady', target: 'reading' }, { actions: 'storeProblems' }],
      },
    },
    reading: {
      tags: ['busy'],
      entry: 'clearFailure',
      invoke: {
        id: 'readFile',
        src: 'readFile',
        input: ({ context }) => ({ file: context.file! }),
        onDone: { target: 'importing', actions: { type: 'storeContent', params: ({ event }) => event.output } },
        // The file went away or changed under the browser: choosing it again reads it again.
        onError: {
          target: 'idle',
          actions: [
            { type: 'storeFailure', params: BANK_IMPORT_TEXTS.readFailed },
            { type: 'notifyFailure', params: BANK_IMPORT_TEXTS.readFailed },
          ],
        },
      },
    },
    importing: submitting({
      src: 'importFile',
      input: ({ context }) => bankImportBody(context),
      success: {
        target: 'done',
        actions: [
          { type: 'storeReport', params: ({ event }) => event.output },
          { type: 'notifySuccess', params: ({ event }) => (event.output.ok ? event.output.data.message : '') },
          'bankImported',
        ],
      },
      back: 'idle',
      failure: (why) => why?.trim() || BANK_IMPORT_TEXTS.importFailed,
    }),
    done: {
      on: { 'user.again': { target: 'idle', actions: 'startAgain' } },
    },
  },
});

export type BankImportMachine = typeof bankImportMachine;

// ---- What the page shows -----------------------------------------------------------------------

export interface BankImportView {
  /** The form, or the report of the file just imported. */
  step: 'form' | 'report';
  reading: boolean;
  importing: boolean;
  busy: boolean;
  fileName: string | null;
  format: BankFormat;
  csv: CsvMappingForm;
  errors: FieldErrors<BankImportField>;
  failure: string | null;
  report: BankImportReportWire | null;
  message: string | null;
}

export function bankImportView(snapshot: SnapshotFrom<BankImportMachine>): BankImportView {
  const { context } = snapshot;
  return {
    step: snapshot.matches('done') ? 'report' : 'form',
    reading: snapshot.matches('reading'),
    importing: snapshot.matches('importing'),
    busy: snapshot.hasTag('busy'),
    fileName: context.file?.name ?? null,
    format: context.format,
    csv: context.csv,
    errors: context.errors,
    failure: context.failure,
    report: context.report,
    message: context.message,
  };
}
