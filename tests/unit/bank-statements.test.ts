// Bank statement files read into lines (src/domain/bank-statements.ts): camt.053 as banks export
// it and CSV through a column mapping, the keys that keep an import from posting a line twice, the
// files refused whole with a message that says where, and the helpers that match a line.
import { describe, expect, it } from 'vitest';
import {
  BANK_FILE_MESSAGES,
  BankFileError,
  namesMatch,
  parseBankCsv,
  parseBankFile,
  parseCamt053,
  statementNumbersIn,
  type ParsedBankLine,
} from '../../src/domain/bank-statements';
import { BANK_FILE_MAX_BYTES, type CsvMapping } from '../../src/domain/ledger';
import { camt053, type CamtEntry } from '../fixtures/camt053';

const PAYMENT: CamtEntry = {
  amount: '120.00',
  bookedOn: '2026-11-05',
  payer: 'Acme Mining Ltd',
  remittance: 'Invoice ST-2026-11-000042',
  reference: 'BK-0001',
};
const FEE: CamtEntry = { amount: '2.50', bookedOn: '2026-11-06', direction: 'debit', remittance: 'Account fee' };

/** A minimal statement around some entries' XML, as a bank that writes little would send it. */
const document = (entries: string, root = 'BkToCstmrStmt') =>
  [
    '<?xml version="1.0"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04">',
    `<${root}><Stmt><Id>S1</Id>`,
    entries,
    `</Stmt></${root}>`,
    '</Document>',
    '',
  ].join('\n');

/** A parsed line: a credit in USD without reference, payer or remittance unless given. */
const line = (fields: Partial<ParsedBankLine>): ParsedBankLine => ({
  key: '',
  bankReference: null,
  bookedOn: '',
  amountMinor: 0,
  currency: 'USD',
  direction: 'credit',
  payer: null,
  remittance: null,
  ...fields,
});
const SUM_KEY = /^sum:[0-9a-f]{14}#0$/;

/** The error a call throws (failing the test when it throws none or another kind). */
function refusal(read: () => unknown): BankFileError {
  try {
    read();
  } catch (error) {
    if (error instanceof BankFileError) return error;
    throw error;
  }
  throw new Error('no BankFileError was thrown');
}

