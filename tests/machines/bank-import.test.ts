import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BANK_FILE_MAX_BYTES } from '../../src/domain/ledger';
import { BANK_IMPORT_TEXTS, DEFAULT_CSV_MAPPING, bankImportView, csvMappingOf, formatOfName, validateBankImport } from '../../src/machines/bank-import';
import { bankFile, chooseFile, chooseFormat, importAgain, importMessage, importReport, mapColumn, startBankImport, startImport } from '../fixtures/ledger';
import { refused } from './scripted-actors';

describe('bank import rules', () => {
  it('guesses the format from the file name and keeps the choice for anything else', () => {
    expect(formatOfName('April.XML', 'csv')).toBe('camt053');
    expect(formatOfName('april.csv', 'camt053')).toBe('csv');
    expect(formatOfName('april.txt', 'camt053')).toBe('csv');
    expect(formatOfName('april.dat', 'csv')).toBe('csv');
  });

  it('asks for a file under 5 MB, and for a CSV the four columns and a currency column or a fixed currency', () => {
    expect(validateBankImport({ file: null, format: 'camt053', csv: DEFAULT_CSV_MAPPING })).toEqual({ file: BANK_IMPORT_TEXTS.fileRequired });
    expect(validateBankImport({ file: bankFile('big.xml', '', BANK_FILE_MAX_BYTES + 1), format: 'camt053', csv: DEFAULT_CSV_MAPPING }).file).toBe(BANK_IMPORT_TEXTS.fileTooLarge);
    const csv = { ...DEFAULT_CSV_MAPPING, payer: ' ', currency: 'dollars' };
    expect(Object.keys(validateBankImport({ file: bankFile('a.csv'), format: 'csv', csv })).sort()).toEqual(['currency', 'payer']);
    expect(validateBankImport({ file: bankFile('a.csv'), format: 'csv', csv: { ...csv, payer: 'Name', currencyColumn: 'Ccy' } })).toEqual({});
  });

  it('sends blanks as none, and a currency column instead of a fixed currency', () => {
    expect(csvMappingOf({ ...DEFAULT_CSV_MAPPING, reference: ' ', currency: 'eur' })).toMatchObject({ reference: null, currencyColumn: null, currency: 'EUR' });
    expect(csvMappingOf({ ...DEFAULT_CSV_MAPPING, currencyColumn: 'Ccy' })).toMatchObject({ currencyColumn: 'Ccy', currency: null });
  });
});

describe('bank import machine', () => {
  it('reads nothing without a file, and shows why under the file', () => {
    const { actor, called } = startBankImport();
    actor.send(startImport);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.errors.file).toBe(BANK_IMPORT_TEXTS.fileRequired);
    actor.send(chooseFile());
    expect(actor.getSnapshot().context.errors.file).toBeUndefined();
    expect(called('readFile')).toHaveLength(0);
  });

  it('reads the file, sends it with its CSV mapping, shows the report with the server’s words and tells the page', async () => {
    const { actor, called, notifySuccess, bankImported } = startBankImport({ read: ['Date,Amount\n'] });
    actor.send(chooseFile(bankFile('april.csv')));
    expect(actor.getSnapshot().context.format).toBe('csv');
    actor.send(mapColumn('reference', 'Ref'));
    actor.send(startImport);
    expect(bankImportView(actor.getSnapshot())).toMatchObject({ reading: true, busy: true });
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(called('importFile').map((c) => c.input)).toEqual([
      { format: 'csv', fileName: 'april.csv', content: 'Date,Amount\n', csv: { ...csvMappingOf(DEFAULT_CSV_MAPPING), reference: 'Ref' } },
    ]);
    expect(bankImportView(done)).toMatchObject({ step: 'report', message: importMessage, report: importReport() });
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(importMessage);
    expect(bankImported).toHaveBeenCalledOnce();
    actor.send(importAgain);
    expect(bankImportView(actor.getSnapshot())).toMatchObject({ step: 'form', fileName: null, report: null, csv: { reference: 'Ref' } });
  });

  it('sends a camt.053 file without a mapping, and keeps the form with the server’s words when it refuses', async () => {
    const message = 'Not a camt.053 statement: <BkToCstmrStmt> is missing';
    const { actor, called, notifyFailure, bankImported } = startBankImport({ import: [refused(message)] });
    actor.send(chooseFile());
    actor.send(startImport);
    const back = await waitFor(actor, (s) => s.matches('idle') && s.context.failure !== null);
    expect(back.context.failure).toBe(message);
    expect(called('importFile')[0]!.input).toMatchObject({ format: 'camt053', fileName: 'april.xml', csv: null });
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(message);
    expect(bankImported).not.toHaveBeenCalled();
  });

  it('says so when the browser cannot read the file, and sends nothing', async () => {
    const { actor, called } = startBankImport({ read: [new Error('NotReadableError')] });
    actor.send(chooseFile());
    actor.send(startImport);
    const back = await waitFor(actor, (s) => s.matches('idle') && s.context.failure !== null);
    expect(back.context.failure).toBe(BANK_IMPORT_TEXTS.readFailed);
    expect(called('importFile')).toHaveLength(0);
  });

  it('drops the mapping’s problems with the format that asked them', () => {
    const { actor } = startBankImport();
    actor.send(chooseFormat('csv'));
    actor.send(mapColumn('date', ''));
    actor.send(startImport);
    expect(Object.keys(actor.getSnapshot().context.errors).sort()).toEqual(['date', 'file']);
    actor.send(chooseFormat('camt053'));
    expect(actor.getSnapshot().context.errors).toEqual({});
  });

  it('drops them too when a file of the other format is chosen, and keeps them for one of the same format', () => {
    const { actor } = startBankImport();
    actor.send(chooseFile(bankFile('april.csv')));
    actor.send(mapColumn('payer', ''));
    actor.send(startImport);
    actor.send(chooseFile(bankFile('may.csv')));
    expect(actor.getSnapshot().context.errors).toEqual({ payer: BANK_IMPORT_TEXTS.columnRequired('payer') });
    actor.send(chooseFile(bankFile('may.xml')));
    expect(actor.getSnapshot().context).toMatchObject({ format: 'camt053', errors: {} });
  });
});
