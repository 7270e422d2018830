import { advisoryXactLock } from "@pasarela/db";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../database.js";

export interface ThrottleSettings {
  /** failed logins of one e-mail address within the window before it is throttled */
  maxPerEmail: number;
  /** failed logins from one IP within the window before it is throttled */
  maxPerIp: number;
  windowMs: number;
}

export type LoginAdmission =
  | { readonly throttled: true; readonly retryAt: Date }
  | { readonly throttled: false; readonly ipAttempt: string };

/**
 * The login throttle, in billing's database so every instance counts the same failures.
 * An attempt is written down as a failure before the password is checked (under a lock per
 * address and per IP), so concurrent guesses cannot slip past the limit; a success takes back
 * its IP row and clears the address's failures.
 */
export function makeLoginAttemptsRepository(db: Kysely<BillingDatabase>, limits: ThrottleSettings) {
  return {
    async admit(email: string, ip: string, now: Date): Promise<LoginAdmission> {
      return db.transaction().execute(async (trx) => {
        await advisoryXactLock(`login:email:${email}`).execute(trx);
        await advisoryXactLock(`login:ip:${ip}`).execute(trx);
        const since = new Date(now.getTime() - limits.windowMs);
        const failures = (scope: "email" | "ip", key: string) =>
          trx
            .selectFrom("login_attempts")
            .select("at")
            .where("scope", "=", scope)
            .where("key", "=", key)
            .where("at", ">", since)
            .orderBy("at")
            .execute();
        const [byEmail, byIp] = await Promise.all([failures("email", email), failures("ip", ip)]);
        // free again once enough of the oldest failures leave the window
        const freeAt = (rows: { at: Date }[], max: number) =>
          rows.length >= max ? rows[rows.length - max]!.at.getTime() + limits.windowMs : 0;
        const retryAt = Math.max(
          freeAt(byEmail, limits.maxPerEmail),
          freeAt(byIp, limits.maxPerIp),
        );
        if (retryAt > now.getTime()) return { throttled: true, retryAt: new Date(retryAt) };
        await trx
          .insertInto("login_attempts")
          .values({ scope: "email", key: email, at: now })
          .execute();
        const ipRow = await trx
          .insertInto("login_attempts")
          .values({ scope: "ip", key: ip, at: now })
          .returning("id")
          .executeTakeFirstOrThrow();
        return { throttled: false, ipAttempt: ipRow.id };
      });
    },
    /** A successful login: the address starts over, and this attempt does not count for the IP. */
    async succeeded(email: string, ipAttempt: string): Promise<void> {
      await db
        .deleteFrom("login_attempts")
        .where((eb) =>
          eb.or([
            eb.and([eb("scope", "=", "email"), eb("key", "=", email)]),
            eb("id", "=", ipAttempt),
          ]),
        )
        .execute();
    },
    /** A password reset proves the address: its failures are forgotten. */
    async clearEmail(email: string): Promise<void> {
      await db
        .deleteFrom("login_attempts")
        .where("scope", "=", "email")
        .where("key", "=", email)
        .execute();
    },
    async sweep(now: Date): Promise<number> {
      const result = await db
        .deleteFrom("login_attempts")
        .where("at", "<=", new Date(now.getTime() - limits.windowMs))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type LoginAttemptsRepository = ReturnType<typeof makeLoginAttemptsRepository>;
