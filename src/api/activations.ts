// Activations (`/activations`): the "Add Terminal" wizard's calls. Starting one runs the provider's
// steps and answers the record (status `completed`, or `failed` with its `error` and the steps done
// so far); resuming continues from the first step not done. The wire is the shared contract of
// src/domain/activations.ts; an answer that does not read as one is a failure (mapResult's null).
// Refusals (400 validation, 403 not an admin, 404 unknown customer, 409 in progress / blocked /
// not resumable, 503 no provider) come back as ok:false with the server's words.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { bool, isRecord, text, withSignal } from './normalise';
import { listOf } from './terminals';
import {
  ACTIVATION_STEPS,
  ACTIVATION_STEP_LABELS,
  type ActivationPayload,
  type ActivationStatus,
  type ActivationStep,
  type ActivationStepWire,
  type ActivationWire,
} from '../domain/activations';

/** One of the account's addresses (`GET /activations/addresses`). */
export interface AccountAddress {
  addressReferenceId: string;
  formattedAddress: string;
  locality: string | null;
  region: string | null;
}

const STATUSES: readonly ActivationStatus[] = ['running', 'failed', 'completed'];

function step(raw: unknown): ActivationStepWire | null {
  if (!isRecord(raw)) return null;
  const name = ACTIVATION_STEPS.find((s) => s === raw.step);
  if (name === undefined) return null;
  return { step: name as ActivationStep, label: text(raw.label) ?? ACTIVATION_STEP_LABELS[name], doneAt: text(raw.doneAt), skipped: bool(raw.skipped) };
}

/** An activation record; null without an id, a device or a known status. */
export function normaliseActivation(data: unknown): ActivationWire | null {
  if (!isRecord(data)) return null;
  const id = text(data.id);
  const deviceId = text(data.deviceId);
  const status = STATUSES.find((s) => s === data.status);
  if (id === null || deviceId === null || status === undefined) return null;
  const customer = isRecord(data.customer) ? data.customer : null;
  const customerUuid = customer ? text(customer.uuid) : null;
  return {
    id,
    deviceId,
    status,
    steps: listOf(data.steps)
      .map(step)
      .filter((s): s is ActivationStepWire => s !== null),
    customer: customer && customerUuid ? { uuid: customerUuid, name: text(customer.name) ?? 'Customer' } : null,
    productReferenceId: text(data.productReferenceId) ?? '',
    nickname: text(data.nickname),
    addressReferenceId: text(data.addressReferenceId),
    userTerminalId: text(data.userTerminalId),
    serviceLineNumber: text(data.serviceLineNumber),
    error: text(data.error),
    createdAt: text(data.createdAt) ?? '',
    updatedAt: text(data.updatedAt) ?? '',
  };
}

/** One address of the account; null without an id. */
export function normaliseAccountAddress(raw: unknown): AccountAddress | null {
  if (!isRecord(raw)) return null;
  const addressReferenceId = text(raw.addressReferenceId);
  if (addressReferenceId === null) return null;
  return {
    addressReferenceId,
    formattedAddress: text(raw.formattedAddress) ?? addressReferenceId,
    locality: text(raw.locality),
    region: text(raw.region),
  };
}

export function createActivationsApi(client: ApiClient) {
  const path = (id: string, rest = '') => `/activations/${encodeURIComponent(id)}${rest}`;
  return {
    /** Administrators only (403 otherwise). A failed activation is a success here: read its status. */
    start: async (payload: ActivationPayload, signal?: AbortSignal): Promise<ApiResult<ActivationWire>> =>
      mapResult(await client.request<unknown>('/activations', { method: 'POST', body: payload, ...withSignal(signal) }), normaliseActivation),

    resume: async (id: string, signal?: AbortSignal): Promise<ApiResult<ActivationWire>> =>
      mapResult(await client.request<unknown>(path(id, '/resume'), { method: 'POST', ...withSignal(signal) }), normaliseActivation),

    get: async (id: string, signal?: AbortSignal): Promise<ApiResult<ActivationWire>> =>
      mapResult(await client.request<unknown>(path(id), withSignal(signal)), normaliseActivation),

    /** A provider account's addresses (at most 50; the first account's for null), filtered by `search` when given. */
    addresses: async (search = '', signal?: AbortSignal, accountId: number | null = null): Promise<ApiResult<AccountAddress[]>> => {
      const q = search.trim();
      return mapResult(
        await client.request<unknown>('/activations/addresses', {
          ...(q || accountId !== null ? { query: { ...(q ? { search: q } : {}), ...(accountId !== null ? { account_id: accountId } : {}) } } : {}),
          ...withSignal(signal),
        }),
        (data) => {
          const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.addresses) ? data.addresses : null;
          return list && list.map(normaliseAccountAddress).filter((a): a is AccountAddress => a !== null);
        },
      );
    },
  };
}

export type ActivationsApi = ReturnType<typeof createActivationsApi>;
