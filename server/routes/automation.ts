// Automatic actions (the queue of what the alert rules proposed or did: approve, dismiss, undo)
// and scheduled changes (list, schedule, cancel). Reading needs lifecycle:read; deciding,
// undoing, scheduling and cancelling change lines and customers, as a click does: lifecycle:manage.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUTOMATION_MESSAGES as M } from '../../src/domain/automation';
import { principalOf } from '../plugins/auth';
import { auditContext } from '../services/audit';
import {
  actionListQuerySchema,
  automaticActionListSchema,
  automaticActionSchema,
  idParamsSchema,
  scheduleBodySchema,
  scheduleListQuerySchema,
  scheduledChangeListSchema,
  scheduledChangeSchema,
} from './automation-schemas';
import { failures, successSchema } from './schemas';

const security = [{ bearerAuth: [] }];

export const automationRoutes: FastifyPluginAsyncZod = async (app) => {
  const actions = () => app.services.automaticActions;
  const schedules = () => app.services.scheduledChanges;
  const userContext = (request: Parameters<typeof auditContext>[0]) => ({ ...auditContext(request), userId: principalOf(request).id });

  app.get(
    '/automatic-actions',
    {
      config: { auth: 'lifecycle:read' },
      schema: {
        tags: ['automatic-actions'],
        security,
        summary: 'Automatic actions of the alert rules, newest first: waiting (proposed and queued), done, failed, dismissed, undone',
        querystring: actionListQuerySchema,
        response: { 200: successSchema(automaticActionListSchema), ...failures(400, 401, 403) },
      },
    },
    async (request) => {
      const q = request.query;
      return { success: true as const, data: await actions().list({ ...q, search: q.search ?? null }), message: 'Automatic actions listed' };
    },
  );

  for (const [verb, summary, message] of [
    ['approve', 'Approves a proposed action: it is made at once, and answered with its outcome', M.approved],
    ['dismiss', 'Dismisses a proposed action: nothing is done', M.dismissed],
    ['undo', 'Takes a done action back where the provider allows it (opts the line back in, restores the recurring blocks or the plan, unblocks sign-in)', M.undone],
  ] as const) {
    app.post(
      `/automatic-actions/:id/${verb}`,
      {
        config: { auth: 'lifecycle:manage' },
        schema: { tags: ['automatic-actions'], security, summary, params: idParamsSchema, response: { 200: successSchema(automaticActionSchema), ...failures(400, 401, 403, 404, 409, 502, 504) } },
      },
      async (request) => ({ success: true as const, data: await actions()[verb](request.params.id, userContext(request)), message }),
    );
  }

  app.get(
    '/scheduled-changes',
    {
      config: { auth: 'lifecycle:read' },
      schema: {
        tags: ['scheduled-changes'],
        security,
        summary: 'Scheduled changes of lines and customers: upcoming soonest first, the others latest first',
        querystring: scheduleListQuerySchema,
        response: { 200: successSchema(scheduledChangeListSchema), ...failures(400, 401, 403) },
      },
    },
    async (request) => {
      const q = request.query;
      return { success: true as const, data: await schedules().list({ ...q, target: q.target ?? null }), message: 'Scheduled changes listed' };
    },
  );

  app.post(
    '/scheduled-changes',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags: ['scheduled-changes'],
        security,
        summary: "Schedules a line's or a customer's change at a time (up to 13 months ahead) or at the line's next billing cycle",
        body: scheduleBodySchema,
        response: { 201: successSchema(scheduledChangeSchema), ...failures(400, 401, 403, 415) },
      },
    },
    async (request, reply) => {
      const data = await schedules().schedule(request.body, userContext(request));
      return reply.code(201).send({ success: true as const, data, message: M.scheduled });
    },
  );

  app.post(
    '/scheduled-changes/:id/cancel',
    {
      config: { auth: 'lifecycle:manage' },
      schema: { tags: ['scheduled-changes'], security, summary: 'Cancels a change that has not run yet', params: idParamsSchema, response: { 200: successSchema(scheduledChangeSchema), ...failures(400, 401, 403, 404, 409) } },
    },
    async (request) => ({ success: true as const, data: await schedules().cancel(request.params.id, userContext(request)), message: M.cancelled }),
  );
};
