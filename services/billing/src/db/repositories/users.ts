import { isUniqueViolation } from "@pasarela/db";
import type { Kysely, Selectable } from "kysely";
import type { BillingDatabase, UsersTable } from "../database.js";

export type UserRow = Selectable<UsersTable>;

const isEmailTaken = (error: unknown) => isUniqueViolation(error, "users_email_key");

export type NewUser = Omit<UserRow, "created_at" | "password_changed_at">;

export function makeUsersRepository(db: Kysely<BillingDatabase>) {
  return {
    /** A new account and its owner together; "taken" when the e-mail already has a user. */
    async createWithAccount(accountName: string, user: NewUser): Promise<"created" | "taken"> {
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto("accounts")
            .values({ id: user.account_id, name: accountName })
            .execute();
          await trx.insertInto("users").values(user).execute();
        });
        return "created";
      } catch (error) {
        if (isEmailTaken(error)) return "taken";
        throw error;
      }
    },
    async create(user: NewUser): Promise<"created" | "taken"> {
      try {
        await db.insertInto("users").values(user).execute();
        return "created";
      } catch (error) {
        if (isEmailTaken(error)) return "taken";
        throw error;
      }
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
    },
    async findById(id: string): Promise<(UserRow & { account_name: string }) | undefined> {
      return db
        .selectFrom("users")
        .innerJoin("accounts", "accounts.id", "users.account_id")
        .selectAll("users")
        .select("accounts.name as account_name")
        .where("users.id", "=", id)
        .executeTakeFirst();
    },
    /** The user who signed the account up (its first owner), with the account's name. */
    async findOwner(accountId: string): Promise<(UserRow & { account_name: string }) | undefined> {
      return db
        .selectFrom("users")
        .innerJoin("accounts", "accounts.id", "users.account_id")
        .selectAll("users")
        .select("accounts.name as account_name")
        .where("users.account_id", "=", accountId)
        .where("users.role", "=", "owner")
        .orderBy("users.created_at")
        .limit(1)
        .executeTakeFirst();
    },
    async setPassword(id: string, passwordHash: string, now: Date): Promise<void> {
      await db
        .updateTable("users")
        .set({ password_hash: passwordHash, password_changed_at: now })
        .where("id", "=", id)
        .execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof makeUsersRepository>;
