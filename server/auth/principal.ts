import type { UserRole } from '../../src/domain/auth';

/** Who a request acts as, once its bearer token checked out against a live account. */
export type Principal = { type: 'admin'; id: string; role: UserRole } | { type: 'customer'; id: string };

/**
 * What a route admits; every /api/v1 route declares one in `config.auth`. 'admin' is any
 * admin-portal user; 'administrator' only those with the admin role (managing portal users).
 */
export type AccessLevel = 'public' | 'admin' | 'administrator' | 'customer' | 'authenticated';

export const ACCESS_LEVELS: readonly AccessLevel[] = ['public', 'admin', 'administrator', 'customer', 'authenticated'];
