// Payments from the bank's own statement files: ISO 20022 camt.053 (what banks export) or a CSV
// with a column mapping. Each money-in line is matched to a customer and posted as a payment:
//   1. by the statement numbers its remittance text names (open statements in its currency, of
//      one customer): it pays those statements;
//   2. else by amount and payer: exactly one open statement left to pay with exactly this amount
//      whose customer's name or company the payer's name matches;
//   3. else it waits on the Payments page, to be matched or ignored by a person.
// A file is parsed whole before anything is written: a malformed file is a 400 naming the element,
// and posts nothing. A line is stored once by its key (the bank's reference, else its content), so
// the same file imported twice posts nothing twice. The import runs in one transaction.
import { BankFileError, namesMatch, parseBankFile, statementNumbersIn, type ParsedBankLine } from '../../../src/domain/bank-statements';
import { paginationOf } from '../../../src/domain/customers';
import { BANK_FILE_MAX_BYTES, LEDGER_MESSAGES as M, type BankImportBody, type BankImportReportWire, type BankImportWire, type BankLineListWire, type BankLineStatus, type BankLineWire, type BankMatchKind, type MatchBody } from '../../../src/domain/ledger';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Repositories } from '../../db/repositories';
import { BadRequestError, ConflictError, NotFoundError, fieldError } from '../../errors';
import type { AuditService, RequestContext } from '../audit';
import type { BankPosted, LedgerService } from './ledger';

export interface BankImportService {
  importFile(body: BankImportBody, context: RequestContext): Promise<BankImportReportWire>;
  match(lineId: string, body: MatchBody, context: RequestContext): Promise<BankLineWire>;
  ignore(lineId: string, note: string, context: RequestContext): Promise<BankLineWire>;
  lines(query: { status?: BankLineStatus | undefined; page: number; limit: number }): Promise<BankLineListWire>;
  imports(): Promise<BankImportWire[]>;
}

const userOf = (context: RequestContext) => (context.actor.type === 'user' ? context.actor.id : null);

