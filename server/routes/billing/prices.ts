// Billing: the price list and its history, the customers' own prices (negotiated
// figures and discounts) and the corrections carried to a customer's next statement: billing:read
// reads them, billing:manage changes them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BILLING_MESSAGES as M } from '../../../src/domain/billing';
import { auditContext } from '../../services/audit';
import {
  adjustmentBodySchema,
  adjustmentParamsSchema,
  adjustmentSchema,
  adjustmentsQuerySchema,
  customerPriceBodySchema,
  customerPriceParamsSchema,
  customerPriceSchema,
  customerPricesQuerySchema,
  endCustomerPriceBodySchema,
  priceBodySchema,
  priceListSchema,
  priceParamsSchema,
  priceSchema,
} from './prices-schemas';
import { failures, successSchema } from '../schemas';

const security = [{ bearerAuth: [] }];
const tags = ['billing'];

export const billingPriceRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.billingPrices;

  app.get(
    '/billing/prices',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags,
        security,
        summary: "The provider's products, each with what the provider charges and the list's price in effect today, and the list's whole history, newest first",
        response: { 200: successSchema(priceListSchema), ...failures(401, 403) },
      },
    },
    async () => ({ success: true as const, data: await service().priceList(), message: 'Price list' }),
  );

  app.post(
    '/billing/prices',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: 'Adds a price for a product from a date (amounts as typed, exact in the currency); a product has one price per date',
        body: priceBodySchema,
        response: { 201: successSchema(priceSchema), ...failures(401, 403, 409, 415) },
      },
    },
    async (request, reply) => {
      const data = await service().addPrice(request.body, auditContext(request));
      return reply.code(201).send({ success: true as const, data, message: M.priceSaved });
    },
  );

  app.delete(
    '/billing/prices/:id',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: 'Withdraws a price not yet in effect (one from today or earlier stays: add a later price instead)',
        params: priceParamsSchema,
        response: { 200: successSchema(z.null()), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => {
      await service().withdrawPrice(request.params.id, auditContext(request));
      return { success: true as const, data: null, message: M.priceWithdrawn };
    },
  );

  app.get(
    '/billing/customer-prices',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags,
        security,
        summary: "The customers' own prices (or one customer's), newest first",
        querystring: customerPricesQuerySchema,
        response: { 200: successSchema(z.array(customerPriceSchema)), ...failures(401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await service().customerPrices(request.query.customer ?? null), message: 'Customer prices' }),
  );

  app.post(
    '/billing/customer-prices',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: "Gives a customer their own prices for a product (or every product): a discount and/or negotiated figures, from a date until an optional end",
        body: customerPriceBodySchema,
        response: { 201: successSchema(customerPriceSchema), ...failures(401, 403, 404, 415) },
      },
    },
    async (request, reply) => {
      const data = await service().addCustomerPrice(request.body, auditContext(request));
      return reply.code(201).send({ success: true as const, data, message: M.customerPriceSaved });
    },
  );

  app.post(
    '/billing/customer-prices/:id/end',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: "Ends a customer's price on a date (by default the first day of the next cycle); the row stays, as closed statements were worked out from it",
        params: customerPriceParamsSchema,
        body: endCustomerPriceBodySchema,
        response: { 200: successSchema(customerPriceSchema), ...failures(401, 403, 404, 415) },
      },
    },
    async (request) => {
      const data = await service().endCustomerPrice(request.params.id, request.body.effectiveUntil ?? null, auditContext(request));
      return { success: true as const, data, message: M.customerPriceEnded };
    },
  );

  app.get(
    '/billing/adjustments',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags,
        security,
        summary: 'Corrections, newest first: pending (waiting for a statement to close), applied, or all; for one customer or every one',
        querystring: adjustmentsQuerySchema,
        response: { 200: successSchema(z.array(adjustmentSchema)), ...failures(401, 403) },
      },
    },
    async (request) => {
      const data = await service().adjustments({ customerId: request.query.customer ?? null, status: request.query.status });
      return { success: true as const, data, message: 'Corrections' };
    },
  );

  app.post(
    '/billing/adjustments',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: "Adds a correction, a credit or a charge, carried onto the customer's next statement in its currency",
        body: adjustmentBodySchema,
        response: { 201: successSchema(adjustmentSchema), ...failures(401, 403, 404, 415) },
      },
    },
    async (request, reply) => {
      const data = await service().addAdjustment(request.body, auditContext(request));
      return reply.code(201).send({ success: true as const, data, message: M.adjustmentSaved });
    },
  );

  app.delete(
    '/billing/adjustments/:id',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: 'Deletes a correction no closed statement carries yet',
        params: adjustmentParamsSchema,
        response: { 200: successSchema(z.null()), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => {
      await service().deleteAdjustment(request.params.id, auditContext(request));
      return { success: true as const, data: null, message: M.adjustmentDeleted };
    },
  );
};
