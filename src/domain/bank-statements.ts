// Bank statement files read into lines, and the helpers that match a line to a customer. Two
// formats: camt.053 (the ISO 20022 bank-to-customer statement that banks export) and CSV read
// through a column mapping the user gives. Pure: no clock, no I/O; the server imports the file
// with these and matches its lines, the page shows the same reading.
//
// The rules:
// - A file is read whole or refused whole: any problem throws a BankFileError (its message is
//   shown to the user) before a single line is returned, so an import never posts half a file.
// - Every line has a key, its identity across imports of the same file: the bank's reference when
//   the bank gives one, else a fingerprint of its content and how many identical lines came
//   before it in the file. Importing a file twice gives the same keys, so nothing posts twice;
//   two identical payments in one file keep two keys, so both count.
// - Amounts are whole minor units (./money.ts), always more than zero; the direction says whether
//   the money came in (credit) or went out (debit).
// - camt.053 is read with a small strict XML reader written here: no DOCTYPE is accepted, so no
//   entity is expanded and nothing outside the file is ever read.
import { fingerprint } from './billing';
import { readCsvRecords } from './csv';
import { BANK_FILE_MAX_BYTES, type BankFormat, type CsvMapping } from './ledger';
import { CURRENCY_PATTERN, MoneyError, parseMoney } from './money';

export class BankFileError extends Error {
  override name = 'BankFileError';
}

export interface ParsedBankLine {
  /**
   * Stable identity of the line across imports of the same file: 'ref:<bank reference>' when the
   * bank gives one, else 'sum:<fingerprint of date, amount, currency, payer, remittance>#<n>' where
   * n counts the identical lines before it in the file (0, 1, ...).
   */
  key: string;
  bankReference: string | null;
  /** 'YYYY-MM-DD' */
  bookedOn: string;
  /** More than zero, in minor units of the currency. */
  amountMinor: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** credit: money in. */
  direction: 'credit' | 'debit';
  payer: string | null;
  /** The unstructured remittance lines joined with ' ', then the structured creditor references. */
  remittance: string | null;
}

type UnkeyedLine = Omit<ParsedBankLine, 'key'>;

export const BANK_FILE_MESSAGES = {
  tooLarge: `The file is larger than ${BANK_FILE_MAX_BYTES / 1_000_000} MB`,
  notXml: 'The file is not a camt.053 bank statement: it is not XML',
  notCamt053: 'The file is not a camt.053 bank statement: it has no <BkToCstmrStmt> element',
  noStatement: 'The file is not a camt.053 bank statement: it has no <Stmt> element',
  doctype: 'The file declares a <!DOCTYPE>, which a bank statement never has; it is refused so that nothing outside the file is read',
  notWellFormed: (what: string) => `The file is not well-formed XML: ${what}`,
  csvNeedsMapping: 'A CSV file is read through a column mapping: give the columns of the date, amount, payer and remittance',
  csvEmpty: 'The CSV is empty: it has no header row',
  csvNoColumn: (header: string) => `The CSV has no column "${header}"`,
  csvUnmapped: (what: string) => `The column mapping names no ${what} column`,
  unknownFormat: (format: string) => `Unknown bank file format "${format}"`,
} as const;

function checkSize(content: string) {
  // The length in characters: never more than the bytes of the UTF-8 the file came as.
  if (content.length > BANK_FILE_MAX_BYTES) throw new BankFileError(BANK_FILE_MESSAGES.tooLarge);
}

// ---- Keys --------------------------------------------------------------------------------------

/**
 * The lines with their keys. A reference the file repeats (some banks copy the entry's reference
 * into each transaction of a batch) gets '#1', '#2'... after its first use, so that no payment of
 * the batch is taken for a duplicate of another.
 */
