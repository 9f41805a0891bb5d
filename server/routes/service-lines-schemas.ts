// Request and response schemas of the service-line settings routes, the answer checked against its
// type in src/domain/service-lines.ts so the OpenAPI document cannot drift from it.
import { z } from 'zod';
import {
  DEACTIVATION_REASON_MAX_LENGTH,
  MAX_RECURRING_BLOCKS,
  MAX_TOP_UP_BLOCKS_PER_CYCLE,
  NICKNAME_MAX_LENGTH,
  SERVICE_LINE_MESSAGES as M,
  type ServiceLineSettingsWire,
} from '../../src/domain/service-lines';
import { SERVICE_LINE_PATTERN } from '../../src/domain/terminals';
import { TERMINAL_QUERY_MESSAGES } from './terminals-schemas';
import { exact, type Exact } from './schemas';

export const SERVICE_LINE_REQUEST_MESSAGES = {
  serviceLine: TERMINAL_QUERY_MESSAGES.serviceLine,
  publicIp: 'publicIp must be true or false',
  optedIn: 'optedIn must be true or false',
  applyToCurrentCycle: 'applyToCurrentCycle must be true or false',
  productId: 'productId must be 1 to 100 characters',
  blockCount: `count must be a whole number from 1 to ${MAX_RECURRING_BLOCKS}`,
  topUpCount: `count must be a whole number from 1 to ${MAX_TOP_UP_BLOCKS_PER_CYCLE}`,
  userTerminalId: 'userTerminalId must be 1 to 100 letters, digits, dots, dashes or underscores',
  routerId: 'routerId must be 1 to 100 letters, digits, dots, dashes or underscores',
  configId: 'configId must be null or 1 to 100 letters, digits, dots, dashes or underscores',
} as const;

/** The provider's ids (terminals, routers, configurations): what its paths carry. */
const PROVIDER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const R = SERVICE_LINE_REQUEST_MESSAGES;

export const serviceLineParamsSchema = z.object({
  serviceLineNumber: z.string({ error: R.serviceLine }).regex(SERVICE_LINE_PATTERN, { error: R.serviceLine }),
});

export const nicknameBodySchema = z
  .object({
    nickname: z
      .string({ error: M.nicknameRequired })
      .trim()
      .min(1, { error: M.nicknameRequired })
      .max(NICKNAME_MAX_LENGTH, { error: M.nicknameTooLong }),
  })
  .strict();

export const publicIpBodySchema = z.object({ publicIp: z.boolean({ error: R.publicIp }) }).strict();
export const priorityDataBodySchema = z.object({ optedIn: z.boolean({ error: R.optedIn }) }).strict();

const productId = z.string({ error: R.productId }).trim().min(1, { error: R.productId }).max(100, { error: R.productId });
const count = (max: number, message: string) => z.number({ error: message }).int({ error: message }).min(1, { error: message }).max(max, { error: message });

export const recurringBlocksBodySchema = z
  .object({
    productId,
    count: count(MAX_RECURRING_BLOCKS, R.blockCount),
    applyToCurrentCycle: z.boolean({ error: R.applyToCurrentCycle }).default(false),
  })
  .strict();

export const topUpBodySchema = z.object({ productId, count: count(MAX_TOP_UP_BLOCKS_PER_CYCLE, R.topUpCount) }).strict();

const providerId = (message: string) => z.string({ error: message }).regex(PROVIDER_ID_PATTERN, { error: message });

export const lineTerminalParamsSchema = serviceLineParamsSchema.extend({ userTerminalId: providerId(R.userTerminalId) });
export const lineRouterParamsSchema = serviceLineParamsSchema.extend({ routerId: providerId(R.routerId) });

export const moveTerminalBodySchema = z
  .object({
    toServiceLineNumber: z
      .string({ error: M.targetRequired })
      .trim()
      .min(1, { error: M.targetRequired })
      .regex(SERVICE_LINE_PATTERN, { error: M.targetInvalid }),
  })
  .strict();

export const routerConfigBodySchema = z
  .object({ configId: z.string({ error: R.configId }).regex(PROVIDER_ID_PATTERN, { error: R.configId }).nullable() })
  .strict();

export const deactivateBodySchema = z
  .object({
    when: z.enum(['now', 'end_of_cycle'], { error: M.whenInvalid }),
    reason: z
      .string({ error: M.reasonRequired })
      .trim()
      .min(1, { error: M.reasonRequired })
      .max(DEACTIVATION_REASON_MAX_LENGTH, { error: M.reasonTooLong }),
  })
  .strict();

const dataProductSchema = z.object({ productId: z.string(), dataGB: z.number(), price: z.number(), currency: z.string() });
const recurringSchema = z.object({ productId: z.string(), count: z.number().int(), dataGB: z.number() });

export const serviceLineSettingsSchema = z.object({
  serviceLineNumber: z.string(),
  nickname: z.string().nullable(),
  productReferenceId: z.string(),
  planName: z.string().nullable(),
  planKind: z.enum(['metered', 'blocks']),
  active: z.boolean(),
  endDate: z.string().nullable(),
  publicIp: z.boolean(),
  optedIn: z.boolean(),
  recurringBlocks: recurringSchema.nullable(),
  nextRecurringBlocks: recurringSchema.nullable(),
  blockProducts: z.array(dataProductSchema),
  topUpProduct: dataProductSchema.nullable(),
  topUpBlocksThisCycle: z.number().int(),
  topUpBlocksLeft: z.number().int(),
  partialPeriods: z.array(z.object({ productReferenceId: z.string(), periodStart: z.string(), periodEnd: z.string() })),
  customer: z.object({ uuid: z.string(), name: z.string() }).nullable(),
  terminals: z.array(
    z.object({
      deviceId: z.string(),
      kitSerialNumber: z.string(),
      nickname: z.string().nullable(),
      routers: z.array(z.object({ routerId: z.string(), nickname: z.string().nullable(), configId: z.string().nullable() })),
    }),
  ),
  routerConfigs: z.array(z.object({ configId: z.string(), nickname: z.string().nullable() })),
});
exact<Exact<z.infer<typeof serviceLineSettingsSchema>, ServiceLineSettingsWire>>();
