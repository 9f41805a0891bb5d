// What every simulator route reads and answers with: the expected failure a route raises (the
// plugin's error handler writes it as the provider's envelope), query parameters as the provider
// reads them (a list filter is a repeated key), bodies checked by the table's schemas, and a
// write's outcome turned into its answer. Shared by plugin.ts and the route modules beside it.
import type { z } from 'zod';
import type { Outcome } from './fleet/index';
import { done, type ServiceResponse } from './wire';

/** An expected failure a route raises; the error handler writes it as an envelope. */
export class WireError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 422 | 429,
    message: string,
    readonly memberNames: string[] = [],
  ) {
    super(message);
  }
}

// ---- Query parameters ------------------------------------------------------------------------

export type Query = Record<string, string | string[] | undefined>;

export const lastValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[value.length - 1] : value);

export function intParam(query: Query, name: string, fallback: number, min: number, max = 2_147_483_647): number {
  const raw = lastValue(query[name]);
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new WireError(400, `The value '${raw}' is not valid for ${name}.`, [name]);
  if (value < min || value > max) throw new WireError(400, `${name} must be from ${min} to ${max}.`, [name]);
  return value;
}

export function boolParam(query: Query, name: string): boolean | undefined {
  const raw = lastValue(query[name])?.trim().toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new WireError(400, `The value '${raw}' is not valid for ${name}.`, [name]);
}

/** A repeated key (`?a=1&a=2`, the provider's form); comma-separated values are accepted too. */
export function listParam(query: Query, name: string): string[] | undefined {
  const raw = query[name] ?? query[`${name}[]`];
  if (raw === undefined) return undefined;
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  return values.length > 0 ? values : undefined;
}

export const stringParam = (query: Query, name: string) => lastValue(query[name])?.trim() || undefined;

// ---- Bodies ----------------------------------------------------------------------------------

export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const member = issue.path.map(String).join('.') || 'body';
  throw new WireError(400, `${member}: ${issue.message}`, [member]);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A write's outcome with content: its value, or the failure as the provider answers it. */
export function value<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new WireError(outcome.status, outcome.message, outcome.memberNames);
  return outcome.value;
}

/** A write's outcome as the provider answers it: 200 with a bare envelope, or the failure. */
export function answer(outcome: Outcome<unknown>): ServiceResponse {
  if (!outcome.ok) throw new WireError(outcome.status, outcome.message, outcome.memberNames);
  return done(outcome.information);
}
