// The customer ledger: payments, credit notes and refunds (and their reversals), a customer's
// account and payment terms, ageing with its CSV, the dunning policy, bank statement imports and
// the lines waiting to be matched, and the customer's own account. Reading needs billing:read;
// posting, importing, matching and changing terms or the policy need billing:manage.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LEDGER_MESSAGES as M } from '../../../src/domain/ledger';
import { principalOf } from '../../plugins/auth';
import { auditContext } from '../../services/audit';
import { customerScopeOf } from '../../services/customer-scope';
import { sendCsv } from '../csv';
import { failures, successSchema } from '../schemas';
import {
  ageingQuerySchema,
  ageingSchema,
  bankImportBodySchema,
  bankImportReportSchema,
  bankImportSchema,
  bankLineListSchema,
  bankLineQuerySchema,
  bankLineSchema,
  customerAccountSchema,
  customerParamsSchema,
  dunningPolicySchema,
  dunningReportSchema,
  dunningPolicyWireSchema,
  idParamsSchema,
  ignoreBodySchema,
  ledgerEntryBodySchema,
  ledgerListQuerySchema,
  ledgerListSchema,
  matchBodySchema,
  myAccountSchema,
  postedSchema,
  reverseBodySchema,
  termsBodySchema,
  termsSchema,
} from './ledger-schemas';

const security = [{ bearerAuth: [] }];
const tags = ['payments'];
/** A bank file of up to 5 MB arrives as a JSON string: escaping can double it. */
const IMPORT_BODY_LIMIT_BYTES = 2 * 5_000_000 + 64 * 1024;

