// Alerts: the Alerts page and its bulk acknowledgement, the shell's bell, the rules
// and their overrides (alerts:manage changes them and acknowledges; alerts:read reads them and
// subscribes to a rule's emails),
// "Evaluate now", and the customer's own alerts (/my/alerts, and the admin's read-only preview).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALERT_MESSAGES as M } from '../../src/domain/alerts';
import { principalOf, requireAccess } from '../plugins/auth';
import { AUTOMATION_MESSAGES } from '../../src/domain/automation';
import { ruleActionOf, ruleActionsBodySchema } from './automation-schemas';
import { customerScopeOf } from '../services/customer-scope';
import { auditContext } from '../services/audit';
import {
  acknowledgeBodySchema,
  acknowledgeResultSchema,
  alertBellSchema,
  alertKindParamsSchema,
  alertListQuerySchema,
  alertListSchema,
  alertOverrideSchema,
  alertRuleBodySchema,
  alertRuleSchema,
  evaluationReportSchema,
  myAlertsSchema,
  overrideBodySchema,
  overrideParamsSchema,
  seenSchema,
  subscriptionBodySchema,
} from './alerts-schemas';
import { failures, successSchema } from './schemas';

const security = [{ bearerAuth: [] }];
const tags = ['alerts'];
const customerParams = z.object({ uuid: z.uuid({ error: 'Customer id must be a UUID' }) });

