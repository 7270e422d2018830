import { randomUUID } from "node:crypto";
import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { appError, fail, loginThrottled, ok } from "@pasarela/errors";
import type { AccountsRepository } from "../db/repositories/accounts.js";
import type { LoginAttemptsRepository } from "../db/repositories/login-attempts.js";
import type { PasswordResetsRepository } from "../db/repositories/password-resets.js";
import type { UsersRepository } from "../db/repositories/users.js";
import { passwordResetMessage, type SendMessage } from "../domain/messages.js";
import {
  hashPassword,
  newResetToken,
  resetTokenHash,
  verifyPassword,
} from "../domain/passwords.js";

export interface UserDeps {
  accounts: AccountsRepository;
  users: UsersRepository;
  attempts: LoginAttemptsRepository;
  resets: PasswordResetsRepository;
  now: () => Date;
  /** how long a password-reset link works */
  resetTtlMs: number;
  /** a hash checked against when the e-mail is unknown (same time as a wrong password) */
  dummyHash: string;
  sendMessage: SendMessage;
}

/** Reset e-mails one user may be sent per hour: more requests are answered alike, silently. */
const RESETS_PER_HOUR = 5;

// Never log a password, a token or a hash: ids only.

export function makeUserSignup(deps: UserDeps): Handler<typeof billing.userSignup> {
  return async ({ accountName, name, email, password }, ctx) => {
    const accountId = randomUUID();
    const userId = randomUUID();
    const created = await deps.users.createWithAccount(accountName, {
      id: userId,
      account_id: accountId,
      name,
      email,
      password_hash: await hashPassword(password),
      role: "owner",
    });
    if (created === "taken") return fail(appError("USER_EMAIL_TAKEN"));
    ctx.logger.info({ accountId, userId }, "account signed up");
    return ok({ accountId, userId });
  };
}

export function makeUserLogin(deps: UserDeps): Handler<typeof billing.userLogin> {
  return async ({ email, password, ip }, ctx) => {
    const now = deps.now();
    const admission = await deps.attempts.admit(email, ip, now);
    if (admission.throttled) {
      const seconds = Math.max(1, Math.ceil((admission.retryAt.getTime() - now.getTime()) / 1000));
      ctx.logger.warn("login throttled");
      return fail(loginThrottled(seconds, admission.retryAt));
    }
    const user = await deps.users.findByEmail(email);
    // an unknown address costs one scrypt too: its answer comes as late as a wrong password's
    const valid = await verifyPassword(password, user?.password_hash ?? deps.dummyHash);
    if (!user || !valid) {
      ctx.logger.info("login failed");
      return fail(appError("INVALID_CREDENTIALS"));
    }
    await deps.attempts.succeeded(email, admission.ipAttempt);
    ctx.logger.info({ userId: user.id, accountId: user.account_id }, "login");
    return ok({ userId: user.id, accountId: user.account_id, name: user.name, email: user.email });
  };
}

export function makeUserGet(deps: UserDeps): Handler<typeof billing.userGet> {
  return async ({ userId }) => {
    const user = await deps.users.findById(userId);
    if (!user) return fail(appError("USER_NOT_FOUND"));
    return ok({
      userId: user.id,
      accountId: user.account_id,
      accountName: user.account_name,
      name: user.name,
      email: user.email,
      role: user.role,
    });
  };
}

/** `billing.account.owner.get`: who is told about the account by e-mail. */
export function makeAccountOwnerGet(deps: UserDeps): Handler<typeof billing.accountOwnerGet> {
  return async ({ accountId }) => {
    const owner = await deps.users.findOwner(accountId);
    if (!owner) return fail(appError("USER_NOT_FOUND"));
    return ok({
      userId: owner.id,
      accountId: owner.account_id,
      accountName: owner.account_name,
      name: owner.name,
      email: owner.email,
    });
  };
}

export function makeUserPasswordChange(deps: UserDeps): Handler<typeof billing.userPasswordChange> {
  return async ({ userId, current, password }, ctx) => {
    const user = await deps.users.findById(userId);
    if (!user) return fail(appError("USER_NOT_FOUND"));
    if (!(await verifyPassword(current, user.password_hash))) {
      ctx.logger.info({ userId }, "password change refused: wrong current password");
      return fail(appError("INVALID_CREDENTIALS"));
    }
    await deps.users.setPassword(userId, await hashPassword(password), deps.now());
    ctx.logger.info({ userId }, "password changed");
    return ok({});
  };
}

export function makeUserResetRequest(deps: UserDeps): Handler<typeof billing.userResetRequest> {
  return async ({ email, baseUrl }, ctx) => {
    const user = await deps.users.findByEmail(email);
    if (!user) return ok({});
    const now = deps.now();
    const recent = await deps.resets.countSince(user.id, new Date(now.getTime() - 3_600_000));
    if (recent >= RESETS_PER_HOUR) {
      ctx.logger.warn({ userId: user.id }, "password reset not sent: too many this hour");
      return ok({});
    }
    const { token, hash } = newResetToken();
    await deps.resets.insert(hash, user.id, now, deps.resetTtlMs);
    const link = `${baseUrl}/panel/restablecer?token=${encodeURIComponent(token)}`;
    await deps.sendMessage(
      passwordResetMessage({
        to: user.email,
        name: user.name,
        link,
        minutes: Math.round(deps.resetTtlMs / 60_000),
      }),
    );
    ctx.logger.info({ userId: user.id }, "password reset e-mail queued");
    return ok({});
  };
}

export function makeUserResetComplete(deps: UserDeps): Handler<typeof billing.userResetComplete> {
  return async ({ token, password }, ctx) => {
    const now = deps.now();
    const userId = await deps.resets.consume(resetTokenHash(token), now);
    if (!userId) return fail(appError("RESET_TOKEN_INVALID"));
    const user = await deps.users.findById(userId);
    if (!user) return fail(appError("RESET_TOKEN_INVALID"));
    await deps.users.setPassword(userId, await hashPassword(password), now);
    // the address was proven: its failed logins no longer count
    await deps.attempts.clearEmail(user.email);
    ctx.logger.info({ userId }, "password reset");
    return ok({ userId });
  };
}

export function makeUserAdd(deps: UserDeps): Handler<typeof billing.userAdd> {
  return async ({ accountId, name, email, password }, ctx) => {
    if (!(await deps.accounts.exists(accountId))) return fail(appError("ACCOUNT_NOT_FOUND"));
    const userId = randomUUID();
    const created = await deps.users.create({
      id: userId,
      account_id: accountId,
      name,
      email,
      password_hash: await hashPassword(password),
      role: "member",
    });
    if (created === "taken") return fail(appError("USER_EMAIL_TAKEN"));
    ctx.logger.info({ accountId, userId }, "user added");
    return ok({ userId });
  };
}