export function createBankImportService(deps: { repos: Repositories; audit: AuditService; now: Clock; ledger: LedgerService }): BankImportService {
  const { repos, audit, now, ledger } = deps;
  const store = repos.bankLines;

  function parse(body: BankImportBody): ParsedBankLine[] {
    if (body.content.length > BANK_FILE_MAX_BYTES) throw fieldError('content', 'The file is larger than 5 MB');
    try {
      return parseBankFile(body.format, body.content, body.csv ?? null);
    } catch (error) {
      if (error instanceof BankFileError) throw new BadRequestError(error.message, { errors: [{ path: 'content', message: error.message }] });
      throw error;
    }
  }

  /** Who a line pays, and which statements, by the rules above; null: a person decides. */
  async function matchOf(line: ParsedBankLine, tx: Db): Promise<{ customerId: string; statementIds: string[]; by: BankMatchKind } | null> {
    const named = (await repos.ledger.openByNumbers(statementNumbersIn(line.remittance), tx)).filter((s) => s.currency === line.currency);
    const namedCustomers = new Set(named.map((s) => s.customerId));
    if (namedCustomers.size === 1) return { customerId: named[0]!.customerId, statementIds: named.map((s) => s.statementId), by: 'reference' };
    const sameAmount = (await repos.ledger.openOfAmount(line.amountMinor, line.currency, tx)).filter((s) => namesMatch(line.payer, s.customerName, s.customerCompany));
    const customers = new Set(sameAmount.map((s) => s.customerId));
    if (customers.size === 1) return { customerId: sameAmount[0]!.customerId, statementIds: [sameAmount[0]!.statementId], by: 'amount_and_name' };
    return null;
  }

  return {
    async importFile(body, context) {
      const fileName = body.fileName.trim();
      if (!fileName) throw fieldError('fileName', 'Give the file name');
      const parsed = parse(body);
      const credits = parsed.filter((line) => line.direction === 'credit');
      const posted: BankPosted[] = [];
      const importId = await repos.ledger.transaction(async (tx) => {
        const at = now();
        const id = await store.insertImport({ fileName: fileName.slice(0, 255), format: body.format, by: userOf(context) }, at, tx);
        const fresh = await store.insertNew(id, credits.map((l) => ({ key: l.key, bookedOn: l.bookedOn, amountMinor: l.amountMinor, currency: l.currency, payer: l.payer, remittance: l.remittance, bankReference: l.bankReference })), tx);
        let matched = 0;
        for (const line of credits) {
          const lineId = fresh.get(line.key);
          if (!lineId) continue;
          const match = await matchOf(line, tx);
          if (!match) continue;
          const done = await ledger.postBankPayment(
            { customerId: match.customerId, currency: line.currency, amountMinor: line.amountMinor, occurredOn: line.bookedOn, reference: line.bankReference ?? line.remittance?.slice(0, 140) ?? null, bankLineId: lineId, statementIds: match.statementIds },
            context,
            tx,
          );
          posted.push(done);
          await store.decide(lineId, { status: 'matched', matchedBy: match.by, customerId: match.customerId, entryId: done.entry.id, note: null, by: null }, at, tx);
          matched++;
        }
        const counts = { lines: parsed.length, matched, unmatched: fresh.size - matched, duplicates: credits.length - fresh.size, skipped: parsed.length - credits.length };
        await store.finishImport(id, counts, tx);
        await audit.record({ ...context, action: 'billing.bank_statement_imported', targetType: 'bank_import', targetId: id, after: { fileName, format: body.format, ...counts } }, tx);
        return id;
      });
      await ledger.afterBankPostings(posted);
      const summary = (await store.importById(importId))!;
      return { ...summary, items: await store.ofImport(importId) };
    },

    async match(lineId, body, context) {
      const posted: BankPosted[] = [];
      await repos.ledger.transaction(async (tx) => {
        const line = await store.hold(lineId, tx);
        if (!line) throw new NotFoundError(M.lineNotFound);
        if (line.status !== 'unmatched') throw new ConflictError(M.lineNotWaiting);
        const done = await ledger.postBankPayment(
          { customerId: body.customerId, currency: line.currency, amountMinor: line.amountMinor, occurredOn: line.bookedOn, reference: line.bankReference ?? line.remittance?.slice(0, 140) ?? null, bankLineId: line.id, statementIds: body.statementIds && body.statementIds.length > 0 ? [...new Set(body.statementIds)] : null },
          context,
          tx,
        );
        posted.push(done);
        await store.decide(line.id, { status: 'matched', matchedBy: 'manual', customerId: body.customerId, entryId: done.entry.id, note: null, by: userOf(context) }, now(), tx);
        await audit.record({ ...context, action: 'billing.bank_line_matched', targetType: 'customer', targetId: body.customerId, after: { bankLineId: line.id, entryId: done.entry.id, amountMinor: line.amountMinor, currency: line.currency } }, tx);
      });
      await ledger.afterBankPostings(posted);
      return (await store.byId(lineId))!;
    },

    async ignore(lineId, note, context) {
      const why = note.trim();
      if (!why) throw fieldError('note', 'Say why the line is ignored');
      await repos.ledger.transaction(async (tx) => {
        const line = await store.hold(lineId, tx);
        if (!line) throw new NotFoundError(M.lineNotFound);
        if (line.status !== 'unmatched') throw new ConflictError(M.lineNotWaiting);
        await store.decide(line.id, { status: 'ignored', matchedBy: null, customerId: null, entryId: null, note: why.slice(0, 500), by: userOf(context) }, now(), tx);
        await audit.record({ ...context, action: 'billing.bank_line_ignored', targetType: 'bank_import', targetId: line.importId, after: { bankLineId: line.id, note: why } }, tx);
      });
      return (await store.byId(lineId))!;
    },

    async lines(query) {
      const { rows, total } = await store.list(query.status ?? null, { offset: (query.page - 1) * query.limit, limit: query.limit });
      return { items: rows, pagination: paginationOf(total, query.page, query.limit) };
    },

    imports: () => store.imports(20),
  };
}
