// Incoming profiles may be camelCase or snake_case (older servers); the app sees one camelCase shape.
import { isMemberRole, type MemberRole } from '../domain/members';
import type { AdminUser, CustomerProfile } from '../domain/auth';
import { BUILT_IN_ROLE_KEYS, isPermission, withImplied, type BuiltInRoleKey, type RoleRef } from '../domain/permissions';

export type Raw = Record<string, unknown>;

// Field readers every normaliser shares: snake_case or camelCase in, a typed value or a default out.
export const isRecord = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
export function pick(raw: Raw, camel: string, snake: string): unknown {
  return raw[camel] ?? raw[snake];
}
export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
/** A string with something in it; null for anything else, blank included. */
export function text(value: unknown): string | null {
  const s = str(value);
  return s && s.trim() !== '' ? s : null;
}
/** For `.filter`: the rows a normaliser could read (it answers null for the others). */
export const present = <T>(value: T | null): value is T => value !== null;
/** A request's options with its abort signal, when there is one. */
export const withSignal = (signal?: AbortSignal): { signal?: AbortSignal } => (signal ? { signal } : {});
export function bool(value: unknown, fallback = false): boolean {
  return typeof value === 'boolean' ? value : fallback;
}
export function int(value: unknown, fallback: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : fallback;
}

/** The account fields portal users and customers share (uuid, email, name, status flags, dates). */
export function accountFields(raw: Raw, now: () => string) {
  return {
    uuid: str(raw.uuid) ?? str(raw.id) ?? '',
    email: str(raw.email) ?? '',
    name: str(raw.name) ?? '',
    isActive: bool(pick(raw, 'isActive', 'is_active')),
    mfaEnabled: bool(pick(raw, 'mfaEnabled', 'mfa_enabled')),
    accountExpiresAt: str(pick(raw, 'accountExpiresAt', 'account_expires_at')),
    blockedEnabled: bool(pick(raw, 'blockedEnabled', 'blocked_enabled')),
    blockedReason: str(pick(raw, 'blockedReason', 'blocked_reason')),
    blockedAt: str(pick(raw, 'blockedAt', 'blocked_at')),
    createdAt: str(pick(raw, 'createdAt', 'created_at')) ?? now(),
    updatedAt: str(pick(raw, 'updatedAt', 'updated_at')) ?? now(),
    lastLogin: str(pick(raw, 'lastLogin', 'last_login')),
    lastIp: str(pick(raw, 'lastIp', 'last_ip')),
  };
}

const isoNow = () => new Date().toISOString();

export function normaliseAdminUser(raw: unknown, now: () => string = isoNow): AdminUser | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Raw;
  const fields = accountFields(r, now);
  if (!fields.uuid || !fields.email) return null;
  return { ...fields, role: r.role === 'admin' ? 'admin' : 'user', roles: roleRefsOf(r.roles), permissions: withImplied(listOf(r.permissions).filter(isPermission)) };
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The roles a user's answer names; entries without an id or a name are skipped. */
export function roleRefsOf(value: unknown): RoleRef[] {
  return listOf(value).flatMap((raw): RoleRef[] => {
    if (!isRecord(raw)) return [];
    const id = text(raw.id);
    const name = text(raw.name);
    if (!id || !name) return [];
    const key = (BUILT_IN_ROLE_KEYS as readonly unknown[]).includes(raw.key) ? (raw.key as BuiltInRoleKey) : null;
    return [{ id, key, name }];
  });
}

/** Spec section 3: a customer's createdAt and updatedAt default to the current time when missing. */
export function normaliseCustomerProfile(raw: unknown, now: () => string = isoNow): CustomerProfile | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Raw;
  const fields = accountFields(r, now);
  if (!fields.uuid || !fields.email) return null;
  // A profile stored before organisations had members is its organisation's own login: the owner.
  const organisationRole = isMemberRole(pick(r, 'organisationRole', 'organisation_role')) ? (pick(r, 'organisationRole', 'organisation_role') as MemberRole) : 'owner';
  const lines = pick(r, 'serviceLines', 'service_lines');
  const serviceLines = Array.isArray(lines) ? lines.filter((line): line is string => typeof line === 'string') : null;
  return { ...fields, phone: str(r.phone), company: str(r.company) ?? '', address: str(r.address), organisationRole, serviceLines };
}