function withKeys(lines: readonly UnkeyedLine[]): ParsedBankLine[] {
  const seen = new Map<string, number>();
  const count = (base: string) => {
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n;
  };
  return lines.map((line) => {
    let key: string;
    if (line.bankReference !== null) {
      const base = `ref:${line.bankReference}`;
      const n = count(base);
      key = n === 0 ? base : `${base}#${n}`;
    } else {
      // The amount signed by direction: a refund out and a payment in of the same sum are different lines.
      const signed = line.direction === 'credit' ? line.amountMinor : -line.amountMinor;
      const base = `sum:${fingerprint(JSON.stringify([line.bookedOn, signed, line.currency, line.payer ?? '', line.remittance ?? '']))}`;
      key = `${base}#${count(base)}`;
    }
    return { key, ...line };
  });
}

// ---- Small helpers -----------------------------------------------------------------------------

/** Whitespace collapsed and trimmed; null when nothing is left. */
const clean = (text: string | null | undefined): string | null => {
  const value = (text ?? '').replace(/\s+/g, ' ').trim();
  return value === '' ? null : value;
};

const isCalendarDate = (year: number, month: number, day: number) => {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
};

const pad = (value: number, digits: number) => String(value).padStart(digits, '0');
const isoDate = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

// ---- A strict XML reader -----------------------------------------------------------------------

interface XmlElement {
  /** The name as written, prefix included: an end tag must repeat it exactly. */
  qname: string;
  /** The local name: camt is matched on it, whatever the prefix or namespace. */
  name: string;
  /** By local name; namespace declarations left out. */
  attributes: Map<string, string>;
  children: XmlElement[];
  /** The element's own text and CDATA, entities decoded. */
  text: string;
  line: number;
}

const NAME = /[A-Za-z_:\u00C0-\uFFFF][-\w.:\u00B7\u00C0-\uFFFF]*/y;
const ATTRIBUTE = /\s+([A-Za-z_:\u00C0-\uFFFF][-\w.:\u00B7\u00C0-\uFFFF]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;
const END_TAG_END = /\s*>/y;
const ENTITY = /&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z_][-\w.]*)?(;?)/g;
const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/** The characters XML 1.0 allows: tab, line breaks and the rest of Unicode but for controls, surrogates and U+FFFE/U+FFFF. */
const isXmlChar = (code: number) =>
  code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);

/**
 * The document's root element. Elements, attributes, text, CDATA, comments, processing
 * instructions and the XML declaration, the five predefined entities and character references;
 * anything else, or anything not closed as it was opened, is refused naming where.
 */