export const alertRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.alerts;
  const userContext = (request: Parameters<typeof auditContext>[0]) => ({ ...auditContext(request), userId: principalOf(request).id });

  app.get(
    '/alerts',
    {
      config: { auth: 'alerts:read' },
      schema: {
        tags,
        security,
        summary: 'Alerts, newest first, filtered by status (active = open and acknowledged), kind, severity, customer and a search; with the counts per status',
        querystring: alertListQuerySchema,
        response: { 200: successSchema(alertListSchema), ...failures(400, 401, 403) },
      },
    },
    async (request) => {
      const q = request.query;
      const data = await service().list({ ...q, customer: q.customer ?? null, search: q.search ?? null });
      return { success: true as const, data, message: 'Alerts listed' };
    },
  );

  app.get(
    '/alerts/bell',
    { config: { auth: 'alerts:read' }, schema: { tags, security, summary: "The bell: unread and open counts and the newest unresolved alerts", response: { 200: successSchema(alertBellSchema), ...failures(401, 403) } } },
    async (request) => ({ success: true as const, data: await service().bell(principalOf(request).id), message: 'Alert bell' }),
  );

  app.post(
    '/alerts/bell/seen',
    { config: { auth: 'alerts:read' }, schema: { tags, security, summary: 'Marks every alert opened so far as read for the signed-in user', response: { 200: successSchema(seenSchema), ...failures(401, 403) } } },
    async (request) => ({ success: true as const, data: await service().markSeen(principalOf(request).id), message: 'Alerts marked read' }),
  );

  app.post(
    '/alerts/acknowledge',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary: 'Acknowledges open alerts (up to 500 at once); those already acknowledged or resolved are left as they are',
        body: acknowledgeBodySchema,
        response: { 200: successSchema(acknowledgeResultSchema), ...failures(400, 401, 403, 415) },
      },
    },
    async (request) => {
      const data = await service().acknowledge(request.body.ids, userContext(request));
      return { success: true as const, data, message: data.acknowledged.length > 0 ? M.acknowledged(data.acknowledged.length) : M.nothingToAcknowledge };
    },
  );

  app.post(
    '/alerts/evaluate',
    {
      config: { auth: 'alerts:manage' },
      schema: { tags, security, summary: 'Runs the alert evaluation now and answers its figures', response: { 200: successSchema(evaluationReportSchema), ...failures(401, 403) } },
    },
    async () => ({ success: true as const, data: await service().evaluate(), message: 'Alerts evaluated' }),
  );

  app.get(
    '/alert-rules',
    { config: { auth: 'alerts:read' }, schema: { tags, security, summary: 'The alert rules, with whether the signed-in user gets their emails', response: { 200: successSchema(z.array(alertRuleSchema)), ...failures(401, 403) } } },
    async (request) => ({ success: true as const, data: await service().rules(principalOf(request).id), message: 'Alert rules' }),
  );

  app.put(
    '/alert-rules/:kind',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary: "Changes a rule's defaults: on or off, usage levels or threshold, whether the customer is emailed",
        params: alertKindParamsSchema,
        body: alertRuleBodySchema,
        response: { 200: successSchema(alertRuleSchema), ...failures(400, 401, 403, 404, 415) },
      },
    },
    async (request) => ({ success: true as const, data: await service().updateRule(request.params.kind, request.body, userContext(request)), message: M.ruleSaved }),
  );

  app.put(
    '/alert-rules/:kind/actions',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary:
          "Sets what a rule does at its levels besides notifying (data use and projected overage): opt out, cut recurring blocks, move plan, block sign-in, end at the cycle's end; proposed to an admin or done at once. Refused, naming lines, where a covered line's plan cannot take an action",
        params: alertKindParamsSchema,
        body: ruleActionsBodySchema,
        response: { 200: successSchema(alertRuleSchema), ...failures(400, 401, 403, 404, 415) },
      },
    },
    async (request) => {
      // Actions change lines at the provider: they need what a click on the line needs.
      if (request.body.actions.length > 0) requireAccess(request, 'lifecycle:manage');
      return { success: true as const, data: await service().saveActions(request.params.kind, request.body.actions.map(ruleActionOf), userContext(request)), message: AUTOMATION_MESSAGES.actionsSaved };
    },
  );

  app.put(
    '/alert-rules/:kind/subscription',
    {
      config: { auth: 'alerts:read' },
      schema: {
        tags,
        security,
        summary: "Subscribes the signed-in user to a rule's emails, or unsubscribes them",
        params: alertKindParamsSchema,
        body: subscriptionBodySchema,
        response: { 200: successSchema(alertRuleSchema), ...failures(400, 401, 403, 404, 415) },
      },
    },
    async (request) => {
      const data = await service().subscribe(request.params.kind, request.body.subscribed, principalOf(request).id);
      return { success: true as const, data, message: request.body.subscribed ? M.subscribed : M.unsubscribed };
    },
  );

  app.get(
    '/alert-rules/:kind/overrides',
    {
      config: { auth: 'alerts:read' },
      schema: { tags, security, summary: "A rule's overrides for customers and lines", params: alertKindParamsSchema, response: { 200: successSchema(z.array(alertOverrideSchema)), ...failures(400, 401, 403) } },
    },
    async (request) => ({ success: true as const, data: await service().overrides(request.params.kind), message: 'Overrides' }),
  );

  app.put(
    '/alert-rules/:kind/overrides',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary: "Sets a rule's own settings for one customer or one line (the line's win over the customer's)",
        params: alertKindParamsSchema,
        body: overrideBodySchema,
        response: { 200: successSchema(alertOverrideSchema), ...failures(400, 401, 403, 404, 415) },
      },
    },
    async (request) => {
      // An override's own actions change lines at the provider: they need what a click on the line needs.
      if (request.body.actions && request.body.actions.length > 0) requireAccess(request, 'lifecycle:manage');
      const body = { ...request.body, actions: request.body.actions ? request.body.actions.map(ruleActionOf) : request.body.actions };
      return { success: true as const, data: await service().putOverride(request.params.kind, body, userContext(request)), message: M.overrideSaved };
    },
  );

  app.delete(
    '/alert-rules/:kind/overrides/:scope/:key',
    {
      config: { auth: 'alerts:manage' },
      schema: { tags, security, summary: 'Removes an override', params: overrideParamsSchema, response: { 200: successSchema(z.null()), ...failures(400, 401, 403, 404) } },
    },
    async (request) => {
      await service().deleteOverride(request.params.kind, request.params.scope, request.params.key, auditContext(request));
      return { success: true as const, data: null, message: M.overrideRemoved };
    },
  );

  app.get(
    '/my/alerts',
    { config: { auth: 'customer' }, schema: { tags: ['customer area'], security, summary: "The signed-in customer's alerts, unresolved first", response: { 200: successSchema(myAlertsSchema), ...failures(401, 403) } } },
    async (request) => ({ success: true as const, data: await service().ofCustomer(customerScopeOf(principalOf(request))), message: 'Your alerts' }),
  );

  app.get(
    '/customers/:uuid/preview/alerts',
    {
      config: { auth: 'customers:read' },
      schema: { tags: ['customer preview'], security, summary: "A customer's alerts as they see them (read-only preview)", params: customerParams, response: { 200: successSchema(myAlertsSchema), ...failures(400, 401, 403, 404) } },
    },
    async (request) => ({ success: true as const, data: await app.services.customerPreview.alerts(request.params.uuid), message: 'Customer alerts' }),
  );
};
