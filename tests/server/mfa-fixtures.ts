// The steps the MFA tests take, for either kind of account: portal users (/auth/mfa, the admin
// sign-in's code step) and customers (/customers/mfa, the customer sign-in's). One set, so the two
// suites exercise the same flow through their own routes rather than two hand-kept copies.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { MfaSetupWire } from '../../src/domain/mfa';
import { totpCode } from '../../server/auth/totp';
import type { TestContext } from './helpers';

export type MfaKind = 'admin' | 'customer';

interface Account {
  id: string;
  email: string;
  password: string;
}

const ROUTES: Record<MfaKind, { mfa: string; loginMfa: string; table: string; owner: string }> = {
  admin: { mfa: '/auth/mfa', loginMfa: '/auth/login/mfa', table: 'users', owner: 'user_id' },
  customer: { mfa: '/customers/mfa', loginMfa: '/customers/auth/login/mfa', table: 'customers', owner: 'customer_id' },
};

export interface MfaColumns {
  mfa_enabled: boolean;
  mfa_secret: string | null;
  mfa_pending_secret: string | null;
  mfa_last_step: string | number | null;
  failed_login_attempts: number;
}

/** `context` is read on each call: the suites create theirs in `beforeAll`. */
export function mfaSteps(context: () => TestContext, kind: MfaKind) {
  const routes = ROUTES[kind];
  const rows = async <Row>(query: ReturnType<typeof sql>) => ((await context().database.db.execute(query)) as unknown as { rows: Row[] }).rows;

  const post = (url: string, token: string | null, payload?: object) =>
    context().request({ method: 'POST', url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });

  async function sessionOf(account: Account): Promise<string> {
    const login = await context().login(kind, account.email, account.password);
    expect(login.statusCode, login.raw).toBe(200);
    return login.token as string;
  }

  /** The codes of the step after the last one used: each test moves the clock on rather than replaying. */
  async function nextCode(secret: string): Promise<string> {
    context().clock.advance(30_000);
    return totpCode(secret, context().clock.now());
  }

  async function enableMfa(account: Account): Promise<{ token: string; secret: string; backupCodes: string[] }> {
    const token = await sessionOf(account);
    const setup = await post(`${routes.mfa}/setup`, token);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json().data as MfaSetupWire;
    const verify = await post(`${routes.mfa}/verify`, token, { code: await totpCode(secret, context().clock.now()) });
    expect(verify.statusCode, verify.body).toBe(200);
    return { token, secret, backupCodes: verify.json().data.backupCodes as string[] };
  }

  /** Email and password right with MFA on: no token, a challenge for the code step. */
  async function challengeOf(account: Account): Promise<string> {
    const login = await context().login(kind, account.email, account.password);
    expect(login.statusCode).toBe(200);
    expect(login.token).toBeNull();
    return (login.body.data as { challenge: string }).challenge;
  }

  const loginMfa = (challenge: string, code: string) => post(routes.loginMfa, null, { challenge, code });

  async function mfaColumns(id: string): Promise<MfaColumns> {
    const [row] = await rows<MfaColumns>(
      sql`SELECT mfa_enabled, mfa_secret, mfa_pending_secret, mfa_last_step, failed_login_attempts FROM ${sql.identifier(routes.table)} WHERE id = ${id}`,
    );
    return row!;
  }

  const backupRows = (id: string) =>
    rows<{ code_hash: string; used_at: Date | string | null }>(sql`SELECT code_hash, used_at FROM mfa_backup_codes WHERE ${sql.identifier(routes.owner)} = ${id}`);

  const auditActions = async (id: string) => (await rows<{ action: string }>(sql`SELECT action FROM audit_log WHERE target_id = ${id} ORDER BY id`)).map((r) => r.action);

  return { post, sessionOf, nextCode, enableMfa, challengeOf, loginMfa, mfaColumns, backupRows, auditActions };
}
