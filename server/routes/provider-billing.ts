// What the provider bills the reseller (Subscriptions → Provider Billing), read live: any portal
// user may read it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PROVIDER_BILLING_MESSAGES as M } from '../../src/domain/provider-billing';
import { invoiceParamsSchema, providerBillingSchema, providerInvoiceSchema } from './provider-billing-schemas';
import { failures, successSchema } from './schemas';

const tags = ['billing'];
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
        summary: "The provider account's balance and invoices, newest first",
        response: { 200: successSchema(providerBillingSchema), ...failures(401, 403, 502, 503, 504) },
      },
    },
    async () => ({ success: true as const, data: await service().overview(), message: M.loaded }),
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
        response: { 200: successSchema(providerInvoiceSchema), ...failures(400, 401, 403, 404, 502, 503, 504) },
      },
    },
    async (request) => ({ success: true as const, data: await service().invoice(request.params.invoiceId), message: M.invoiceLoaded }),
  );
};
