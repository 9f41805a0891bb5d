// A service line's settings and the lifecycle actions on it (Terminal Details → Settings). Reading
// needs terminals:read; a line's own settings terminals:manage, and what costs money or ends
// service (top-ups, data blocks, deactivation, moving terminals, reboots) lifecycle:manage. Every
// change goes through the provider before it is stored and audited.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SERVICE_LINE_MESSAGES as M } from '../../src/domain/service-lines';
import { auditContext } from '../services/audit';
import { failures, successSchema } from './schemas';
import {
  deactivateBodySchema,
  lineRouterParamsSchema,
  lineTerminalParamsSchema,
  moveTerminalBodySchema,
  nicknameBodySchema,
  priorityDataBodySchema,
  publicIpBodySchema,
  recurringBlocksBodySchema,
  routerConfigBodySchema,
  serviceLineParamsSchema,
  serviceLineSettingsSchema,
  topUpBodySchema,
} from './service-lines-schemas';

const tags = ['service-lines'];
const security = [{ bearerAuth: [] }];
const writeFailures = failures(400, 401, 403, 404, 409, 415, 502, 503, 504);

export const serviceLineRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.serviceLines;
  const answer = (settings: Awaited<ReturnType<ReturnType<typeof service>['settings']>>, message: string) => ({ success: true as const, data: settings, message });

  app.get(
    '/service-lines/:serviceLineNumber/settings',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: "A service line's settings as the provider has them now, with what its plan sells",
        params: serviceLineParamsSchema,
        response: { 200: successSchema(serviceLineSettingsSchema), ...failures(400, 401, 403, 404, 409, 502, 503, 504) },
      },
    },
    async (request) => answer(await service().settings(request.params.serviceLineNumber), M.loaded),
  );

  app.put(
    '/service-lines/:serviceLineNumber/nickname',
    {
      config: { auth: 'terminals:manage' },
      schema: { tags, security, summary: 'Rename a service line', params: serviceLineParamsSchema, body: nicknameBodySchema, response: { 200: successSchema(serviceLineSettingsSchema), ...writeFailures } },
    },
    async (request) => answer(await service().rename(request.params.serviceLineNumber, request.body.nickname, auditContext(request)), M.renamed),
  );

  app.put(
    '/service-lines/:serviceLineNumber/public-ip',
    {
      config: { auth: 'terminals:manage' },
      schema: { tags, security, summary: "Turn a service line's public IP on or off", params: serviceLineParamsSchema, body: publicIpBodySchema, response: { 200: successSchema(serviceLineSettingsSchema), ...writeFailures } },
    },
    async (request) => {
      const { publicIp } = request.body;
      return answer(await service().setPublicIp(request.params.serviceLineNumber, publicIp, auditContext(request)), publicIp ? M.publicIpOn : M.publicIpOff);
    },
  );

  app.put(
    '/service-lines/:serviceLineNumber/priority-data',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags,
        security,
        summary: 'Opt a service line in to (or out of) priority data past its limit',
        params: serviceLineParamsSchema,
        body: priorityDataBodySchema,
        response: { 200: successSchema(serviceLineSettingsSchema), ...writeFailures },
      },
    },
    async (request) => {
      const { optedIn } = request.body;
      return answer(await service().setPriorityData(request.params.serviceLineNumber, optedIn, auditContext(request)), optedIn ? M.optedIn : M.optedOut);
    },
  );

  app.put(
    '/service-lines/:serviceLineNumber/recurring-blocks',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags,
        security,
        summary: "Set a Priority line's recurring data blocks from the next cycle, or also for this one",
        params: serviceLineParamsSchema,
        body: recurringBlocksBodySchema,
        response: { 200: successSchema(serviceLineSettingsSchema), ...writeFailures },
      },
    },
    async (request) => answer(await service().setRecurringBlocks(request.params.serviceLineNumber, request.body, auditContext(request)), M.recurringSet),
  );

  app.post(
    '/service-lines/:serviceLineNumber/top-up',
    {
      config: { auth: 'lifecycle:manage' },
      schema: { tags, security, summary: 'Buy one-time top-up blocks for the current cycle', params: serviceLineParamsSchema, body: topUpBodySchema, response: { 200: successSchema(serviceLineSettingsSchema), ...writeFailures } },
    },
    async (request) => answer(await service().topUp(request.params.serviceLineNumber, request.body, auditContext(request)), M.toppedUp),
  );

  app.post(
    '/service-lines/:serviceLineNumber/deactivate',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags,
        security,
        summary: 'End a service line now, or at the end of its billing cycle (a reason is required)',
        params: serviceLineParamsSchema,
        body: deactivateBodySchema,
        response: { 200: successSchema(serviceLineSettingsSchema), ...writeFailures },
      },
    },
    async (request) => {
      const settings = await service().deactivate(request.params.serviceLineNumber, request.body, auditContext(request));
      return answer(settings, request.body.when === 'now' ? M.deactivatedNow : M.deactivationScheduled);
    },
  );

  app.post(
    '/service-lines/:serviceLineNumber/terminals/:userTerminalId/move',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags,
        security,
        summary: 'Move a terminal of this line to another active line (the answer is this line, without it)',
        params: lineTerminalParamsSchema,
        body: moveTerminalBodySchema,
        response: { 200: successSchema(serviceLineSettingsSchema), ...writeFailures },
      },
    },
    async (request) => {
      const { serviceLineNumber, userTerminalId } = request.params;
      return answer(await service().moveTerminal(serviceLineNumber, userTerminalId, request.body, auditContext(request)), M.terminalMoved);
    },
  );

  app.delete(
    '/service-lines/:serviceLineNumber/terminals/:userTerminalId',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags,
        security,
        summary: 'Take a terminal off this line (it stays on the account, on no line)',
        params: lineTerminalParamsSchema,
        response: { 200: successSchema(serviceLineSettingsSchema), ...failures(400, 401, 403, 404, 409, 502, 503, 504) },
      },
    },
    async (request) => {
      const { serviceLineNumber, userTerminalId } = request.params;
      return answer(await service().removeTerminal(serviceLineNumber, userTerminalId, auditContext(request)), M.terminalRemoved);
    },
  );

  app.post(
    '/service-lines/:serviceLineNumber/routers/:routerId/reboot',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags,
        security,
        summary: 'Reboot a router behind a terminal of this line',
        params: lineRouterParamsSchema,
        response: { 200: successSchema(serviceLineSettingsSchema), ...writeFailures },
      },
    },
    async (request) => answer(await service().rebootRouter(request.params.serviceLineNumber, request.params.routerId, auditContext(request)), M.routerRebooted),
  );

  app.put(
    '/service-lines/:serviceLineNumber/routers/:routerId/config',
    {
      config: { auth: 'terminals:manage' },
      schema: {
        tags,
        security,
        summary: "Assign one of the account's router configurations to a router of this line (null: the default)",
        params: lineRouterParamsSchema,
        body: routerConfigBodySchema,
        response: { 200: successSchema(serviceLineSettingsSchema), ...writeFailures },
      },
    },
    async (request) => {
      const { serviceLineNumber, routerId } = request.params;
      return answer(await service().setRouterConfig(serviceLineNumber, routerId, request.body, auditContext(request)), M.routerConfigSet);
    },
  );
};