function readXml(xml: string): XmlElement {
  const source = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  if (!/^\s*</.test(source)) throw new BankFileError(BANK_FILE_MESSAGES.notXml);
  const fail = (what: string) => new BankFileError(BANK_FILE_MESSAGES.notWellFormed(what));

  // Line numbers for messages, counted forward only: positions are asked for in increasing order.
  let line = 1;
  let nextBreak = source.indexOf('\n');
  const lineAt = (at: number) => {
    while (nextBreak !== -1 && nextBreak < at) {
      line++;
      nextBreak = source.indexOf('\n', nextBreak + 1);
    }
    return line;
  };

  const decode = (raw: string, at: number) => {
    if (!raw.includes('&')) return raw;
    return raw.replace(ENTITY, (whole, ref: string | undefined, semicolon: string, offset: number) => {
      const where = `line ${lineAt(at + offset)}`;
      if (!ref || !semicolon) throw fail(`"&" at ${where} starts no entity (write &amp; for "&")`);
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        if (!isXmlChar(code)) throw fail(`${whole} at ${where} is not a character XML allows`);
        return String.fromCodePoint(code);
      }
      const value = PREDEFINED[ref];
      if (value === undefined) throw fail(`the entity ${whole} at ${where} is not one of XML's own (&amp; &lt; &gt; &quot; &apos;)`);
      return value;
    });
  };

  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let pos = 0;
  while (pos < source.length) {
    const open = source.indexOf('<', pos);
    const textEnd = open === -1 ? source.length : open;
    if (textEnd > pos) {
      const raw = source.slice(pos, textEnd);
      const top = stack[stack.length - 1];
      if (top) top.text += decode(raw, pos);
      else if (raw.trim() !== '') {
        const at = lineAt(pos + raw.search(/\S/));
        throw fail(root ? `text after the root element <${root.qname}> at line ${at}` : `text before the root element at line ${at}`);
      }
    }
    if (open === -1) break;
    pos = open;
    const at = lineAt(pos);
    if (source.startsWith('<!--', pos)) {
      const end = source.indexOf('-->', pos + 4);
      if (end === -1) throw fail(`a comment opened at line ${at} is not closed`);
      pos = end + 3;
    } else if (source.startsWith('<![CDATA[', pos)) {
      const end = source.indexOf(']]>', pos + 9);
      if (end === -1) throw fail(`a CDATA section opened at line ${at} is not closed`);
      const top = stack[stack.length - 1];
      if (!top) throw fail(`a CDATA section at line ${at} is outside the root element`);
      top.text += source.slice(pos + 9, end);
      pos = end + 3;
    } else if (/^<!DOCTYPE/i.test(source.slice(pos, pos + 9))) {
      throw new BankFileError(BANK_FILE_MESSAGES.doctype);
    } else if (source.startsWith('<!', pos)) {
      throw fail(`"<!" at line ${at} starts a declaration a bank statement has no use for`);
    } else if (source.startsWith('<?', pos)) {
      const end = source.indexOf('?>', pos + 2);
      if (end === -1) throw fail(`a processing instruction opened at line ${at} is not closed`);
      pos = end + 2;
    } else if (source.startsWith('</', pos)) {
      NAME.lastIndex = pos + 2;
      const name = NAME.exec(source)?.[0];
      if (!name) throw fail(`"</" at line ${at} is not followed by an element name`);
      END_TAG_END.lastIndex = pos + 2 + name.length;
      if (!END_TAG_END.exec(source)) throw fail(`</${name}> at line ${at} is not closed with ">"`);
      const top = stack.pop();
      if (!top) throw fail(`</${name}> at line ${at} closes no element`);
      if (top.qname !== name) throw fail(`</${name}> at line ${at} closes <${top.qname}> (opened at line ${top.line})`);
      pos = END_TAG_END.lastIndex;
    } else {
      NAME.lastIndex = pos + 1;
      const qname = NAME.exec(source)?.[0];
      if (!qname) throw fail(`"<" at line ${at} does not start a tag (write &lt; for "<")`);
      if (root && stack.length === 0) throw fail(`<${qname}> at line ${at} is a second root element after <${root.qname}>`);
      const element: XmlElement = { qname, name: localName(qname), attributes: new Map(), children: [], text: '', line: at };
      const written = new Set<string>();
      let cursor = pos + 1 + qname.length;
      for (;;) {
        ATTRIBUTE.lastIndex = cursor;
        const attribute = ATTRIBUTE.exec(source);
        if (!attribute) break;
        const [, attributeName = '', doubleQuoted, singleQuoted] = attribute;
        if (written.has(attributeName)) throw fail(`<${qname}> at line ${at} has the attribute ${attributeName} twice`);
        written.add(attributeName);
        if (attributeName !== 'xmlns' && !attributeName.startsWith('xmlns:')) {
          element.attributes.set(localName(attributeName), decode(doubleQuoted ?? singleQuoted ?? '', cursor));
        }
        cursor = ATTRIBUTE.lastIndex;
      }
      TAG_END.lastIndex = cursor;
      const end = TAG_END.exec(source);
      if (!end) throw fail(`<${qname}> at line ${at} has a malformed attribute or is not closed with ">"`);
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else root = element;
      if (end[1] !== '/') stack.push(element);
      pos = TAG_END.lastIndex;
    }
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed) throw fail(`<${unclosed.qname}> opened at line ${unclosed.line} is not closed`);
  if (!root) throw new BankFileError(BANK_FILE_MESSAGES.notXml);
  return root;
}

