import type { AdminUser, CustomerProfile } from '../../src/domain/auth';

export const adminProfile: AdminUser = {
  uuid: '3f0c2a9e-1111-4222-8333-944455556666',
  email: 'ana.lima@example.com',
  name: 'Ana Lima',
  role: 'admin',
  isActive: true,
  mfaEnabled: false,
  accountExpiresAt: null,
  blockedEnabled: false,
  blockedReason: null,
  blockedAt: null,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  lastLogin: '2026-11-20T10:00:00.000Z',
  lastIp: '127.0.0.1',
};

export const customerProfile: CustomerProfile = {
  ...(({ role: _role, ...rest }) => rest)(adminProfile),
  uuid: '9a8b7c6d-2222-4333-8444-955566667777',
  email: 'ops@northwind.example',
  name: 'Nina Park',
  phone: null,
  company: 'Northwind Shipping',
  address: null,
};
