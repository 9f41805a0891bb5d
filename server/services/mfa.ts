// TOTP multi-factor authentication of admin-portal users and customers alike: set-up (a pending
// secret and its QR code), the first code turning it on with 8 backup codes, turning it off with a
// code or the password, and the check of the sign-in code step. The principal says which table
// the account lives in; secrets and backup codes are bound to `${type}:${id}`.
import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { BACKUP_CODE_COUNT, BACKUP_CODE_PATTERN, MFA_MESSAGES, isCompleteMfaCode, type MfaDisablePayload, type MfaSetupWire, type MfaVerifyWire } from '../../src/domain/mfa';
import { SETTINGS_MESSAGES } from '../../src/domain/users';
import type { Principal } from '../auth/principal';
import { verifyPassword } from '../auth/passwords';
import type { SecretBox } from '../auth/secret-box';
import { checkTotp, newTotpSecret, totpUri } from '../auth/totp';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { MfaAccountType, MfaRepository } from '../db/repositories/mfa';
import type { AccountRow } from '../db/schema';
import { BadRequestError, ConflictError, UnauthorizedError, INVALID_TOKEN_MESSAGE } from '../errors';
import type { AuditService } from './audit';

export interface MfaRequestContext {
  ip: string | null;
  requestId: string | null;
}

export type SignInCodeCheck =
  | { ok: true; method: 'totp' | 'backup_code' }
  | { ok: false; reason: 'wrong_code' | 'used_backup_code' };

export interface MfaService {
  setup(principal: Principal, context: MfaRequestContext): Promise<MfaSetupWire>;
  verify(principal: Principal, code: string, context: MfaRequestContext): Promise<MfaVerifyWire>;
  disable(principal: Principal, proof: MfaDisablePayload, context: MfaRequestContext): Promise<void>;
  /** A sign-in code: a current TOTP code (not of a step used before) or an unused backup code, which it spends. */
  checkSignInCode(type: MfaAccountType, account: AccountRow, code: string, tx?: Db): Promise<SignInCodeCheck>;
  /** Turns MFA off for an account without proof (an administrator's disable-mfa); false when it was off. */
  reset(type: MfaAccountType, id: string, tx?: Db): Promise<boolean>;
}

/** The signed-in account MFA acts on: a portal user's row or a customer's. */
interface MfaAccount {
  type: MfaAccountType;
  row: AccountRow;
}

