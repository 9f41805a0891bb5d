// Customer management for administrators: /customers list, stats, detail, activity, create,
// edit (block, unblock, activate), delete, extend, and a fresh password-setup link.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_EXTENSION_DAYS } from '../../src/domain/customers';
import { requireAccess } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { CUSTOMER_SERVER_MESSAGES } from '../services/customers';
import type { LinkContext } from '../services/customers-password-setup';
import {
  activityEntrySchema,
  activityQuerySchema,
  createCustomerBodySchema,
  customerListDataSchema,
  customerListQuerySchema,
  customerParamsSchema,
  customerSchema,
  customerStatsSchema,
  customerUpdateDataSchema,
  extendBodySchema,
  updateCustomerBodySchema,
} from './customers-schemas';
import { failures, successSchema } from './schemas';

const tags = ['customers'];
const security = [{ bearerAuth: [] }];
const customerData = successSchema(z.object({ customer: customerSchema }));

/** Who acts, from where, and the origin links point at when PUBLIC_URL is unset. */
export function linkContext(request: FastifyRequest): LinkContext {
  return { ...auditContext(request), origin: `${request.protocol}://${request.host}`, log: request.log };
}

export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  const customers = () => app.services.customers;

  app.get(
    '/customers',
    {
      config: { auth: 'customers:read' },
      schema: {
        tags,
        security,
        summary: 'One page of customers, newest first, with search and status filters',
        querystring: customerListQuerySchema,
        response: { 200: successSchema(customerListDataSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      const { page, limit, search, is_active, status } = request.query;
      const data = await customers().list({ page, limit, search, isActive: is_active, status });
      return { success: true as const, data, message: 'Customers retrieved successfully' };
    },
  );

  app.get(
    '/customers/stats',
    {
      config: { auth: 'customers:read' },
      schema: {
        tags,
        security,
        summary: 'Counts for the stats cards, over every customer (not just one page)',
        response: { 200: successSchema(customerStatsSchema), ...failures(401, 403) },
      },
    },
    async () => {
      const data = await customers().stats();
      return { success: true as const, data, message: 'Customer statistics retrieved successfully' };
    },
  );

  app.get(
    '/customers/:uuid',
    {
      config: { auth: 'customers:read' },
      schema: {
        tags,
        security,
        summary: 'One customer',
        params: customerParamsSchema,
        response: { 200: customerData, ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const customer = await customers().get(request.params.uuid);
      return { success: true as const, data: { customer }, message: 'Customer retrieved successfully' };
    },
  );

  app.get(
    '/customers/:uuid/activity',
    {
      config: { auth: 'customers:read' },
      schema: {
        tags,
        security,
        summary: "The customer's audit trail (changes, links, sign-ins), newest first",
        params: customerParamsSchema,
        querystring: activityQuerySchema,
        response: { 200: successSchema(z.object({ activity: z.array(activityEntrySchema) })), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const activity = await customers().activity(request.params.uuid, request.query.limit);
      return { success: true as const, data: { activity }, message: 'Customer activity retrieved successfully' };
    },
  );

  app.post(
    '/customers',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags,
        security,
        summary: 'Create a Pending customer and email a password-setup link',
        body: createCustomerBodySchema,
        response: { 201: customerData, ...failures(401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { email, name, company, expirationDays } = request.body;
      const { customer, message } = await customers().create({ email, name, company, expirationDays }, linkContext(request));
      return reply.code(201).send({ success: true as const, data: { customer }, message });
    },
  );

  app.put(
    '/customers/:uuid',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags,
        security,
        summary: "Edit contact fields, block (with a reason, optionally ending the customer's lines at the end of the cycle) or unblock, activate or deactivate",
        params: customerParamsSchema,
        body: updateCustomerBodySchema,
        response: { 200: successSchema(customerUpdateDataSchema), ...failures(401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      // Ending lines is a service-line write, the admin role's alone (as POST /service-lines/:n/deactivate).
      if (request.body.end_lines_at_cycle_end === true) requireAccess(request, 'lifecycle:manage');
      const { customer, message, lineEndings } = await customers().update(request.params.uuid, request.body, { ...auditContext(request), log: request.log });
      return { success: true as const, data: { customer, lineEndings }, message };
    },
  );

  app.delete(
    '/customers/:uuid',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags,
        security,
        summary: 'Delete a customer (soft: the row stays for the audit trail, the email is freed)',
        params: customerParamsSchema,
        response: { 200: successSchema(z.object({ uuid: z.uuid() })), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const data = await customers().remove(request.params.uuid, auditContext(request));
      return { success: true as const, data, message: CUSTOMER_SERVER_MESSAGES.deleted };
    },
  );

  app.put(
    '/customers/:uuid/extend',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags,
        security,
        summary: 'Extend the account by `days` (default 365) from the later of now and the current expiry',
        params: customerParamsSchema,
        body: extendBodySchema.nullish(),
        response: { 200: customerData, ...failures(401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      // No body at all means the default, as `{}` does.
      const days = request.body?.days ?? DEFAULT_EXTENSION_DAYS;
      const { customer, message } = await customers().extend(request.params.uuid, days, auditContext(request));
      return { success: true as const, data: { customer }, message };
    },
  );

  app.post(
    '/customers/:uuid/password-link',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags,
        security,
        summary: 'Email a fresh password-setup link; older unused links stop working',
        params: customerParamsSchema,
        response: {
          200: successSchema(z.object({ email: z.string(), expiresAt: z.string() })),
          ...failures(401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const { data, message } = await customers().sendPasswordLink(request.params.uuid, linkContext(request));
      return { success: true as const, data, message };
    },
  );
};