const child = (element: XmlElement | undefined, name: string) => element?.children.find((c) => c.name === name);
const childrenOf = (element: XmlElement | undefined, name: string) => element?.children.filter((c) => c.name === name) ?? [];
const descend = (element: XmlElement | undefined, ...names: string[]) => names.reduce<XmlElement | undefined>((at, name) => child(at, name), element);
const textAt = (element: XmlElement | undefined, ...names: string[]) => clean(descend(element, ...names)?.text);

// ---- camt.053 ----------------------------------------------------------------------------------

/** Entry states that are not (yet) on the account: a pending or information-only entry posts nothing. */
const UNBOOKED = new Set(['PDNG', 'INFO']);

function readAmount(amt: XmlElement | undefined, where: string): { amountMinor: number; currency: string } {
  if (!amt) throw new BankFileError(`${where} has no <Amt>`);
  const written = amt.attributes.get('Ccy')?.trim() ?? '';
  if (written === '') throw new BankFileError(`${where} has no currency (<Amt Ccy="...">)`);
  const currency = written.toUpperCase();
  if (!CURRENCY_PATTERN.test(currency)) throw new BankFileError(`${where} has a currency that is not an ISO 4217 code: <Amt Ccy="${written}">`);
  const text = amt.text.trim();
  if (!/^[+-]?\d+(\.\d+)?$/.test(text)) throw new BankFileError(`${where} has an amount that is not a number: "${text}"`);
  let amountMinor: number;
  try {
    amountMinor = parseMoney(text, currency);
  } catch (error) {
    if (error instanceof MoneyError) throw new BankFileError(`${where} has an amount (<Amt>) of "${text}": ${error.message}`);
    throw error;
  }
  // The sign is <CdtDbtInd>'s to give; an amount is always more than zero.
  if (amountMinor <= 0) throw new BankFileError(`${where} has an amount (<Amt>) that is not more than zero: "${text}"`);
  return { amountMinor, currency };
}

function readDirection(element: XmlElement, where: string, otherwise?: 'credit' | 'debit'): 'credit' | 'debit' {
  const indicator = child(element, 'CdtDbtInd');
  if (!indicator) {
    if (otherwise) return otherwise;
    throw new BankFileError(`${where} has no <CdtDbtInd>`);
  }
  const code = indicator.text.trim();
  if (code === 'CRDT') return 'credit';
  if (code === 'DBIT') return 'debit';
  throw new BankFileError(`${where} has an unknown <CdtDbtInd>: "${code}"`);
}

/** The booking date, else the value date: a date, or the date part of a date and time. */
function readBookedOn(entry: XmlElement, where: string): string {
  for (const tag of ['BookgDt', 'ValDt']) {
    const holder = child(entry, tag);
    const date = child(holder, 'Dt') ?? child(holder, 'DtTm');
    if (!date) continue;
    const written = date.text.trim();
    const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(written);
    if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
      throw new BankFileError(`${where} has a booking date (<${tag}>) that is not a date: "${written}"`);
    }
    return written.slice(0, 10);
  }
  throw new BankFileError(`${where} has no booking date (<BookgDt>)`);
}

/** The debtor's name: camt.053.001.02 to .07 write Dbtr/Nm, .08 and later Dbtr/Pty/Nm; the ultimate debtor when no debtor is named. */
const payerOf = (transaction: XmlElement) => {
  const parties = child(transaction, 'RltdPties');
  return (
    textAt(parties, 'Dbtr', 'Nm') ?? textAt(parties, 'Dbtr', 'Pty', 'Nm') ?? textAt(parties, 'UltmtDbtr', 'Nm') ?? textAt(parties, 'UltmtDbtr', 'Pty', 'Nm')
  );
};

/** Every unstructured line, then every structured creditor reference (where an invoice number is put). */
const remittanceOf = (transaction: XmlElement) => {
  const parts: string[] = [];
  const remittances = childrenOf(transaction, 'RmtInf');
  for (const remittance of remittances) for (const line of childrenOf(remittance, 'Ustrd')) parts.push(line.text);
  for (const remittance of remittances) {
    for (const structured of childrenOf(remittance, 'Strd')) parts.push(descend(structured, 'CdtrRefInf', 'Ref')?.text ?? '');
  }
  return clean(parts.map((part) => clean(part) ?? '').join(' '));
};