/** 32 letters and digits without look-alikes (0/O, 1/I): 5 bits a character, 40 bits a code. */
const BACKUP_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newBackupCode(): string {
  // 256 is a multiple of 32, so every character is equally likely.
  const chars = [...randomBytes(8)].map((byte) => BACKUP_ALPHABET[byte % BACKUP_ALPHABET.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

const normaliseBackupCode = (code: string) => code.trim().toUpperCase().replace(/-/g, '');

/** What each sealed value is bound to: a secret copied into another account's row does not open. */
const secretContext = (type: MfaAccountType, id: string) => `${type}:${id}`;

export function createMfaService(deps: {
  db: Db;
  repos: Repositories;
  mfa: MfaRepository;
  audit: AuditService;
  box: SecretBox;
  now: Clock;
}): MfaService {
  const { db, repos, mfa, audit, box, now } = deps;

  /** The signed-in account and which table it is in. */
  async function currentAccount(principal: Principal): Promise<MfaAccount> {
    // A customer organisation's member has MFA of their own, on their own row.
    const type: MfaAccountType = principal.type === 'admin' ? 'user' : principal.member ? 'member' : 'customer';
    const row =
      principal.type === 'admin'
        ? await repos.users.findLiveById(principal.id)
        : principal.member
          ? await repos.customerMembers.findLiveById(principal.member.id)
          : await repos.customers.findLiveById(principal.id);
    if (!row) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
    return { type, row };
  }

  const backupCodeHash = (type: MfaAccountType, id: string, code: string) => box.digest(`${secretContext(type, id)}:${normaliseBackupCode(code)}`);

  /** A current code of the live secret, recorded as used; false for a wrong or replayed one. */
  async function acceptTotp(type: MfaAccountType, account: AccountRow, code: string, tx: Db): Promise<boolean> {
    // The demo accounts hold unencrypted look-alike secrets: they do not open, so no code fits.
    const secret = box.open(account.mfaSecret, secretContext(type, account.id));
    if (!secret) return false;
    const check = await checkTotp(secret, code, now(), { lastUsedStep: account.mfaLastStep });
    return check.valid && (await mfa.acceptStep(type, account.id, check.step, tx));
  }

  async function checkSignInCode(type: MfaAccountType, account: AccountRow, typed: string, tx: Db = db): Promise<SignInCodeCheck> {
    const code = typed.trim();
    if (!account.mfaEnabled) return { ok: false, reason: 'wrong_code' };
    if (isCompleteMfaCode(code)) {
      return (await acceptTotp(type, account, code, tx)) ? { ok: true, method: 'totp' } : { ok: false, reason: 'wrong_code' };
    }
    if (!BACKUP_CODE_PATTERN.test(code)) return { ok: false, reason: 'wrong_code' };
    const use = await mfa.useBackupCode(type, account.id, backupCodeHash(type, account.id, code), now(), tx);
    if (use === 'accepted') return { ok: true, method: 'backup_code' };
    return { ok: false, reason: use === 'alreadyUsed' ? 'used_backup_code' : 'wrong_code' };
  }

  // Portal users' entries keep their names (`auth.mfa_enabled`); customers' read `customer.mfa_enabled`,
  // beside `customer.login`, and so do their members' (the actor and target say which member).
  const record = ({ type, row }: MfaAccount, action: string, context: MfaRequestContext, after: Record<string, unknown> = {}, tx?: Db) =>
    audit.record(
      {
        actor: { type, id: row.id },
        action: `${type === 'user' ? 'auth' : 'customer'}.${action}`,
        targetType: type,
        targetId: row.id,
        after: { email: row.email, ...after },
        ip: context.ip,
        requestId: context.requestId,
      },
      tx,
    );

  return {
    async setup(principal, context) {
      const account = await currentAccount(principal);
      const { type, row } = account;
      if (row.mfaEnabled) throw new ConflictError(MFA_MESSAGES.alreadyEnabled);
      const secret = newTotpSecret();
      const otpauthUri = totpUri(secret, row.email);
      const qrCodeDataUrl = await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
      await db.transaction(async (tx) => {
        const saved = await mfa.savePendingSecret(type, row.id, box.seal(secret, secretContext(type, row.id)), now(), tx);
        if (!saved) throw new ConflictError(MFA_MESSAGES.alreadyEnabled);
        await record(account, 'mfa_setup_started', context, {}, tx);
      });
      return { secret, otpauthUri, qrCodeDataUrl };
    },

    async verify(principal, typed, context) {
      const code = typed.trim();
      if (!isCompleteMfaCode(code)) throw new BadRequestError(MFA_MESSAGES.invalidCode);
      const account = await currentAccount(principal);
      const { type, row } = account;
      if (row.mfaEnabled) throw new ConflictError(MFA_MESSAGES.alreadyEnabled);
      const pendingSealed = row.mfaPendingSecret;
      const secret = box.open(pendingSealed, secretContext(type, row.id));
      if (!pendingSealed || !secret) throw new ConflictError(MFA_MESSAGES.setupFirst);
      const check = await checkTotp(secret, code, now());
      if (!check.valid) {
        await record(account, 'mfa_enable_failed', context);
        throw new BadRequestError(MFA_MESSAGES.wrongCode);
      }
      const backupCodes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
      await db.transaction(async (tx) => {
        const at = now();
        const enabled = await mfa.enable(type, row.id, { pendingSealed, step: check.step, at }, tx);
        // Another set-up or verify got there first; this code belongs to a secret no longer pending.
        if (!enabled) throw new ConflictError(MFA_MESSAGES.setupFirst);
        await mfa.replaceBackupCodes(type, row.id, backupCodes.map((c) => backupCodeHash(type, row.id, c)), at, tx);
        await record(account, 'mfa_enabled', context, { backupCodes: backupCodes.length }, tx);
      });
      return { backupCodes };
    },

    async disable(principal, { code, password }, context) {
      const typedCode = code?.trim() ?? '';
      if (!typedCode && !password) throw new BadRequestError(MFA_MESSAGES.disableNeedsProof);
      const account = await currentAccount(principal);
      const { type, row } = account;
      if (!row.mfaEnabled) throw new ConflictError(MFA_MESSAGES.notEnabled);
      const proof = typedCode ? 'code' : 'password';
      const disabled = await db.transaction(async (tx) => {
        // A backup code counts as a code: losing the authenticator is when people turn MFA off.
        const proven = typedCode
          ? (await checkSignInCode(type, row, typedCode, tx)).ok
          : Boolean(row.passwordHash && password && (await verifyPassword(row.passwordHash, password)));
        if (!proven) return false;
        await mfa.disable(type, row.id, now(), tx);
        await record(account, 'mfa_disabled', context, { proof }, tx);
        return true;
      });
      if (!disabled) {
        await record(account, 'mfa_disable_failed', context, { proof });
        throw new BadRequestError(typedCode ? MFA_MESSAGES.wrongCode : SETTINGS_MESSAGES.wrongCurrentPassword);
      }
    },

    checkSignInCode,

    reset(type, id, tx) {
      return mfa.disable(type, id, now(), tx);
    },
  };
}
