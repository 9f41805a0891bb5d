import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authRoutes } from './auth';
import { customerAuthRoutes } from './customer-auth';
import { customerRoutes } from './customers';
import { customerTerminalRoutes } from './customer-terminals';
import { emailOutboxRoutes } from './customers-email-outbox';
import { dashboardRoutes } from './dashboard';
import { healthRoutes } from './health';
import { mfaRoutes } from './mfa';
import { passwordSetupRoutes } from './password-setup';
import { profileRoutes } from './profile';
import { providerConsoleRoutes } from './provider-console';
import { terminalRoutes } from './terminals';
import { subscriptionRoutes } from './subscriptions';
import { terminalSyncRoutes } from './terminal-sync';
import { userRoutes } from './users';

/** Every /api/v1 route, registered under the prefix by app.ts. */
export const apiRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(mfaRoutes);
  await app.register(customerAuthRoutes);
  await app.register(customerRoutes);
  await app.register(userRoutes);
  await app.register(profileRoutes);
  await app.register(passwordSetupRoutes);
  await app.register(emailOutboxRoutes);
  await app.register(dashboardRoutes);
  await app.register(providerConsoleRoutes);
  await app.register(terminalRoutes);
  await app.register(customerTerminalRoutes);
  await app.register(terminalSyncRoutes);
  await app.register(subscriptionRoutes);
};
