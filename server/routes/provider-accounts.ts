// Provider accounts: the reseller's service accounts at the provider. Reading them needs
// provider:read; adding, editing, disabling, testing and deleting them provider:manage. The client
// secret goes in and is never answered.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditContext } from '../services/audit';
import { PROVIDER_ACCOUNTS_MESSAGES as M } from '../services/provider-accounts';
import {
  connectionTestSchema,
  newProviderAccountBodySchema,
  providerAccountParamsSchema,
  providerAccountPatchSchema,
  providerAccountRefSchema,
  providerAccountSchema,
  simulatedAccountSchema,
} from './provider-accounts-schemas';
import { failures, successSchema } from './schemas';

const security = [{ bearerAuth: [] }];
const tags = ['provider-accounts'];

export const providerAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.providerAccounts;

  app.get(
    '/provider-accounts',
    {
      config: { auth: 'provider:read' },
      schema: {
        tags,
        security,
        summary: 'Every provider account with its status, its live lines and terminals and its last sync; never a client secret',
        response: { 200: successSchema(z.array(providerAccountSchema)), ...failures(401, 403, 429) },
      },
    },
    async () => ({ success: true as const, data: await service().list(), message: M.listed }),
  );

  app.get(
    '/provider-accounts/refs',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        security,
        summary: "Every set-up provider account's id and name, for the lists' Account column and filter (any portal user)",
        response: { 200: successSchema(z.array(providerAccountRefSchema)), ...failures(401, 403, 429) },
      },
    },
    async () => ({ success: true as const, data: await service().refs(), message: M.listed }),
  );

  app.get(
    '/provider-accounts/simulated',
    {
      config: { auth: 'provider:read' },
      schema: {
        tags,
        security,
        summary: "The built-in simulator's accounts one may add (none when a real provider is configured), each with the portal account using it",
        response: { 200: successSchema(z.array(simulatedAccountSchema)), ...failures(401, 403, 429) },
      },
    },
    async () => ({ success: true as const, data: await service().simulated(), message: M.listed }),
  );

  app.post(
    '/provider-accounts',
    {
      config: { auth: 'provider:manage' },
      schema: {
        tags,
        security,
        summary: "Add a provider account: a Starlink service account (URLs, client id and secret, sealed at rest) or one of the built-in simulator's",
        body: newProviderAccountBodySchema,
        response: { 201: successSchema(providerAccountSchema), ...failures(400, 401, 403, 409, 415, 429) },
      },
    },
    async (request, reply) => {
      const data = await service().create(request.body, auditContext(request));
      return reply.code(201).send({ success: true as const, data, message: M.created });
    },
  );

  app.patch(
    '/provider-accounts/:id',
    {
      config: { auth: 'provider:manage' },
      schema: {
        tags,
        security,
        summary: 'Edit a provider account; a blank or absent clientSecret keeps the stored one. New credentials lift an authentication-failed pause',
        params: providerAccountParamsSchema,
        body: providerAccountPatchSchema,
        response: { 200: successSchema(providerAccountSchema), ...failures(400, 401, 403, 404, 409, 415, 429) },
      },
    },
    async (request) => ({ success: true as const, data: await service().update(request.params.id, request.body, auditContext(request)), message: M.updated }),
  );

  for (const [path, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    app.post(
      `/provider-accounts/:id/${path}`,
      {
        config: { auth: 'provider:manage' },
        schema: {
          tags,
          security,
          summary: enabled
            ? 'Enable a provider account: its syncs run again on its schedule'
            : 'Disable a provider account: its data stays, nothing calls the provider for it, its syncs stop',
          params: providerAccountParamsSchema,
          response: { 200: successSchema(providerAccountSchema), ...failures(401, 403, 404, 409, 429) },
        },
      },
      async (request) => ({
        success: true as const,
        data: await service().setEnabled(request.params.id, enabled, auditContext(request)),
        message: enabled ? M.enabled : M.disabled,
      }),
    );
  }

  app.post(
    '/provider-accounts/:id/test',
    {
      config: { auth: 'provider:manage' },
      schema: {
        tags,
        security,
        summary: 'Ask the provider for the account now and say what it answered; refused credentials mark the account "authentication failed"',
        params: providerAccountParamsSchema,
        response: { 200: successSchema(connectionTestSchema), ...failures(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const data = await service().test(request.params.id, auditContext(request));
      return { success: true as const, data, message: data.message };
    },
  );

  app.delete(
    '/provider-accounts/:id',
    {
      config: { auth: 'provider:manage' },
      schema: {
        tags,
        security,
        summary: 'Delete a provider account that holds nothing; one that still holds service lines is refused with their count (disable it instead)',
        params: providerAccountParamsSchema,
        response: { 200: successSchema(z.null()), ...failures(401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      await service().remove(request.params.id, auditContext(request));
      return { success: true as const, data: null, message: M.deleted };
    },
  );
};
