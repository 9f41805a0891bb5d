// Request and response schemas of the API-key routes, the answers checked against their types in
// src/domain/api-keys.ts. The schemas check shapes and the edge's lengths; the service checks the
// rules (a role that exists and lies within yours, an expiry in the future, addresses and ranges)
// and answers each problem by its field.
import { z } from 'zod';
import { API_KEY_LIMITS, API_KEY_MESSAGES as M, API_KEY_STATUSES, type ApiKeyCreatedWire, type ApiKeyWire } from '../../src/domain/api-keys';
import { BUILT_IN_ROLE_KEYS } from '../../src/domain/permissions';
import { exact, inputText, type Exact } from './schemas';

export const API_KEY_FIELD_MESSAGES = {
  id: 'API key id must be a UUID',
  name: 'name must be text',
  roleId: 'roleId must be text',
  expiresAt: 'expiresAt must be a date and time, or null',
  allowedIps: 'allowedIps must be a list of addresses or ranges',
} as const;
const F = API_KEY_FIELD_MESSAGES;

export const apiKeyParamsSchema = z.object({ id: z.uuid({ error: F.id }) });

export const newApiKeyBodySchema = z
  .object({
    name: inputText({ error: F.name }),
    roleId: inputText({ error: F.roleId }),
    expiresAt: inputText({ error: F.expiresAt }).nullable().optional(),
    // A few over the limit get the service's own words; a thousand stop here.
    allowedIps: z.array(inputText({ error: F.allowedIps }).max(API_KEY_LIMITS.ipEntry * 4, { error: F.allowedIps }), { error: F.allowedIps }).max(API_KEY_LIMITS.allowedIps * 5, { error: M.tooManyIps }).optional(),
  })
  .strict();

const isoDate = z.string();
const person = z.object({ id: z.string(), name: z.string(), email: z.string() });

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  role: z.object({ id: z.string(), key: z.enum(BUILT_IN_ROLE_KEYS).nullable(), name: z.string() }),
  createdBy: person.nullable(),
  createdAt: isoDate,
  expiresAt: isoDate.nullable(),
  allowedIps: z.array(z.string()),
  lastUsedAt: isoDate.nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: isoDate.nullable(),
  revokedBy: person.nullable(),
  status: z.enum(API_KEY_STATUSES),
});

export const apiKeyCreatedSchema = z.object({ key: apiKeySchema, secret: z.string() });

exact<Exact<z.infer<typeof apiKeySchema>, ApiKeyWire>>();
exact<Exact<z.infer<typeof apiKeyCreatedSchema>, ApiKeyCreatedWire>>();
