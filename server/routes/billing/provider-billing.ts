// What the provider bills the reseller (Subscriptions → Provider Billing), read live: any portal
// user may read it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PROVIDER_BILLING_MESSAGES as M } from '../../../src/domain/provider-billing';
import { invoiceParamsSchema, providerBillingSchema, providerInvoiceSchema } from './provider-billing-schemas';
import { z } from 'zod';
import { failures, providerAccountParam, successSchema } from '../schemas';

const tags = ['billing'];
const accountQuery = z.object({ account_id: providerAccountParam });
const security = [{ bearerAuth: [] }];

export const providerBillingRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.providerBilling;

  app.get(
    '/billing/provider',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags,
        security,
        summary: "A provider account's balance and invoices, newest first (account_id; absent, the first enabled account)",
        querystring: accountQuery,
        response: { 200: successSchema(providerBillingSchema), ...failures(400, 401, 403, 404, 409, 502, 503, 504) },
      },
    },
    async (request) => ({ success: true as const, data: await service().overview(request.query.account_id), message: M.loaded }),
  );

  app.get(
    '/billing/provider/invoices/:invoiceId',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags,
        security,
        summary: "One provider invoice with its lines, each service line linked to the inventory's terminal on it",
        params: invoiceParamsSchema,
        querystring: accountQuery,
        response: { 200: successSchema(providerInvoiceSchema), ...failures(400, 401, 403, 404, 409, 502, 503, 504) },
      },
    },
    async (request) => ({ success: true as const, data: await service().invoice(request.params.invoiceId, request.query.account_id), message: M.invoiceLoaded }),
  );
};
