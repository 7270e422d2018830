import type { Sealer } from "@pasarela/sealing";
import type { Kysely } from "kysely";
import type { CobrosDatabase } from "../database.js";

export interface ProviderCredentials {
  readonly accessToken: string;
  readonly webhookSecret: string;
}

/** The context each secret is sealed under: a ciphertext copied to another row never opens. */
const context = (accountId: string, field: string) => `cobros:${accountId}:${field}`;

/** Mercado Pago credentials per account, sealed at rest and opened only when used. */
export function makeCuentasRepository(db: Kysely<CobrosDatabase>, sealer: Sealer) {
  return {
    async set(accountId: string, credentials: ProviderCredentials): Promise<void> {
      const values = {
        provider: "mercadopago" as const,
        access_token: sealer.seal(credentials.accessToken, context(accountId, "access_token")),
        webhook_secret: sealer.seal(
          credentials.webhookSecret,
          context(accountId, "webhook_secret"),
        ),
      };
      await db
        .insertInto("cuentas_proveedor")
        .values({ account_id: accountId, ...values })
        .onConflict((c) =>
          c.column("account_id").doUpdateSet({ ...values, updated_at: new Date() }),
        )
        .execute();
    },

    async get(accountId: string): Promise<ProviderCredentials | undefined> {
      const row = await db
        .selectFrom("cuentas_proveedor")
        .select(["access_token", "webhook_secret"])
        .where("account_id", "=", accountId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        accessToken: sealer.open(row.access_token, context(accountId, "access_token")),
        webhookSecret: sealer.open(row.webhook_secret, context(accountId, "webhook_secret")),
      };
    },
  };
}

export type CuentasRepository = ReturnType<typeof makeCuentasRepository>;

/** Notifications already handled, by the provider's request id: the replay guard. */
export function makeNotificacionesRepository(db: Kysely<CobrosDatabase>) {
  return {
    async seen(requestId: string): Promise<boolean> {
      const row = await db
        .selectFrom("notificaciones")
        .select("request_id")
        .where("request_id", "=", requestId)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Records a handled notification; false when another delivery recorded it first. */
    async record(requestId: string, accountId: string, dataId: string): Promise<boolean> {
      const inserted = await db
        .insertInto("notificaciones")
        .values({ request_id: requestId, account_id: accountId, data_id: dataId })
        .onConflict((c) => c.column("request_id").doNothing())
        .returning("request_id")
        .executeTakeFirst();
      return inserted !== undefined;
    },
  };
}

export type NotificacionesRepository = ReturnType<typeof makeNotificacionesRepository>;