function entryLines(entry: XmlElement, index: number): UnkeyedLine[] {
  const where = `Entry ${index} (<Ntry>)`;
  const sts = child(entry, 'Sts');
  // camt.053.001.02 to .07 write <Sts>BOOK</Sts>, later versions <Sts><Cd>BOOK</Cd></Sts>.
  const status = (child(sts, 'Cd')?.text ?? sts?.text ?? '').trim().toUpperCase();
  // Not read further: a pending entry often has no booking date yet, and posts nothing anyway.
  if (UNBOOKED.has(status)) return [];
  const own = readAmount(child(entry, 'Amt'), where);
  const direction = readDirection(entry, where);
  const bookedOn = readBookedOn(entry, where);
  const reference = textAt(entry, 'AcctSvcrRef');
  const transactions = childrenOf(entry, 'NtryDtls').flatMap((details) => childrenOf(details, 'TxDtls'));
  const lines: UnkeyedLine[] = [];
  if (transactions.length === 0) {
    lines.push({ bankReference: reference, bookedOn, ...own, direction, payer: null, remittance: textAt(entry, 'AddtlNtryInf') });
  }
  transactions.forEach((transaction, i) => {
    const batch = transactions.length > 1;
    const at = batch ? `${where}, transaction ${i + 1} (<TxDtls>)` : where;
    const amount = child(transaction, 'Amt') ?? descend(transaction, 'AmtDtls', 'TxAmt', 'Amt');
    if (!amount && batch) throw new BankFileError(`${at} has no <Amt>: the entry's amount is the whole batch's`);
    const ownReference = textAt(transaction, 'Refs', 'AcctSvcrRef');
    lines.push({
      bankReference: ownReference ?? (reference !== null && batch ? `${reference}/${i + 1}` : reference),
      bookedOn,
      ...(amount ? readAmount(amount, at) : own),
      direction: readDirection(transaction, at, direction),
      payer: payerOf(transaction),
      // Some banks give no remittance information but a free text of the transaction or the entry.
      remittance: remittanceOf(transaction) ?? textAt(transaction, 'AddtlTxInf') ?? textAt(entry, 'AddtlNtryInf'),
    });
  });
  return lines;
}

/**
 * The booked lines of a camt.053 statement (any camt.053.001.xx version): one per entry, or one per
 * transaction of a batch entry. Several statements in one file are read in order.
 */
export function parseCamt053(xml: string): ParsedBankLine[] {
  checkSize(xml);
  const root = readXml(xml);
  const statement = root.name === 'Document' ? child(root, 'BkToCstmrStmt') : undefined;
  // camt.052 (BkToCstmrAcctRpt) and camt.054 (BkToCstmrDbtCdtNtfctn) are not statements: their entries may never be booked.
  if (!statement) throw new BankFileError(BANK_FILE_MESSAGES.notCamt053);
  const statements = childrenOf(statement, 'Stmt');
  if (statements.length === 0) throw new BankFileError(BANK_FILE_MESSAGES.noStatement);
  const entries = statements.flatMap((stmt) => childrenOf(stmt, 'Ntry'));
  return withKeys(entries.flatMap((entry, i) => entryLines(entry, i + 1)));
}

// ---- CSV ---------------------------------------------------------------------------------------

const DATE_FORMATS: Readonly<Record<CsvMapping['dateFormat'], { pattern: RegExp; order: readonly ['y' | 'm' | 'd', 'y' | 'm' | 'd', 'y' | 'm' | 'd'] }>> = {
  'YYYY-MM-DD': { pattern: /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T].*)?$/, order: ['y', 'm', 'd'] },
  'DD/MM/YYYY': { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/, order: ['d', 'm', 'y'] },
  'MM/DD/YYYY': { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/, order: ['m', 'd', 'y'] },
  'DD.MM.YYYY': { pattern: /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?: .*)?$/, order: ['d', 'm', 'y'] },
};

