// Payments → Import bank statement (bankImport machine): its generated paths walked on the machine
// and through the /billing/payments page (a camt.053 file or a CSV chosen, the format switched,
// the payer column left blank, Import, the report, Import another file), plus a journey pinned
// by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BANK_IMPORT_TEXTS, bankImportMachine, validateBankImport } from '../../../src/machines/bank-import';
import { MAPPING_LABELS } from '../../../src/ui/billing/payments/BankImportPanel';
import { FORMAT_LABELS, PAYMENTS_TEXTS as T } from '../../../src/ui/billing/payments/parts';
import { bankFile, chooseFile, chooseFormat, importAgain, importMessage, imported, mapColumn, paymentsAnswers, startBankImport, startImport } from '../../fixtures/ledger';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const XML = '<Document><BkToCstmrStmt/></Document>';
const CSV = 'Date,Amount,Payer,Remittance\r\n';
const REFUSAL = 'Not a camt.053 statement: <Stmt> has no <Ntry>';
const files = { 'april.xml': XML, 'april.csv': CSV } as const;

const section = () => within(screen.getByRole('region', { name: T.importTitle }));
const fileInput = () => section().getByLabelText(T.fileLabel) as HTMLInputElement;
const importButton = (name: string) => section().getByRole('button', { name }) as HTMLButtonElement;
const payer = () => section().getByLabelText(MAPPING_LABELS.payer) as HTMLInputElement;

export const bankImportModel = defineModel<typeof bankImportMachine, PageScreen>({
  name: 'bank-import',
  machine: bankImportMachine,
  events: {
    'user.file': [chooseFile(bankFile('april.xml', XML)), chooseFile(bankFile('april.csv', CSV))],
    'user.format': [chooseFormat('csv'), chooseFormat('camt053')],
    // A blank payer column is refused on the page.
    'user.mapping': [mapColumn('payer', '')],
    'user.import': [startImport],
    'user.again': [importAgain],
  },
  actorResults: [
    done('readFile', XML),
    failed('readFile', new Error('NotReadableError')),
    done('importFile', ok(imported)),
    done('importFile', refused(REFUSAL)),
    failed('importFile', new TypeError('fetch failed')),
  ],
  states: {
    idle: (s) => {
      expect(s.hasTag('busy')).toBe(false);
      if (s.context.failure) expect([BANK_IMPORT_TEXTS.readFailed, REFUSAL, BANK_IMPORT_TEXTS.importFailed]).toContain(s.context.failure);
    },
    reading: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(validateBankImport(s.context)).toEqual({});
    },
    importing: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.content).toBe(XML);
    },
    done: (s) => {
      expect(s.context.report).toEqual(imported.report);
      expect(s.context.message).toBe(importMessage);
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage('/billing/payments', seam, paymentsAnswers());
      await screen.findByRole('region', { name: T.importTitle }, { timeout: 5000 });
      return page;
    },
    drivable: (snapshot, event) => {
      const { format, csv } = snapshot.context;
      // The format already chosen gives no change; the mapping shows for a CSV only, and a blank
      // field cleared again gives none.
      if (event.type === 'user.format') return format !== event.format;
      if (event.type === 'user.mapping') return format === 'csv' && csv[event.field] !== event.value;
      return true;
    },
    events: {
      'user.file': async ({ user }, event) => {
        const name = event.file!.name as keyof typeof files;
        await user.upload(fileInput(), new File([files[name]], name));
      },
      'user.format': async ({ user }, event) => user.click(section().getByRole('button', { name: FORMAT_LABELS[event.format] })),
      'user.mapping': async ({ user }) => user.clear(payer()),
      'user.import': async ({ user }) => user.click(importButton(T.importButton)),
      'user.again': async ({ user }) => user.click(importButton(T.importAnother)),
    },
    states: {
      idle: ({ context }) => {
        expect(fileInput().files?.[0]?.name ?? null).toBe(context.file?.name ?? null);
        if (context.format === 'csv') expect(payer().value).toBe(context.csv.payer);
        else expect(section().queryByLabelText(MAPPING_LABELS.payer)).toBeNull();
        for (const message of Object.values(context.errors)) if (message) expect(section().getByText(message)).toBeTruthy();
        if (context.failure) expect(section().getByText(context.failure)).toBeTruthy();
        expect(importButton(T.importButton).disabled).toBe(false);
      },
      reading: () => {
        expect(importButton(T.reading).disabled).toBe(true);
        expect(fileInput().disabled).toBe(true);
      },
      importing: () => expect(importButton(T.importing).disabled).toBe(true),
      done: ({ context }) => {
        expect(section().getByRole('status').textContent).toBe(`${context.file!.name}: ${importMessage}`);
        expect(section().getByRole('table', { name: T.reportTable })).toBeTruthy();
        expect(section().queryByLabelText(T.fileLabel)).toBeNull();
        expect(importButton(T.importAnother).disabled).toBe(false);
      },
    },
  },
});

modelSuite(bankImportModel);

describe('bank import machine (pinned journeys)', () => {
  it('a CSV with a blank payer column refused on the page, the column named, the file read and imported', async () => {
    const { actor, called, bankImported } = startBankImport({ read: [CSV] });
    actor.send(chooseFile(bankFile('april.csv', CSV)));
    actor.send(mapColumn('payer', ''));
    actor.send(startImport);
    expect(actor.getSnapshot().context.errors).toEqual({ payer: BANK_IMPORT_TEXTS.columnRequired('payer') });
    expect(called('readFile')).toHaveLength(0);
    actor.send(mapColumn('payer', 'Name'));
    actor.send(startImport);
    await waitFor(actor, (s) => s.matches('done'));
    expect(called('importFile')[0]!.input).toMatchObject({ format: 'csv', fileName: 'april.csv', content: CSV, csv: { payer: 'Name' } });
    expect(bankImported).toHaveBeenCalledOnce();
  });
});
