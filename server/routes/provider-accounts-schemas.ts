// Request and response schemas of the provider-account routes, the answers checked against their
// types in src/domain/provider-accounts.ts. URLs must be https (plain http only to this machine):
// the token request carries the client secret. The service checks what depends on the kind.
import { z } from 'zod';
import {
  PROVIDER_ACCOUNT_KINDS,
  PROVIDER_ACCOUNT_LIMITS as L,
  PROVIDER_ACCOUNT_STATUSES,
  type ProviderAccountRef,
  type ProviderAccountWire,
  type ProviderConnectionTestWire,
  type SimulatedAccountWire,
} from '../../src/domain/provider-accounts';
import { serviceUrl } from '../provider/config';
import { exact, isoDate, type Exact } from './schemas';

export const PROVIDER_ACCOUNT_FIELD_MESSAGES = {
  id: 'The account id must be a whole number',
  name: `name must be 1 to ${L.name} characters`,
  kind: `kind must be one of ${PROVIDER_ACCOUNT_KINDS.join(', ')}`,
  url: 'must be an https:// URL (http:// only for localhost)',
  clientId: `clientId must be 1 to ${L.clientId} characters`,
  clientSecret: `clientSecret must be at most ${L.clientSecret} characters`,
  simulatorAccount: 'simulatorAccount must name one of the built-in simulator\'s accounts',
  requestsPerMinute: `requestsPerMinute must be a whole number from ${L.requestsPerMinute.min} to ${L.requestsPerMinute.max}`,
  syncIntervalMinutes: `syncIntervalMinutes must be a whole number from ${L.syncIntervalMinutes.min} to ${L.syncIntervalMinutes.max}, or null`,
} as const;
const F = PROVIDER_ACCOUNT_FIELD_MESSAGES;

export const providerAccountParamsSchema = z.object({ id: z.coerce.number({ error: F.id }).int({ error: F.id }).min(1, { error: F.id }).max(2_147_483_647, { error: F.id }) });

const url = z.string({ error: F.url }).max(L.url, { error: F.url }).pipe(serviceUrl);

const fields = {
  name: z.string({ error: F.name }).trim().min(1, { error: F.name }).max(L.name, { error: F.name }),
  kind: z.enum(PROVIDER_ACCOUNT_KINDS, { error: F.kind }),
  simulatorAccount: z.string({ error: F.simulatorAccount }).max(40, { error: F.simulatorAccount }).nullable().optional(),
  apiUrl: url.nullable().optional(),
  // Null or absent: `${apiUrl}/auth/connect/token`.
  tokenUrl: url.nullable().optional(),
  clientId: z.string({ error: F.clientId }).trim().min(1, { error: F.clientId }).max(L.clientId, { error: F.clientId }).nullable().optional(),
  clientSecret: z.string({ error: F.clientSecret }).max(L.clientSecret, { error: F.clientSecret }).nullable().optional(),
  requestsPerMinute: z
    .number({ error: F.requestsPerMinute })
    .int({ error: F.requestsPerMinute })
    .min(L.requestsPerMinute.min, { error: F.requestsPerMinute })
    .max(L.requestsPerMinute.max, { error: F.requestsPerMinute })
    .optional(),
  syncIntervalMinutes: z
    .number({ error: F.syncIntervalMinutes })
    .int({ error: F.syncIntervalMinutes })
    .min(L.syncIntervalMinutes.min, { error: F.syncIntervalMinutes })
    .max(L.syncIntervalMinutes.max, { error: F.syncIntervalMinutes })
    .nullable()
    .optional(),
};

export const newProviderAccountBodySchema = z.object(fields).strict();
export const providerAccountPatchSchema = z.object({ ...fields, name: fields.name.optional(), kind: fields.kind.optional() }).strict();

export const providerAccountSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(PROVIDER_ACCOUNT_KINDS),
  simulatorAccount: z.string().nullable(),
  apiUrl: z.string().nullable(),
  tokenUrl: z.string().nullable(),
  clientId: z.string().nullable(),
  hasSecret: z.boolean(),
  requestsPerMinute: z.number(),
  syncIntervalMinutes: z.number().nullable(),
  status: z.enum(PROVIDER_ACCOUNT_STATUSES),
  statusMessage: z.string().nullable(),
  accountNumber: z.string().nullable(),
  currency: z.string().nullable(),
  lineCount: z.number(),
  terminalCount: z.number(),
  lastSyncAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

export const providerAccountRefSchema = z.object({ id: z.number(), name: z.string() });

export const connectionTestSchema = z.object({ ok: z.boolean(), message: z.string(), accountNumber: z.string().nullable(), testedAt: isoDate });

export const simulatedAccountSchema = z.object({ slug: z.string(), name: z.string(), currency: z.string(), terminals: z.number(), usedBy: z.number().nullable() });

exact<Exact<z.infer<typeof providerAccountSchema>, ProviderAccountWire>>();
exact<Exact<z.infer<typeof providerAccountRefSchema>, ProviderAccountRef>>();
exact<Exact<z.infer<typeof connectionTestSchema>, ProviderConnectionTestWire>>();
exact<Exact<z.infer<typeof simulatedAccountSchema>, SimulatedAccountWire>>();