/** A date as the mapping says the bank writes it (a time after it is ignored), as 'YYYY-MM-DD'; null if it is none. */
function csvDate(written: string, format: CsvMapping['dateFormat']): string | null {
  const { pattern, order } = DATE_FORMATS[format];
  const match = pattern.exec(written);
  if (!match) return null;
  const parts = { y: 0, m: 0, d: 0 };
  order.forEach((part, i) => (parts[part] = Number(match[i + 1])));
  return isCalendarDate(parts.y, parts.m, parts.d) ? isoDate(parts.y, parts.m, parts.d) : null;
}

/** Digits, or digits in groups of three between thousands separators; then decimals. */
const GROUPED_AMOUNT: Readonly<Record<',' | '.', RegExp>> = {
  '.': /^(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?$/,
  ',': /^(?:\d+|\d{1,3}(?:\.\d{3})+)(?:,\d+)?$/,
};

/**
 * An amount as the bank writes it: spaces and thousands separators (the other of '.' and ',') in
 * their places, the decimal separator the mapping gives; negative with a leading or trailing '-' or
 * in parentheses. Null if it is not one. A thousands separator must group three digits, so that
 * "12,34" read with '.' decimals is refused rather than taken for 1234.
 */
function csvAmount(written: string, decimal: ',' | '.'): { negative: boolean; text: string } | null {
  let text = written.replace(/[\s\u00A0\u202F]/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(text)) {
    negative = true;
    text = text.slice(1, -1);
  }
  if (text.startsWith('-')) {
    negative = true;
    text = text.slice(1);
  } else if (text.startsWith('+')) text = text.slice(1);
  else if (text.endsWith('-')) {
    negative = true;
    text = text.slice(0, -1);
  }
  const thousands = decimal === ',' ? '.' : ',';
  if (!GROUPED_AMOUNT[decimal].test(text)) return null;
  return { negative, text: text.split(thousands).join('').replace(decimal, '.') };
}

/** The lines of a CSV export, read through the mapping the user gave of its columns. */
export function parseBankCsv(text: string, mapping: CsvMapping): ParsedBankLine[] {
  checkSize(text);
  const read = readCsvRecords(text, mapping.delimiter);
  if (!read.ok) throw new BankFileError(read.message);
  const [header, ...rows] = read.records;
  if (!header) throw new BankFileError(BANK_FILE_MESSAGES.csvEmpty);
  const headers = header.fields.map((field) => field.trim().toLowerCase());
  const column = (name: string | null | undefined, required: string | null): number | null => {
    const wanted = (name ?? '').trim();
    if (wanted === '' && required) throw new BankFileError(BANK_FILE_MESSAGES.csvUnmapped(required));
    if (wanted === '') return null;
    const index = headers.indexOf(wanted.toLowerCase());
    if (index === -1) throw new BankFileError(BANK_FILE_MESSAGES.csvNoColumn(wanted));
    return index;
  };
  const columns = {
    date: column(mapping.date, 'date')!,
    amount: column(mapping.amount, 'amount')!,
    payer: column(mapping.payer, null),
    remittance: column(mapping.remittance, null),
    reference: column(mapping.reference, null),
    currency: column(mapping.currencyColumn, null),
  };
  const fixedCurrency = (mapping.currency ?? '').trim().toUpperCase();

  const lines: UnkeyedLine[] = [];
  for (const { line, fields } of rows) {
    // A row of empty cells (';;;' as spreadsheets save trailing rows) is no line.
    if (fields.every((field) => field.trim() === '')) continue;
    const cell = (index: number | null) => (index === null ? '' : (fields[index] ?? '').trim());
    const row = `Row ${line}`;

    const writtenDate = cell(columns.date);
    if (writtenDate === '') throw new BankFileError(`${row}: the date is empty`);
    const bookedOn = csvDate(writtenDate, mapping.dateFormat);
    if (!bookedOn) throw new BankFileError(`${row}: "${writtenDate}" is not a date written ${mapping.dateFormat}`);

    const currency = (cell(columns.currency) || fixedCurrency).toUpperCase();
    if (currency === '') throw new BankFileError(`${row}: no currency (map a currency column or give the currency of the file)`);
    if (!CURRENCY_PATTERN.test(currency)) throw new BankFileError(`${row}: "${currency}" is not an ISO 4217 currency code`);

    const writtenAmount = cell(columns.amount);
    if (writtenAmount === '') throw new BankFileError(`${row}: the amount is empty`);
    const amount = csvAmount(writtenAmount, mapping.decimalSeparator);
    if (!amount) throw new BankFileError(`${row}: "${writtenAmount}" is not an amount written with "${mapping.decimalSeparator}" decimals`);
    let amountMinor: number;
    try {
      amountMinor = parseMoney(amount.text, currency);
    } catch (error) {
      if (error instanceof MoneyError) throw new BankFileError(`${row}: the amount "${writtenAmount}": ${error.message}`);
      throw error;
    }
    if (amountMinor === 0) throw new BankFileError(`${row}: the amount is zero`);

    lines.push({
      bankReference: clean(cell(columns.reference)),
      bookedOn,
      amountMinor,
      currency,
      direction: amount.negative ? 'debit' : 'credit',
      payer: clean(cell(columns.payer)),
      remittance: clean(cell(columns.remittance)),
    });
  }
  return withKeys(lines);
}

/** A bank file of either format; a CSV needs its column mapping. */
export function parseBankFile(format: BankFormat, content: string, mapping?: CsvMapping | null): ParsedBankLine[] {
  if (format === 'camt053') return parseCamt053(content);
  if (format === 'csv') {
    if (!mapping) throw new BankFileError(BANK_FILE_MESSAGES.csvNeedsMapping);
    return parseBankCsv(content, mapping);
  }
  throw new BankFileError(BANK_FILE_MESSAGES.unknownFormat(String(format)));
}

// ---- Matching helpers --------------------------------------------------------------------------

/**
 * The statement numbers ('ST-2026-11-000042') a remittance names, upper-cased, each once, in the
 * order written. Any case; not followed by a digit, so that a longer number is not cut into one.
 */
export function statementNumbersIn(text: string | null): string[] {
  if (!text) return [];
  const found = text.match(/ST-\d{4}-\d{2}-\d{6}(?!\d)/gi) ?? [];
  return [...new Set(found.map((number) => number.toUpperCase()))];
}

/** Words of a company's legal form: a bank writes 'ACME LTD' where the customer is 'Acme Limited'. */
const LEGAL_FORMS = new Set([
  'ltd', 'llc', 'llp', 'lp', 'inc', 'gmbh', 'ag', 'kg', 'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv', 'plc', 'pty', 'co', 'corp', 'limited', 'company',
  'corporation', 'incorporated',
]);

/** A name's words: lower case, accents stripped, dots and apostrophes dropped ('S.A.' is 'sa'), other punctuation a space, legal forms left out. */
function nameWords(name: string | null): string[] {
  return (name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.'\u2019`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((word) => word !== '' && !LEGAL_FORMS.has(word));
}

/** True when `inner`'s words appear in `outer`, in order and next to each other. */
const containsWords = (outer: readonly string[], inner: readonly string[]) => {
  for (let start = 0; start + inner.length <= outer.length; start++) {
    if (inner.every((word, i) => outer[start + i] === word)) return true;
  }
  return false;
};

/**
 * Whether a bank line's payer is one of the names (a customer's name, its company...): the same
 * once normalised, or one holding the other as whole words ('Acme' and 'ACME MINING CO', not
 * 'Acmecorp'). A payer or name with no words matches nothing.
 */
export function namesMatch(payer: string | null, ...names: (string | null)[]): boolean {
  const payerWords = nameWords(payer);
  if (payerWords.length === 0) return false;
  return names.some((name) => {
    const words = nameWords(name);
    if (words.length === 0) return false;
    return words.length <= payerWords.length ? containsWords(payerWords, words) : containsWords(words, payerWords);
  });
}
