// Request and response schemas of the activation routes, the answer checked against its type in
// src/domain/activations.ts so the OpenAPI document cannot drift from it.
import { z } from 'zod';
import {
  ACTIVATION_ADDRESS_SEARCH_MAX_LENGTH,
  ACTIVATION_MESSAGES as M,
  ACTIVATION_NICKNAME_MAX_LENGTH,
  ACTIVATION_STEPS,
  DEVICE_ID_PATTERN,
  type ActivationAddressWire,
  type ActivationWire,
} from '../../src/domain/activations';
import { exact, providerAccountIdField, providerAccountParam, type Exact } from './schemas';

export const ACTIVATION_REQUEST_MESSAGES = {
  id: 'id must be a UUID',
  customerUuid: 'customerUuid must be a UUID',
  accountId: 'accountId must be a provider account id',
  addressReferenceId: 'addressReferenceId must be a UUID',
  productReferenceId: 'productReferenceId must be 1 to 100 characters',
  addressLines: 'addressLines must hold 1 to 5 lines of 1 to 200 characters',
  formattedAddress: 'formattedAddress must be 1 to 500 characters',
  latitude: 'latitude must be a number from -90 to 90',
  longitude: 'longitude must be a number from -180 to 180',
  text: 'must be at most 200 characters',
} as const;
const R = ACTIVATION_REQUEST_MESSAGES;

const optionalText = (max: number) => z.string({ error: `${R.text}` }).trim().max(max, { error: R.text }).nullish();

export const newAddressSchema = z
  .object({
    addressLines: z.array(z.string({ error: R.addressLines }).trim().min(1, { error: R.addressLines }).max(200, { error: R.addressLines }), { error: R.addressLines }).min(1, { error: R.addressLines }).max(5, { error: R.addressLines }),
    locality: optionalText(200),
    administrativeArea: optionalText(200),
    region: optionalText(200),
    postalCode: optionalText(40),
    formattedAddress: z.string({ error: R.formattedAddress }).trim().min(1, { error: R.formattedAddress }).max(500, { error: R.formattedAddress }),
    latitude: z.number({ error: R.latitude }).min(-90, { error: R.latitude }).max(90, { error: R.latitude }),
    longitude: z.number({ error: R.longitude }).min(-180, { error: R.longitude }).max(180, { error: R.longitude }),
  })
  .strict();

export const activationBodySchema = z
  .object({
    deviceId: z.string({ error: M.deviceInvalid }).trim().regex(DEVICE_ID_PATTERN, { error: M.deviceInvalid }),
    customerUuid: z.uuid({ error: R.customerUuid }).nullish(),
    accountId: providerAccountIdField(R.accountId).nullish(),
    addressReferenceId: z.uuid({ error: R.addressReferenceId }).nullish(),
    newAddress: newAddressSchema.nullish(),
    productReferenceId: z.string({ error: R.productReferenceId }).trim().min(1, { error: R.productReferenceId }).max(100, { error: R.productReferenceId }),
    nickname: z.string({ error: M.nicknameTooLong }).trim().max(ACTIVATION_NICKNAME_MAX_LENGTH, { error: M.nicknameTooLong }).nullish(),
  })
  .strict();

export const activationParamsSchema = z.object({ id: z.uuid({ error: R.id }) });

export const activationSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  status: z.enum(['running', 'failed', 'completed']),
  steps: z.array(z.object({ step: z.enum(ACTIVATION_STEPS), label: z.string(), doneAt: z.string().nullable(), skipped: z.boolean() })),
  customer: z.object({ uuid: z.string(), name: z.string() }).nullable(),
  productReferenceId: z.string(),
  nickname: z.string().nullable(),
  addressReferenceId: z.string().nullable(),
  userTerminalId: z.string().nullable(),
  serviceLineNumber: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
exact<Exact<z.infer<typeof activationSchema>, ActivationWire>>();

export const addressSearchQuerySchema = z.object({
  search: z
    .string({ error: `search must be at most ${ACTIVATION_ADDRESS_SEARCH_MAX_LENGTH} characters` })
    .trim()
    .max(ACTIVATION_ADDRESS_SEARCH_MAX_LENGTH, { error: `search must be at most ${ACTIVATION_ADDRESS_SEARCH_MAX_LENGTH} characters` })
    .optional(),
  account_id: providerAccountParam,
});

export const activationAddressesSchema = z.array(
  z.object({ addressReferenceId: z.string(), formattedAddress: z.string().nullable(), locality: z.string().nullable(), region: z.string().nullable() }),
);
exact<Exact<z.infer<typeof activationAddressesSchema>[number], ActivationAddressWire>>();
