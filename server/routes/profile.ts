// The signed-in account's own profile and password: portal users and customers.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SETTINGS_MESSAGES } from '../../src/domain/users';
import { principalOf } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { adminUserSchema, customerProfileSchema, failures, successSchema } from './schemas';
import { changePasswordBodySchema, customerProfileBodySchema, profileBodySchema } from './users-schemas';

const security = [{ bearerAuth: [] }];
const passwordSummary = 'Change the password (current one checked; a wrong one counts toward the lockout); answers a fresh token';

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const profile = () => app.services.profile;

  app.put(
    '/users/profile',
    {
      config: { auth: 'staff' },
      schema: {
        tags: ['users'],
        security,
        summary: "The signed-in user's own name",
        body: profileBodySchema,
        response: { 200: successSchema(z.object({ user: adminUserSchema })), ...failures(401, 403) },
      },
    },
    async (request) => {
      const user = await profile().updateUserProfile(principalOf(request).id, request.body, auditContext(request));
      return { success: true as const, data: { user }, message: SETTINGS_MESSAGES.profileUpdated };
    },
  );

  app.put(
    '/users/change-password',
    {
      config: { auth: 'staff' },
      schema: {
        tags: ['users'],
        security,
        summary: passwordSummary,
        body: changePasswordBodySchema,
        response: { 200: successSchema(z.object({ user: adminUserSchema, token: z.string() })), ...failures(401, 403, 423) },
      },
    },
    async (request) => {
      const data = await profile().changeUserPassword(principalOf(request).id, request.body, auditContext(request));
      return { success: true as const, data, message: SETTINGS_MESSAGES.passwordChanged };
    },
  );

  app.put(
    '/customers/profile',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['customer auth'],
        security,
        summary: "The signed-in customer's own name, company, phone and address",
        body: customerProfileBodySchema,
        response: { 200: successSchema(z.object({ customer: customerProfileSchema })), ...failures(401, 403) },
      },
    },
    async (request) => {
      const customer = await profile().updateCustomerProfile(principalOf(request), request.body, auditContext(request));
      return { success: true as const, data: { customer }, message: SETTINGS_MESSAGES.profileUpdated };
    },
  );

  app.put(
    '/customers/change-password',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['customer auth'],
        security,
        summary: passwordSummary,
        body: changePasswordBodySchema,
        response: { 200: successSchema(z.object({ customer: customerProfileSchema, token: z.string() })), ...failures(401, 403, 423) },
      },
    },
    async (request) => {
      const data = await profile().changeCustomerPassword(principalOf(request), request.body, auditContext(request));
      return { success: true as const, data, message: SETTINGS_MESSAGES.passwordChanged };
    },
  );
};
