// The command palette's search: customers, service lines, kit and dish serials and portal users,
// for any signed-in portal user, each kind only for who may read it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SEARCH_MESSAGES } from '../../src/domain/search';
import { principalOf } from '../plugins/auth';
import { failures, successSchema } from './schemas';
import { searchAnswerSchema, searchQuerySchema } from './search-schemas';

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/search',
    {
      config: { auth: 'staff' },
      schema: {
        tags: ['search'],
        security: [{ bearerAuth: [] }],
        summary: 'Up to 20 customers, service lines, kit and dish serials and (administrators only) portal users holding q, best match first',
        querystring: searchQuerySchema,
        response: { 200: successSchema(searchAnswerSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      const data = await app.services.search.search(request.query.q, principalOf(request));
      return { success: true as const, data, message: SEARCH_MESSAGES.found };
    },
  );
};