export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  const ledger = () => app.services.ledger;
  const bank = () => app.services.bankImport;

  app.get(
    '/billing/ledger',
    {
      config: { auth: 'billing:read' },
      schema: { tags, security, summary: 'Payments, credit notes, refunds and reversals, newest first (kind=charge: the statements charged)', querystring: ledgerListQuerySchema, response: { 200: successSchema(ledgerListSchema), ...failures(400, 401, 403) } },
    },
    async (request) => ({ success: true as const, data: await ledger().list(request.query), message: 'Ledger entries listed' }),
  );

  app.post(
    '/billing/ledger',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: 'Records a payment, credit note or refund: a payment or credit note pays the statements chosen, else the oldest first, and the rest is kept as credit',
        body: ledgerEntryBodySchema,
        response: { 200: successSchema(postedSchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const posted = await ledger().post(request.body, auditContext(request));
      const message = { payment: M.paymentRecorded, credit_note: M.creditNoteRecorded, refund: M.refundRecorded }[request.body.kind];
      return { success: true as const, data: posted, message };
    },
  );

  app.post(
    '/billing/ledger/:id/reverse',
    {
      config: { auth: 'billing:manage' },
      schema: { tags, security, summary: 'Reverses a payment, credit note or refund with a new entry of the opposite amount', params: idParamsSchema, body: reverseBodySchema, response: { 200: successSchema(postedSchema), ...failures(400, 401, 403, 404, 409) } },
    },
    async (request) => ({ success: true as const, data: await ledger().reverse(request.params.id, request.body.reason, auditContext(request)), message: M.entryReversed }),
  );

  app.get(
    '/customers/:uuid/account',
    {
      config: { auth: 'billing:read' },
      schema: { tags, security, summary: "A customer's balances, open statements, ledger history, payment terms and dunning steps", params: customerParamsSchema, response: { 200: successSchema(customerAccountSchema), ...failures(400, 401, 403, 404) } },
    },
    async (request) => ({ success: true as const, data: await ledger().account(request.params.uuid), message: 'Customer account' }),
  );

  app.put(
    '/customers/:uuid/billing-terms',
    {
      config: { auth: 'billing:manage' },
      schema: { tags, security, summary: "Sets a customer's payment terms (net days) and promise to pay (dunning holds until its day)", params: customerParamsSchema, body: termsBodySchema, response: { 200: successSchema(termsSchema), ...failures(400, 401, 403, 404) } },
    },
    async (request) => ({ success: true as const, data: await ledger().setTerms(request.params.uuid, request.body, auditContext(request)), message: M.termsSaved }),
  );

  app.get(
    '/billing/ageing',
    {
      config: { auth: 'billing:read' },
      schema: { tags, security, summary: 'Unpaid statements by how overdue (current, 1–30, 31–60, 61–90, 90+ days), per customer and currency, with totals', querystring: ageingQuerySchema, response: { 200: successSchema(ageingSchema), ...failures(400, 401, 403) } },
    },
    async (request) => ({ success: true as const, data: await ledger().ageing(request.query), message: 'Ageing' }),
  );

  app.get(
    '/billing/ageing/export.csv',
    {
      config: { auth: 'billing:read' },
      schema: { tags, security, summary: 'The ageing as CSV, amounts in major units', querystring: ageingQuerySchema, produces: ['text/csv'], response: { 200: z.string(), ...failures(400, 401, 403) } },
    },
    async (request, reply) => sendCsv(reply, `ageing-${new Date().toISOString().slice(0, 10)}.csv`, ledger().ageingCsv(request.query)),
  );

  app.get(
    '/billing/dunning-policy',
    { config: { auth: 'billing:read' }, schema: { tags, security, summary: 'The dunning policy', response: { 200: successSchema(dunningPolicyWireSchema), ...failures(401, 403) } } },
    async () => ({ success: true as const, data: await app.services.dunning.policy(), message: 'Dunning policy' }),
  );

  app.put(
    '/billing/dunning-policy',
    {
      config: { auth: 'billing:manage' },
      schema: { tags, security, summary: 'Sets the dunning policy: reminders, final notice and block, in days after the due date', body: dunningPolicySchema, response: { 200: successSchema(dunningPolicyWireSchema), ...failures(400, 401, 403) } },
    },
    async (request) => ({ success: true as const, data: await app.services.dunning.savePolicy(request.body, auditContext(request)), message: M.policySaved }),
  );

  app.post(
    '/billing/dunning-policy/run',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: 'Runs the dunning now (the billing run does every quarter of an hour): takes the steps that have fallen due and lifts the blocks of customers who settled',
        response: { 200: successSchema(dunningReportSchema), ...failures(401, 403) },
      },
    },
    async () => {
      const report = await app.services.dunning.run();
      return { success: true as const, data: report, message: M.dunningRan(report) };
    },
  );

  app.post(
    '/billing/bank-imports',
    {
      bodyLimit: IMPORT_BODY_LIMIT_BYTES,
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: "Imports a bank statement file (camt.053, or CSV with a column mapping): each money-in line is matched by statement number, else by amount and payer, else waits; a line imported before posts nothing",
        body: bankImportBodySchema,
        response: { 200: successSchema(bankImportReportSchema), ...failures(400, 401, 403, 413) },
      },
    },
    async (request) => {
      const report = await bank().importFile(request.body, auditContext(request));
      return { success: true as const, data: report, message: M.importDone(report.matched, report.unmatched, report.duplicates) };
    },
  );

  app.get(
    '/billing/bank-imports',
    { config: { auth: 'billing:read' }, schema: { tags, security, summary: 'The latest bank statement imports', response: { 200: successSchema(z.array(bankImportSchema)), ...failures(401, 403) } } },
    async () => ({ success: true as const, data: await bank().imports(), message: 'Bank imports listed' }),
  );

  app.get(
    '/billing/bank-lines',
    {
      config: { auth: 'billing:read' },
      schema: { tags, security, summary: 'Imported bank lines, newest first (status=unmatched: those waiting for a person)', querystring: bankLineQuerySchema, response: { 200: successSchema(bankLineListSchema), ...failures(400, 401, 403) } },
    },
    async (request) => ({ success: true as const, data: await bank().lines(request.query), message: 'Bank lines listed' }),
  );

  app.post(
    '/billing/bank-lines/:id/match',
    {
      config: { auth: 'billing:manage' },
      schema: { tags, security, summary: "Matches a waiting bank line to a customer: it is posted as their payment (to the statements chosen, else oldest first)", params: idParamsSchema, body: matchBodySchema, response: { 200: successSchema(bankLineSchema), ...failures(400, 401, 403, 404, 409) } },
    },
    async (request) => ({ success: true as const, data: await bank().match(request.params.id, request.body, auditContext(request)), message: M.lineMatched }),
  );

  app.post(
    '/billing/bank-lines/:id/ignore',
    {
      config: { auth: 'billing:manage' },
      schema: { tags, security, summary: 'Sets a waiting bank line aside (not a customer payment), with the reason', params: idParamsSchema, body: ignoreBodySchema, response: { 200: successSchema(bankLineSchema), ...failures(400, 401, 403, 404, 409) } },
    },
    async (request) => ({ success: true as const, data: await bank().ignore(request.params.id, request.body.note, auditContext(request)), message: M.lineIgnored }),
  );

  app.get(
    '/customers/:uuid/preview/account',
    {
      config: { auth: 'billing:read' },
      schema: { tags: ['customer preview'], security, summary: "The customer's balance, open statements and payments, as GET /my/account answers them", params: customerParamsSchema, response: { 200: successSchema(myAccountSchema), ...failures(400, 401, 403, 404) } },
    },
    async (request) => ({ success: true as const, data: await ledger().mine(request.params.uuid), message: 'Account' }),
  );

  app.get(
    '/my/account',
    {
      config: { auth: 'customer' },
      schema: { tags: ['customer area'], security, summary: "The signed-in customer's balance, open statements and payments", response: { 200: successSchema(myAccountSchema), ...failures(401, 403) } },
    },
    async (request) => ({ success: true as const, data: await ledger().mine(customerScopeOf(principalOf(request)).customerId), message: 'Account' }),
  );
};