describe('parseCamt053', () => {
  it('reads a camt.053.001.02 statement into its lines: amounts, direction, payer, remittance and keys', () => {
    const lines = parseCamt053(camt053([PAYMENT, FEE]));
    expect(lines).toEqual([
      line({ key: 'ref:BK-0001', bankReference: 'BK-0001', bookedOn: '2026-11-05', amountMinor: 12000, payer: PAYMENT.payer, remittance: PAYMENT.remittance }),
      line({ key: expect.stringMatching(SUM_KEY), bookedOn: '2026-11-06', amountMinor: 250, direction: 'debit', remittance: 'Account fee' }),
    ]);
  });

  it('finds the debtor under Pty and the status as a code in camt.053.001.08', () => {
    const xml = camt053([PAYMENT], { version: '08' });
    expect(xml).toContain('<Dbtr><Pty><Nm>Acme Mining Ltd</Nm></Pty></Dbtr>');
    expect(parseCamt053(xml)).toMatchObject([{ payer: 'Acme Mining Ltd', amountMinor: 12000, direction: 'credit' }]);
  });

  it('gives one line per transaction of a batch entry, each with its own amount and reference', () => {
    const xml = document(`<Ntry><Amt Ccy="EUR">150.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>
      <BookgDt><DtTm>2026-11-07T09:30:00+01:00</DtTm></BookgDt><AcctSvcrRef>BATCH-9</AcctSvcrRef>
      <NtryDtls><Btch><NbOfTxs>2</NbOfTxs></Btch>
        <TxDtls><Refs><AcctSvcrRef>TX-1</AcctSvcrRef></Refs><Amt Ccy="EUR">100.00</Amt>
          <RltdPties><Dbtr><Nm>First</Nm></Dbtr></RltdPties>
          <RmtInf><Ustrd>first</Ustrd><Ustrd>line</Ustrd><Strd><CdtrRefInf><Ref>RF18</Ref></CdtrRefInf></Strd></RmtInf></TxDtls>
        <TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">50.00</Amt></TxAmt></AmtDtls><RltdPties><UltmtDbtr><Nm>Second Payer</Nm></UltmtDbtr></RltdPties></TxDtls>
      </NtryDtls></Ntry>`);
    const batch = { bookedOn: '2026-11-07', currency: 'EUR' };
    expect(parseCamt053(xml)).toEqual([
      line({ ...batch, key: 'ref:TX-1', bankReference: 'TX-1', amountMinor: 10000, payer: 'First', remittance: 'first line RF18' }),
      line({ ...batch, key: 'ref:BATCH-9/2', bankReference: 'BATCH-9/2', amountMinor: 5000, payer: 'Second Payer' }),
    ]);
    const unsplit = xml.replace('<AmtDtls><TxAmt><Amt Ccy="EUR">50.00</Amt></TxAmt></AmtDtls>', '');
    expect(refusal(() => parseCamt053(unsplit)).message).toBe(
      "Entry 1 (<Ntry>), transaction 2 (<TxDtls>) has no <Amt>: the entry's amount is the whole batch's",
    );
  });

  it('skips pending and information-only entries, even without a booking date', () => {
    // The second entry pending and without dates (as banks send one before booking), the third information only.
    const entries = [PAYMENT, { ...PAYMENT, reference: 'BK-0002' }, { ...PAYMENT, reference: 'BK-0003' }];
    const [first, second, third = '', fourth] = camt053(entries).split('<Sts>BOOK</Sts>');
    const undated = third.replace(/<BookgDt>.*<\/BookgDt>/, '').replace(/<ValDt>.*<\/ValDt>/, '');
    const xml = `${first}<Sts>BOOK</Sts>${second}<Sts>PDNG</Sts>${undated}<Sts><Cd>INFO</Cd></Sts>${fourth}`;
    expect(xml.match(/<BookgDt>/g)).toHaveLength(2);
    expect(parseCamt053(xml).map((line) => line.bankReference)).toEqual(['BK-0001']);
  });

  it('reads amounts in the currency’s own minor unit (JPY has none)', () => {
    expect(parseCamt053(camt053([{ ...PAYMENT, amount: '15000', currency: 'JPY' }]))).toMatchObject([{ amountMinor: 15000, currency: 'JPY' }]);
    expect(parseCamt053(camt053([{ ...PAYMENT, amount: '1.250', currency: 'KWD' }]))).toMatchObject([{ amountMinor: 1250, currency: 'KWD' }]);
  });

  it('decodes entities, character references and CDATA, and ignores comments and prefixes', () => {
    const xml = camt053([{ ...PAYMENT, payer: 'Smith & Sons <UK> "Ltd"', remittance: 'PLACEHOLDER' }])
      .replace('<Ustrd>PLACEHOLDER</Ustrd>', '<Ustrd><![CDATA[a <raw> & "text"]]> caf&#233; &#x20AC;5<!-- a comment --></Ustrd>')
      .replace(/<(\/?)Document/g, '<$1c:Document')
      .replace('xmlns=', 'xmlns:c=');
    expect(xml).toContain('Smith &amp; Sons &lt;UK&gt; &quot;Ltd&quot;');
    expect(parseCamt053(xml)).toMatchObject([{ payer: 'Smith & Sons <UK> "Ltd"', remittance: 'a <raw> & "text" café €5' }]);
  });
});

