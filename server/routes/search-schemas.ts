// Request and response schemas of the command palette's search, the answer checked against
// src/domain/search.ts.
import { z } from 'zod';
import { SEARCH_KINDS, SEARCH_MESSAGES, SEARCH_QUERY_MAX_LENGTH, type SearchAnswerWire } from '../../src/domain/search';
import { exact, type Exact } from './schemas';

export const searchQuerySchema = z.object({
  q: z
    .string({ error: SEARCH_MESSAGES.query })
    .trim()
    .min(1, { error: SEARCH_MESSAGES.query })
    .max(SEARCH_QUERY_MAX_LENGTH, { error: SEARCH_MESSAGES.query }),
});

export const searchAnswerSchema = z.object({
  results: z.array(
    z.object({
      kind: z.enum(SEARCH_KINDS),
      id: z.string(),
      label: z.string(),
      detail: z.string(),
    }),
  ),
});

exact<Exact<z.output<typeof searchAnswerSchema>, SearchAnswerWire>>();
