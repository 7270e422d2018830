import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from "node:crypto";
import { sql, type Kysely } from "@pasarela/db";
import type { EdgeDatabase } from "./db/database.js";

/** Who a live dashboard session belongs to; what a page needs to answer for its account. */
export interface Session {
  /** SHA-256 of the cookie's id: the row's key, safe to hold in memory and logs never see */
  readonly idHash: Buffer;
  readonly userId: string;
  readonly accountId: string;
  readonly name: string;
  readonly email: string;
  readonly csrfSecret: Buffer;
}

export interface SessionTimes {
  /** a session unused this long ends */
  idleMs: number;
  /** a session ends this long after login, whatever its activity */
  absoluteMs: number;
}

/** 32 random bytes, base64url: what the cookie carries. */
export const newSessionId = (): string => randomBytes(32).toString("base64url");

/** The key a session id is stored under; a cookie that is not one of ours hashes to nothing. */
export const hashSessionId = (id: string): Buffer => createHash("sha256").update(id).digest();

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
export const looksLikeSessionId = (value: string | undefined): value is string =>
  value !== undefined && SESSION_ID.test(value);

/** The synchronizer token of a session's forms: an HMAC of its secret, never the secret. */
export function csrfToken(session: Pick<Session, "csrfSecret">): string {
  return createHmac("sha256", session.csrfSecret).update("pasarela-panel-form").digest("base64url");
}

export function sameToken(expected: string, given: unknown): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** AES-256-GCM key of a session's flashes, from the raw id the database never sees. */
const flashKey = (sessionId: string) =>
  Buffer.from(hkdfSync("sha256", sessionId, "pasarela-panel", "flash", 32));

function seal(sessionId: string, value: unknown): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", flashKey(sessionId), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(sessionId: string, sealed: Buffer): unknown {
  const decipher = createDecipheriv("aes-256-gcm", flashKey(sessionId), sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  const text = Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
  return JSON.parse(text.toString("utf8")) as unknown;
}

/** Touching last_seen_at on every page would write on every read: once a minute is enough. */
const TOUCH_EVERY_MS = 60_000;
/** A flash not read within this is dropped (the redirect that reads it is immediate). */
const FLASH_TTL_MS = 10 * 60_000;

export type SessionStore = ReturnType<typeof makeSessionStore>;

/** Dashboard sessions and their one-time flashes, in the edge's own schema. */
export function makeSessionStore(db: Kysely<EdgeDatabase>, times: SessionTimes) {
  return {
    /** A new session for a logged-in user; answers the raw id for the cookie. */
    async create(user: {
      userId: string;
      accountId: string;
      name: string;
      email: string;
    }): Promise<string> {
      const id = newSessionId();
      await db
        .insertInto("sessions")
        .values({
          id_hash: hashSessionId(id),
          user_id: user.userId,
          account_id: user.accountId,
          user_name: user.name,
          email: user.email,
          csrf_secret: randomBytes(32),
          expires_at: new Date(Date.now() + times.absoluteMs),
        })
        .execute();
      return id;
    },

    /** The live session of a cookie's id: not revoked, not past either expiry. */
    async find(id: string): Promise<Session | undefined> {
      const idHash = hashSessionId(id);
      const row = await db
        .selectFrom("sessions")
        .selectAll()
        .where("id_hash", "=", idHash)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", sql<Date>`now()`)
        .where(
          "last_seen_at",
          ">",
          sql<Date>`now() - make_interval(secs => ${times.idleMs / 1000})`,
        )
        .executeTakeFirst();
      if (!row) return undefined;
      if (Date.now() - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
        await db
          .updateTable("sessions")
          .set({ last_seen_at: sql<Date>`now()` })
          .where("id_hash", "=", idHash)
          .execute();
      }
      return {
        idHash,
        userId: row.user_id,
        accountId: row.account_id,
        name: row.user_name,
        email: row.email,
        csrfSecret: row.csrf_secret,
      };
    },

    async revoke(idHash: Buffer): Promise<void> {
      await db
        .updateTable("sessions")
        .set({ revoked_at: sql<Date>`now()` })
        .where("id_hash", "=", idHash)
        .where("revoked_at", "is", null)
        .execute();
      await db.deleteFrom("flashes").where("session_hash", "=", idHash).execute();
    },

    /** Every session of a user ends (a password changed or reset). */
    async revokeUser(userId: string): Promise<void> {
      await db
        .updateTable("sessions")
        .set({ revoked_at: sql<Date>`now()` })
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .execute();
    },

    /** Keeps `value` for the next page of this session only; answers the flash's id. */
    async putFlash(sessionId: string, value: unknown): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto("flashes")
        .values({ id, session_hash: hashSessionId(sessionId), sealed: seal(sessionId, value) })
        .execute();
      return id;
    },

    /** The flash, once: it is deleted as it is read; another session's flash is nothing. */
    async takeFlash(sessionId: string, flashId: string): Promise<unknown> {
      const row = await db
        .deleteFrom("flashes")
        .where("id", "=", flashId)
        .where("session_hash", "=", hashSessionId(sessionId))
        .where("created_at", ">", new Date(Date.now() - FLASH_TTL_MS))
        .returning("sealed")
        .executeTakeFirst();
      if (!row) return undefined;
      try {
        return open(sessionId, row.sealed);
      } catch {
        return undefined;
      }
    },

    /** Drops what can never be used again (called now and then, not on the request path). */
    async sweep(): Promise<void> {
      await db
        .deleteFrom("flashes")
        .where("created_at", "<", new Date(Date.now() - FLASH_TTL_MS))
        .execute();
      await db
        .deleteFrom("sessions")
        .where("expires_at", "<", sql<Date>`now() - interval '1 day'`)
        .execute();
    },
  };
}