describe('line keys', () => {
  it('are the same when the same file is imported again, and tell identical lines apart by their order', () => {
    const twin: CamtEntry = { amount: '40.00', bookedOn: '2026-11-09', payer: 'Jane Doe', remittance: 'November' };
    const xml = camt053([twin, PAYMENT, twin]);
    const keys = parseCamt053(xml).map((line) => line.key);
    expect(parseCamt053(camt053([twin, PAYMENT, twin], { statementId: 'OTHER-EXPORT' })).map((line) => line.key)).toEqual(keys);
    expect(keys[0]).toMatch(/^sum:[0-9a-f]{14}#0$/);
    expect(keys[2]).toBe(keys[0]!.replace('#0', '#1'));
    // A different remittance is a different line, not a third twin.
    expect(parseCamt053(camt053([{ ...twin, remittance: 'December' }]))[0]!.key).not.toBe(keys[0]);
  });

  it('tell apart lines of a batch that repeat one reference', () => {
    const xml = document(`<Ntry><Amt Ccy="USD">30.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-11-07</Dt></BookgDt><NtryDtls>
      <TxDtls><Refs><AcctSvcrRef>SAME</AcctSvcrRef></Refs><Amt Ccy="USD">10.00</Amt></TxDtls>
      <TxDtls><Refs><AcctSvcrRef>SAME</AcctSvcrRef></Refs><Amt Ccy="USD">20.00</Amt></TxDtls></NtryDtls></Ntry>`);
    expect(parseCamt053(xml).map((line) => [line.key, line.amountMinor])).toEqual([['ref:SAME', 1000], ['ref:SAME#1', 2000]]);
  });
});

describe('camt.053 files refused whole, saying where', () => {
  const entry = (inner: string) => document(`<Ntry>${inner}</Ntry>`);
  const booked = '<CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-11-05</Dt></BookgDt>';
  const NOT_WELL_FORMED = 'The file is not well-formed XML: ';
  it.each([
    ['an element left open', document('<Ntry><Amt Ccy="USD">1.00</Amt>'), `${NOT_WELL_FORMED}</Stmt> at line 5 closes <Ntry> (opened at line 4)`],
    ['a file cut short', '<Document>\n<BkToCstmrStmt>\n<Stmt>', `${NOT_WELL_FORMED}<Stmt> opened at line 3 is not closed`],
    ['an end tag that closes another element', entry('<Amt Ccy="USD">1.00</Ccy>'), `${NOT_WELL_FORMED}</Ccy> at line 4 closes <Amt> (opened at line 4)`],
    ['an entity XML does not define', entry('<Amt Ccy="USD">1&nbsp;00</Amt>'), /the entity &nbsp; at line 4 is not one of XML's own/],
    ['a DOCTYPE', `<?xml version="1.0"?>\n<!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n${document('')}`, BANK_FILE_MESSAGES.doctype],
    ['a CSV', 'Date,Amount\n2026-11-05,12.00\n', BANK_FILE_MESSAGES.notXml],
    ['a PDF', '%PDF-1.7\n%âãÏÓ\n', BANK_FILE_MESSAGES.notXml],
    ['a camt.054 notification', document(entry(`<Amt Ccy="USD">1.00</Amt>${booked}`), 'BkToCstmrDbtCdtNtfctn'), BANK_FILE_MESSAGES.notCamt053],
    ['an entry without an amount', document(`<Ntry>${booked}</Ntry><Ntry>${booked}</Ntry>`), 'Entry 1 (<Ntry>) has no <Amt>'],
    ['an amount that is not a number', entry(`<Amt Ccy="USD">12,x</Amt>${booked}`), 'Entry 1 (<Ntry>) has an amount that is not a number: "12,x"'],
    [
      'too many decimals',
      entry(`<Amt Ccy="USD">1.234</Amt>${booked}`),
      'Entry 1 (<Ntry>) has an amount (<Amt>) of "1.234": USD amounts have at most 2 decimals',
    ],
    ['an amount of zero', entry(`<Amt Ccy="USD">0.00</Amt>${booked}`), 'Entry 1 (<Ntry>) has an amount (<Amt>) that is not more than zero: "0.00"'],
    ['an amount without currency', entry(`<Amt>1.00</Amt>${booked}`), 'Entry 1 (<Ntry>) has no currency (<Amt Ccy="...">)'],
    ['no booking date', entry('<Amt Ccy="USD">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>'), 'Entry 1 (<Ntry>) has no booking date (<BookgDt>)'],
    ['an unknown direction', entry('<Amt Ccy="USD">1.00</Amt><CdtDbtInd>X</CdtDbtInd>'), 'Entry 1 (<Ntry>) has an unknown <CdtDbtInd>: "X"'],
  ])('refuses %s', (_what, xml, message) => {
    const error = refusal(() => parseCamt053(xml));
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it('names the entry by its place when a later entry is broken, and returns nothing', () => {
    const xml = camt053([PAYMENT, FEE, { ...PAYMENT, amount: '1500.5', currency: 'JPY' }]);
    expect(refusal(() => parseCamt053(xml)).message).toBe('Entry 3 (<Ntry>) has an amount (<Amt>) of "1500.5": JPY amounts have at most 0 decimals');
  });

  it('refuses a file over the size limit before reading it', () => {
    expect(refusal(() => parseCamt053(' '.repeat(BANK_FILE_MAX_BYTES + 1))).message).toBe('The file is larger than 5 MB');
  });
});

describe('parseBankCsv', () => {
  const MAPPING: CsvMapping = {
    date: 'Buchungstag',
    amount: 'Betrag',
    payer: 'Auftraggeber',
    remittance: 'Verwendungszweck',
    currency: 'EUR',
    dateFormat: 'DD.MM.YYYY',
    decimalSeparator: ',',
    delimiter: ';',
  };
  const ENGLISH: CsvMapping = {
    date: 'Date',
    amount: 'Amount',
    payer: 'Payer',
    remittance: 'Details',
    currency: 'USD',
    dateFormat: 'DD/MM/YYYY',
    decimalSeparator: '.',
    delimiter: ',',
  };
  const HEADER = 'Date,Amount,Payer,Details\n';

  it('reads semicolons, comma decimals with dot thousands and DD.MM.YYYY dates; a negative amount is a debit', () => {
    const text = [
      'Buchungstag;Betrag;Auftraggeber;Verwendungszweck',
      '03.11.2026;1.234,56;"Müller; Söhne";ST-1',
      '4.11.2026;-20,00;;Kontoführung',
      ';;;',
      '',
    ].join('\r\n');
    expect(parseBankCsv(text, MAPPING)).toEqual([
      line({ key: expect.stringMatching(SUM_KEY), bookedOn: '2026-11-03', amountMinor: 123456, currency: 'EUR', payer: 'Müller; Söhne', remittance: 'ST-1' }),
      line({ key: expect.stringMatching(SUM_KEY), bookedOn: '2026-11-04', amountMinor: 2000, currency: 'EUR', direction: 'debit', remittance: 'Kontoführung' }),
    ]);
    expect(parseBankCsv('Buchungstag;Betrag;Auftraggeber;Verwendungszweck\n', MAPPING)).toEqual([]);
  });

  it('takes the currency from its column, the reference as the key, and parentheses as a debit', () => {
    const mapping: CsvMapping = { ...ENGLISH, date: 'date', amount: 'AMOUNT', reference: 'Ref', currency: null, currencyColumn: 'Ccy' };
    mapping.dateFormat = 'MM/DD/YYYY';
    const text = 'Date,Amount ,Payer,Details,Ref,Ccy\n11/03/2026,"1,500.00",Acme,ST-2026-11-000042,R-1,usd\n11/04/2026,(3000),Bank,Fee,,JPY\n';
    expect(parseBankCsv(text, mapping)).toMatchObject([
      { key: 'ref:R-1', bankReference: 'R-1', bookedOn: '2026-11-03', amountMinor: 150000, currency: 'USD', direction: 'credit' },
      { key: expect.stringMatching(/^sum:/), bankReference: null, amountMinor: 3000, currency: 'JPY', direction: 'debit' },
    ]);
    expect(refusal(() => parseBankCsv('Date,Amount,Payer,Details,Ref,Ccy\n11/03/2026,1.00,A,B,,\n', mapping)).message).toMatch(/^Row 2: no currency/);
  });

  it.each([
    ['a mapped column the header lacks', 'Date,Total,Payer,Details\n', 'The CSV has no column "Amount"'],
    ['a date that does not exist', `${HEADER}01/02/2026,1.00,A,B\n\n31/02/2026,1.00,A,B\n`, 'Row 4: "31/02/2026" is not a date written DD/MM/YYYY'],
    ['an amount of zero', `${HEADER}01/02/2026,0.00,A,B\n`, 'Row 2: the amount is zero'],
    ['a comma that is not a thousands separator', `${HEADER}01/02/2026,"12,34",A,B\n`, 'Row 2: "12,34" is not an amount written with "." decimals'],
    ['a quote left open', `${HEADER}01/02/2026,"1.00,A,B\n`, 'Line 2 opens a quoted field that never closes'],
  ])('refuses %s', (_what, text, message) => {
    expect(refusal(() => parseBankCsv(text, ENGLISH)).message).toBe(message);
  });

  it('is what parseBankFile reads for a CSV, which needs its mapping', () => {
    expect(refusal(() => parseBankFile('csv', 'Date,Amount\n', null)).message).toBe(BANK_FILE_MESSAGES.csvNeedsMapping);
    expect(parseBankFile('camt053', camt053([PAYMENT]))).toHaveLength(1);
  });
});

describe('matching helpers', () => {
  it('finds each statement number once, in order, in any case, and not inside a longer number', () => {
    expect(statementNumbersIn('Paid st-2026-11-000042, ST-2026-12-000001/ST-2026-11-000042; not ST-2026-11-0000991 nor ST-2026-1-000001')).toEqual([
      'ST-2026-11-000042',
      'ST-2026-12-000001',
    ]);
    expect(statementNumbersIn(null)).toEqual([]);
  });

  it('matches names once normalised, or one inside the other as whole words', () => {
    expect(namesMatch('ACME LTD', 'Acme Ltd.')).toBe(true);
    expect(namesMatch('ACME LTD', 'Acme Mining Limited')).toBe(true);
    expect(namesMatch('Acme', 'Acme Mining Co')).toBe(true);
    expect(namesMatch('MR JOSE MULLER', null, 'José Müller')).toBe(true);
    expect(namesMatch('Acme S.A.', 'ACME')).toBe(true);
    expect(namesMatch('Acme', 'Acmecorp')).toBe(false);
    expect(namesMatch('Acme Mining', 'Mining Acme')).toBe(false);
    expect(namesMatch(null, 'Acme')).toBe(false);
    expect(namesMatch('Acme', null, '')).toBe(false);
    expect(namesMatch('Ltd.', 'Co')).toBe(false);
  });
});
