// Subscriptions for administrators: the list of every live terminal's plan this cycle with the
// summary, the plans the provider offers, and a plan change that goes through the provider.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SUBSCRIPTION_MESSAGES } from '../../src/domain/subscriptions';
import { auditContext } from '../services/audit';
import { SUBSCRIPTION_SERVER_MESSAGES as MESSAGES } from '../services/subscriptions';
import { failures, successSchema } from './schemas';
import {
  changePlanBodySchema,
  changePlanResultSchema,
  subscriptionLineParamsSchema,
  subscriptionListQuerySchema,
  subscriptionListSchema,
  subscriptionPlansQuerySchema,
  subscriptionPlansSchema,
} from './subscriptions-schemas';

const tags = ['subscriptions'];
const security = [{ bearerAuth: [] }];

export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.subscriptions;

  app.get(
    '/subscriptions',
    {
      config: { auth: 'subscriptions:read' },
      schema: {
        tags,
        security,
        summary: "Every live terminal's plan for the current billing cycle, over-plan first, with a summary of the whole inventory",
        querystring: subscriptionListQuerySchema,
        response: { 200: successSchema(subscriptionListSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      const { over_plan: overPlan, account_id: accountId, ...query } = request.query;
      const data = await service().list({ ...query, overPlan, accountId });
      return { success: true as const, data, message: MESSAGES.listed };
    },
  );

  app.get(
    '/subscriptions/plans',
    {
      config: { auth: 'subscriptions:read' },
      schema: {
        tags,
        security,
        summary: "The plans one provider account offers (its synced products), with their monthly data and price in the account's currency",
        querystring: subscriptionPlansQuerySchema,
        response: { 200: successSchema(subscriptionPlansSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      const data = await service().plans(request.query.account_id);
      return { success: true as const, data, message: MESSAGES.plans };
    },
  );

  app.put(
    '/subscriptions/:serviceLineNumber/plan',
    {
      config: { auth: 'subscriptions:manage' },
      schema: {
        tags,
        security,
        summary: "Move a service line to another plan through the provider; written locally only once the provider accepted",
        params: subscriptionLineParamsSchema,
        body: changePlanBodySchema,
        response: { 200: successSchema(changePlanResultSchema), ...failures(401, 403, 404, 409, 415, 502, 503, 504) },
      },
    },
    async (request) => {
      const subscription = await service().changePlan({ serviceLineNumber: request.params.serviceLineNumber, ...request.body }, auditContext(request));
      return { success: true as const, data: { subscription }, message: SUBSCRIPTION_MESSAGES.planChanged(subscription.serviceLineNumber, subscription.plan) };
    },
  );
};
